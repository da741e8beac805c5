//! The layout-driven decoder against the derived one on layouts built to
//! break it: `#[desc]` everywhere it goes, `Option`s, escaped text and
//! bytes full of 0x00 and 0xFF, padding, reversal, text and binary salts
//! (java, md5, Phoenix, default, integer and enum groups), hash prefixes,
//! floats, chars, UUIDs and chrono times. Random values: the key decodes
//! to the value and encodes back; random and nearby bytes: both decoders
//! give the same value or the same error.

use crate::support;

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use proptest::prelude::*;
use rowkey::{DecodeKeyOwned, KeyPart, RowKey};
use rowkey_fixtures::strategies::nasty_text;
use std::fmt::Debug;
use support::{check_bytes, check_value, neighbours, via_json};
use uuid::Uuid;

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Mixed {
    #[desc]
    a: i32,
    b: Option<u16>,
    #[max_len(12)]
    name: String,
    #[desc]
    #[max_len(8)]
    tag: Vec<u8>,
    #[desc]
    #[text(width = 5)]
    n: u32,
    c: char,
    f: f64,
    #[desc]
    flag: Option<bool>,
    arr: [u8; 3],
    #[pad(width = 6)]
    p: String,
    #[desc_ts]
    #[text]
    ts: u64,
    #[max_len(10)]
    rest: Vec<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Padded {
    #[pad(width = 8, fill = 0x01, align = left)]
    user: String,
    #[pad(width = 4, fill = 0xFF)]
    code: Vec<u8>,
    #[text(width = 11)]
    #[reverse]
    tel: u64,
    #[max_len(20)]
    #[reverse(segments = ".")]
    host: String,
    #[desc]
    #[pad(width = 5, fill = 0x00, align = left)]
    left: Vec<u8>,
    #[max_len(6)]
    #[reverse]
    tail: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(separator = "_")]
struct TextSalt {
    #[salt(buckets = 16, hash = java)]
    #[text(width = 8)]
    id: u32,
    #[salt]
    #[max_len(10)]
    kind: String,
    #[desc_ts]
    #[text]
    at: i64,
    #[max_len(6)]
    note: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct BinarySalt {
    #[salt(buckets = 300, binary, hash = md5, group_by = month, range = 1..=12, per_group = 25)]
    month: u8,
    #[salt]
    user: u64,
    #[desc]
    score: Option<i64>,
    #[desc_ts]
    at: i64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct PhoenixSalt {
    #[salt(buckets = 8, binary, hash = phoenix)]
    id: u64,
    #[max_len(8)]
    name: String,
}

#[derive(KeyPart, Debug, Clone, Copy, PartialEq)]
enum Kind {
    Buy,
    Sell,
    Hold,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct EnumGroup {
    #[salt(buckets = 6, group_by = kind, per_group = 2)]
    kind: Kind,
    #[salt]
    id: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct HashBinary {
    #[hash_prefix(len = 3, binary, algo = default)]
    #[max_len(8)]
    k: Vec<u8>,
    small: i8,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(separator = "|")]
struct HashText {
    #[hash_prefix(len = 7)]
    #[text(width = 11)]
    phone: u64,
    #[max_len(9)]
    city: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Times {
    d: NaiveDate,
    #[desc]
    dt: NaiveDateTime,
    u: DateTime<Utc>,
    id: Uuid,
    f: f32,
    big: i128,
    huge: u128,
    opt_day: Option<NaiveDate>,
}

fn nasty_bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![Just(0u8), Just(1), Just(0xFF), any::<u8>()],
        0..=max,
    )
}

fn date() -> impl Strategy<Value = NaiveDate> {
    (-100_000i32..100_000).prop_map(|d| NaiveDate::from_num_days_from_ce_opt(719_163 + d).unwrap())
}

fn check<T: RowKey + DecodeKeyOwned + Debug>(v: &T, noise: &[u8]) {
    let layout = via_json::<T>();
    check_value(layout, v);
    if let Ok(key) = v.to_vec() {
        for k in neighbours(&key) {
            check_bytes::<T>(layout, &k);
        }
    }
    check_bytes::<T>(layout, noise);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn mixed(a: i32, b: Option<u16>, name in nasty_text(12), tag in nasty_bytes(8),
             n in 0u32..100_000, c: char, f in -1e300f64..1e300, flag: Option<bool>,
             arr: [u8; 3], p in "[a-z\\x01]{0,5}[a-z]?", ts in 0u64..=i64::MAX as u64,
             rest in nasty_bytes(10), noise in nasty_bytes(60)) {
        check(&Mixed { a, b, name, tag, n, c, f, flag, arr, p, ts, rest }, &noise);
    }

    #[test]
    fn padded(user in "[a-z_\\n*]{0,7}[a-z]", code in nasty_bytes(3), tel in 0u64..100_000_000_000,
              host in "[a-z.]{0,20}", left in proptest::collection::vec(1u8..=255, 0..=5),
              tail in nasty_text(6), noise in nasty_bytes(60)) {
        let code = code.into_iter().map(|b| if b == 0xFF { 0xFE } else { b }).collect();
        check(&Padded { user, code, tel, host, left, tail }, &noise);
    }

    #[test]
    fn text_salt(id in 0u32..100_000_000, kind in "[a-z|.\\n*]{0,10}", at in 0i64..=i64::MAX,
                 note in nasty_text(6), noise in nasty_bytes(50)) {
        check(&TextSalt { id, kind, at, note }, &noise);
    }

    #[test]
    fn binary_salt(month in 0u8..=14, user: u64, score: Option<i64>, at in 0i64..=i64::MAX,
                   noise in nasty_bytes(30)) {
        check(&BinarySalt { month, user, score, at }, &noise);
    }

    #[test]
    fn phoenix_salt(id: u64, name in nasty_text(8), noise in nasty_bytes(30)) {
        check(&PhoenixSalt { id, name }, &noise);
    }

    #[test]
    fn enum_group(kind in prop_oneof![Just(Kind::Buy), Just(Kind::Sell), Just(Kind::Hold)], id: u32,
                  noise in nasty_bytes(10)) {
        check(&EnumGroup { kind, id }, &noise);
    }

    #[test]
    fn hash_prefixes(k in nasty_bytes(8), small: i8, phone in 0u64..100_000_000_000,
                     city in "[a-z_.\\n]{0,9}", noise in nasty_bytes(40)) {
        check(&HashBinary { k, small }, &noise);
        check(&HashText { phone, city }, &noise);
    }

    #[test]
    fn times(d in date(), dt in -9_000_000_000_000_000_000i64..9_000_000_000_000_000_000,
             u in -9_000_000_000_000_000_000i64..9_000_000_000_000_000_000, id: u128,
             f in -1e30f32..1e30, big: i128, huge: u128, opt_day in proptest::option::of(date()),
             noise in nasty_bytes(80)) {
        let dt = DateTime::from_timestamp_nanos(dt).naive_utc();
        let u = DateTime::from_timestamp_nanos(u);
        check(&Times { d, dt, u, id: Uuid::from_u128(id), f, big, huge, opt_day }, &noise);
    }
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct OtherTimes {
    price: rust_decimal::Decimal,
    day: time::Date,
    at: time::OffsetDateTime,
    local: time::PrimitiveDateTime,
    amount: Option<rust_decimal::Decimal>,
    jday: jiff::civil::Date,
    jat: jiff::Timestamp,
    #[desc]
    jlocal: jiff::civil::DateTime,
    last: rust_decimal::Decimal,
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Decimals mid-key and last; time's and jiff's dates and instants
    /// (the same bytes as chrono's, shown as chrono shows them).
    #[test]
    fn decimals_and_other_time_crates(m in -10i64.pow(15)..10i64.pow(15), scale in 0u32..10,
                                      amount in proptest::option::of(any::<i32>()),
                                      // time dates end at 9999-12-31: epoch day 2,932,896.
                                      day in -3_000_000i32..2_932_897, nanos: i64, nanos2: i64,
                                      noise in nasty_bytes(90)) {
        let price = rust_decimal::Decimal::new(m, scale);
        let at = time::OffsetDateTime::from_unix_timestamp_nanos(nanos.into()).unwrap();
        let jat = jiff::Timestamp::from_nanosecond(nanos2.into()).unwrap();
        let v = OtherTimes {
            price,
            day: time::Date::from_julian_day(2_440_588 + day).unwrap(),
            at,
            local: time::PrimitiveDateTime::new(at.date(), at.time()),
            amount: amount.map(|a| rust_decimal::Decimal::new(a.into(), 2)),
            jday: jiff::civil::Date::constant(2021, 12, 1),
            jat,
            jlocal: jat.to_zoned(jiff::tz::TimeZone::UTC).datetime(),
            last: -price,
        };
        check(&v, &noise);
        let layout = via_json::<OtherTimes>();
        let d = layout.decode_key(&v.to_vec().unwrap()).unwrap();
        prop_assert_eq!(d.get("price").unwrap().to_string(), price.normalize().to_string());
    }
}

#[test]
fn float_edges_and_empty_values() {
    let v = Mixed {
        a: i32::MIN,
        b: None,
        name: String::new(),
        tag: vec![0, 0xFF, 0],
        n: 0,
        c: '\0',
        f: 0.0,
        flag: None,
        arr: [0xFF; 3],
        p: String::new(),
        ts: 0,
        rest: vec![],
    };
    check(&v, &[]);
    // -0.0 is stored as 0.0, and decodes as 0.0 on both sides.
    let minus_zero = Mixed {
        f: -0.0,
        ..v.clone()
    }
    .to_vec()
    .unwrap();
    assert_eq!(minus_zero, v.to_vec().unwrap());
    check(
        &Mixed {
            f: f64::INFINITY,
            ..v.clone()
        },
        &[0xFF; 70],
    );
    check(
        &Mixed {
            f: f64::NEG_INFINITY,
            ..v
        },
        &[0x00; 70],
    );
}

#[derive(RowKey, Debug, PartialEq)]
struct Borrowed<'a> {
    #[pad(width = 6)]
    a: &'a str,
    #[max_len(5)]
    b: std::borrow::Cow<'a, str>,
    #[pad(width = 3, fill = 0xFF)]
    c: std::borrow::Cow<'a, [u8]>,
    #[max_len(4)]
    d: Box<str>,
    #[max_len(9)]
    e: &'a [u8],
}

proptest! {
    /// Borrowed and boxed text and bytes (no `DecodeKeyOwned`, so checked
    /// here rather than through `check`).
    #[test]
    fn borrowed(a in "[a-z\\n]{0,5}[a-z]?", b in nasty_text(5), c in proptest::collection::vec(0u8..0xFF, 0..=3),
                d in nasty_text(4), e in nasty_bytes(9), noise in nasty_bytes(40)) {
        let layout = via_json::<Borrowed<'static>>();
        let v = Borrowed { a: &a, b: b.into(), c: c.into(), d: d.into(), e: &e };
        let key = v.to_vec().unwrap();
        let decoded = layout.decode_key(&key).unwrap();
        prop_assert_eq!(decoded.get("a").unwrap().to_string(), rowkey::layout::dynamic::Value::Text(a.clone()).to_string());
        let again = layout.encode_key(&decoded.values(), None).unwrap();
        prop_assert_eq!(&again, &key);
        support::check_shown_values_read_back(layout, &decoded, &key);
        let mut cases = neighbours(&key);
        cases.push(noise);
        for k in cases {
            match (Borrowed::decode(&k), layout.decode_key(&k)) {
                (Ok(x), Ok(y)) => {
                    prop_assert_eq!(&x.to_vec().unwrap(), &k);
                    prop_assert_eq!(&layout.encode_key(&y.values(), None).unwrap(), &k);
                }
                (Err(x), Err(y)) => prop_assert_eq!(x, y),
                (x, y) => prop_assert!(false, "derived {:?}, layout decoder {:?}", x, y),
            }
        }
    }
}
