//! The new user's IoT table, end to end through the binary: a salted
//! (binary bucket) padded device, a `#[derive(KeyPart)]` enum metric and a
//! `#[desc_ts] DateTime<Utc>`; and a text date, a decimal and a UUID.
//! The layouts are rowkey-fixtures' (`layouts::iot`), exported with
//! `serde_json::to_string_pretty(&Key::layout())` as docs/cli.md says (the
//! files in `tests/layouts`); every value is shown and typed as a person
//! writes it.

use crate::run;

use chrono::{DateTime, NaiveDate, Utc};
use predicates::prelude::*;
use rowkey::{KeyDisplay, RowKey};
use rowkey_fixtures::layouts::{Invoice, Metric, ReadingKey};
use run::{fails, hex, layout, ok, rowkey, tmp};
use rust_decimal::Decimal;
use uuid::Uuid;

/// The checked-in layout file of the fixture layout `name`, exported by
/// `export_layout` (`seed_agree.rs` keeps it current).
fn layout_path(name: &str) -> String {
    layout(name).to_str().unwrap().to_string()
}

fn reading() -> ReadingKey {
    ReadingKey {
        device: "dev-7".into(),
        metric: Metric::Humidity,
        at: "2026-11-01T07:30:00Z".parse().unwrap(),
    }
}

/// Moving the layouts into rowkey-fixtures changed no byte: the key the
/// CLI chapter (docs/cli.md) shows, and its layout file's fields.
#[test]
fn the_fixture_layouts_write_the_keys_they_wrote() {
    let key = reading().to_vec().unwrap();
    assert_eq!(
        KeyDisplay(&key).to_string(),
        format!(
            r"\x0Ddev-7{}\x01g\x1C$\xB3\x16\xCDO\xFF",
            r"\x00".repeat(27)
        )
    );
    let invoice = Invoice {
        day: NaiveDate::from_ymd_opt(2026, 11, 1).unwrap(),
        amount: Decimal::new(1250, 2),
        id: Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8),
    };
    assert_eq!(
        invoice.to_vec().unwrap(),
        b"2026-11-010000012.5067e55044-10b1-426f-9247-bb680e5fe0c8"
    );
}

#[test]
fn decode_shows_each_value_as_a_person_writes_it() {
    let l = layout_path("ReadingKey");
    let key = reading().to_vec().unwrap();
    let out = ok(&["decode", "--layout", &l, "--hex", &hex(&key)]);
    assert!(out.contains("salt bucket "), "{out}");
    assert!(out.contains("verified against the fields"), "{out}");
    assert!(out.contains("device  1..33   dev-7"), "{out}");
    assert!(out.contains("metric  33..34  Humidity"), "{out}");
    assert!(
        out.contains("at      34..42  2026-11-01T07:30:00Z"),
        "{out}"
    );
    // Pasted as the HBase shell prints it, too.
    let pasted = KeyDisplay(&key).to_string();
    assert_eq!(ok(&["decode", "--layout", &l, &pasted]), out);
}

#[test]
fn encode_takes_typed_values_and_writes_the_derived_bytes() {
    let l = layout_path("ReadingKey");
    let out = ok(&[
        "encode",
        "--layout",
        &l,
        "device=dev-7",
        "metric=Humidity",
        "at=2026-11-01T09:30:00+02:00",
    ]);
    let key = reading().to_vec().unwrap();
    assert!(
        out.contains(&format!(
            "hex:            {}\n",
            run::hex(&key).to_uppercase()
        )),
        "{out}"
    );
    let e = fails(&[
        "encode",
        "--layout",
        &l,
        "device=d",
        "metric=Wind",
        "at=2026-11-01T00:00:00Z",
    ]);
    assert!(
        e.contains("`Wind` is not a variant of Metric (Temp, Humidity, Pressure)"),
        "{e}"
    );
    // A date #[desc_ts] cannot hold is named in the user's terms.
    let e = fails(&[
        "encode",
        "--layout",
        &l,
        "device=d",
        "metric=Temp",
        "at=1969-12-31T23:59:59Z",
    ]);
    assert!(e.contains("ReadingKey.at"), "{e}");
}

#[test]
fn text_dates_decimals_and_uuids() {
    let l = layout_path("Invoice");
    let row = Invoice {
        day: NaiveDate::from_ymd_opt(2026, 11, 1).unwrap(),
        amount: Decimal::new(1250, 2),
        id: Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8),
    };
    let key = row.to_vec().unwrap();
    let out = ok(&["decode", "--layout", &l, &KeyDisplay(&key).to_string()]);
    assert!(out.contains("2026-11-01"), "{out}");
    assert!(out.contains("12.50"), "{out}");
    assert!(
        out.contains("67e55044-10b1-426f-9247-bb680e5fe0c8"),
        "{out}"
    );
    let out = ok(&[
        "encode",
        "--layout",
        &l,
        "day=2026-11-01",
        "amount=12.5",
        "id=67E55044-10B1-426F-9247-BB680E5FE0C8",
    ]);
    assert!(
        out.contains(&format!("toStringBinary: {}\n", KeyDisplay(&key))),
        "{out}"
    );
}

#[test]
fn hotspot_draws_desc_ts_dates_on_a_time_axis() {
    let l = layout_path("ReadingKey");
    let start: DateTime<Utc> = "2026-11-01T00:00:00Z".parse().unwrap();
    let keys: Vec<Vec<u8>> = (0..200)
        .map(|i| {
            ReadingKey {
                device: format!("dev-{}", i % 13),
                metric: Metric::Temp,
                at: start + chrono::Duration::minutes(i),
            }
            .to_vec()
            .unwrap()
        })
        .collect();
    let text: String = keys.iter().map(|k| run::hex(k) + "\n").collect();
    let keys_path = tmp("readings.hex");
    std::fs::write(&keys_path, text).unwrap();
    let svg = tmp("readings.svg");
    let out = ok(&[
        "hotspot",
        "--layout",
        &l,
        "--keys",
        keys_path.to_str().unwrap(),
        "--hex",
        "--time",
        "at",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert!(out.contains("(regions over at, 24 bins)"), "{out}");
    // The time axis reads forwards in dates, whatever the key's order.
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(
        svg.contains("2026-11-01 00:00"),
        "the first bin is labelled with its date"
    );
}

#[test]
fn cbt_read_output_is_read_as_raw_keys() {
    let l = layout_path("ReadingKey");
    let key = reading().to_vec().unwrap();
    // What `cbt read` prints: the key's raw bytes (a NUL-padded device and
    // a binary bucket), then its cells.
    let mut printed = b"----------------------------------------\n".to_vec();
    printed.extend_from_slice(&key);
    printed.extend_from_slice(
        b"\n  d:v                                      @ 2026/11/24-08:22:23.000000\n    \"21.5\"\n",
    );
    let file = tmp("cbt.out");
    std::fs::write(&file, &printed).unwrap();
    let out = ok(&[
        "decode",
        "--layout",
        &l,
        "--cbt",
        "--keys",
        file.to_str().unwrap(),
    ]);
    assert!(out.contains("Humidity"), "{out}");
    // A raw key as an argument is refused with the way to give it.
    rowkey(&["decode", "--layout", &l, "--keys", file.to_str().unwrap()])
        .assert()
        .stderr(predicate::str::contains(
            "for raw keys from `cbt read` use --cbt",
        ));
}
