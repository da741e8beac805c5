//! Golden keys of the key parts behind cargo features. Each label starts
//! with `feature NAME:`; without the feature the line is not built, and
//! `keys_match_golden_file` checks the file's other lines.

#[cfg(any(feature = "rust_decimal", feature = "time", feature = "jiff"))]
use rowkey::RowKey;

/// Whether the golden line labelled `label` is built with the features on.
pub fn built(label: &str) -> bool {
    match label
        .strip_prefix("feature ")
        .and_then(|l| l.split_once(':'))
    {
        None => true,
        Some(("rust_decimal", _)) => cfg!(feature = "rust_decimal"),
        Some(("time", _)) => cfg!(feature = "time"),
        Some(("jiff", _)) => cfg!(feature = "jiff"),
        Some(("text forms", _)) => cfg!(all(
            feature = "chrono",
            feature = "uuid",
            feature = "rust_decimal",
            feature = "time",
            feature = "jiff"
        )),
        Some((other, _)) => panic!("golden label for an unknown feature: {other}"),
    }
}

/// Whether every optional key part is built (blessing needs them all).
pub fn all_built() -> bool {
    cfg!(all(
        feature = "chrono",
        feature = "uuid",
        feature = "rust_decimal",
        feature = "time",
        feature = "jiff"
    ))
}

#[cfg(feature = "rust_decimal")]
#[derive(RowKey)]
struct Dec {
    v: rust_decimal::Decimal,
}

#[cfg(feature = "time")]
#[derive(RowKey)]
struct TimeParts {
    day: time::Date,
    plain: time::PrimitiveDateTime,
    at: time::OffsetDateTime,
}

#[cfg(feature = "jiff")]
#[derive(RowKey)]
struct JiffParts {
    day: jiff::civil::Date,
    civil: jiff::civil::DateTime,
    at: jiff::Timestamp,
}

#[cfg_attr(
    not(any(feature = "rust_decimal", feature = "time", feature = "jiff")),
    allow(unused_variables, clippy::ptr_arg)
)]
pub fn keys(v: &mut Vec<(&'static str, String)>, hex: fn(&[u8]) -> String) {
    #[cfg(feature = "rust_decimal")]
    for (label, value) in [
        ("feature rust_decimal: 0", "0"),
        ("feature rust_decimal: -0.00 (stored as 0)", "-0.00"),
        ("feature rust_decimal: 1", "1"),
        ("feature rust_decimal: 1.5", "1.5"),
        ("feature rust_decimal: 1.50 (stored as 1.5)", "1.50"),
        ("feature rust_decimal: -1.5", "-1.5"),
        ("feature rust_decimal: 0.001", "0.001"),
        ("feature rust_decimal: 19.99", "19.99"),
        ("feature rust_decimal: 1000", "1000"),
        (
            "feature rust_decimal: 1e-28",
            "0.0000000000000000000000000001",
        ),
        ("feature rust_decimal: MAX", "79228162514264337593543950335"),
        (
            "feature rust_decimal: MIN",
            "-79228162514264337593543950335",
        ),
    ] {
        let key = Dec {
            v: value.parse().unwrap(),
        }
        .to_key()
        .unwrap();
        v.push((label, hex(&key)));
    }
    #[cfg(feature = "time")]
    {
        use time::macros::{date, datetime};
        let key = TimeParts {
            day: date!(2021 - 12 - 01),
            plain: datetime!(2021-12-01 12:00),
            at: datetime!(2021-12-01 20:00 +08:00),
        };
        v.push((
            "feature time: 2021-12-01, 2021-12-01 12:00, 2021-12-01 20:00 +08:00",
            hex(&key.to_key().unwrap()),
        ));
        let key = TimeParts {
            day: date!(1969 - 12 - 31),
            plain: datetime!(1969-12-31 23:59:59.999_999_999),
            at: datetime!(1970-01-01 0:00 UTC),
        };
        v.push((
            "feature time: the day, nanosecond before and epoch",
            hex(&key.to_key().unwrap()),
        ));
    }
    #[cfg(feature = "jiff")]
    {
        use jiff::civil::{date, datetime};
        let key = JiffParts {
            day: date(2021, 12, 1),
            civil: datetime(2021, 12, 1, 12, 0, 0, 0),
            at: "2021-12-01T20:00:00+08:00".parse().unwrap(),
        };
        v.push((
            "feature jiff: 2021-12-01, 2021-12-01 12:00, 2021-12-01 20:00 +08:00",
            hex(&key.to_key().unwrap()),
        ));
        let key = JiffParts {
            day: date(1969, 12, 31),
            civil: datetime(1969, 12, 31, 23, 59, 59, 999_999_999),
            at: jiff::Timestamp::UNIX_EPOCH,
        };
        v.push((
            "feature jiff: the day, nanosecond before and epoch",
            hex(&key.to_key().unwrap()),
        ));
    }
}

#[test]
#[cfg(all(feature = "rust_decimal", feature = "time", feature = "jiff"))]
fn optional_parts_by_hand() {
    let g: std::collections::HashMap<_, _> = super::keys().into_iter().collect();
    // 0.01 50 × 100^1: header 0x8E + 1, then 2·1 + 1 and 2·50 (`d`).
    assert_eq!(g["feature rust_decimal: 1.5"], r"\x8F\x03d");
    assert_eq!(g["feature rust_decimal: -1.5"], r"p\xFC\x9B"); // inverted
                                                               // 18962 days, then 1_638_360_000_000_000_000 ns twice, sign bits flipped.
    let day = format!(
        "{}",
        rowkey::KeyDisplay(&(18962u32 ^ 1 << 31).to_be_bytes())
    );
    let at =
        rowkey::KeyDisplay(&(1_638_360_000_000_000_000u64 ^ 1 << 63).to_be_bytes()).to_string();
    let both = format!("{day}{at}{at}");
    assert_eq!(
        g["feature time: 2021-12-01, 2021-12-01 12:00, 2021-12-01 20:00 +08:00"],
        both
    );
    assert_eq!(
        g["feature jiff: 2021-12-01, 2021-12-01 12:00, 2021-12-01 20:00 +08:00"],
        both
    );
}
