//! Text forms of the optional key parts through the derive:
//! `#[text(format = "..")]` on chrono, time and jiff types, `#[text]` on a
//! UUID, `#[text(width, scale)]` on a decimal and `#[desc_ts]` on
//! instants. Keys roundtrip (as far as the format keeps), decode
//! canonically, sort like what they keep, refuse bad bytes with the field
//! and offset, and scans select what a brute-force filter selects. The
//! seed ledger is written with two `NaiveDateTime` fields, byte for byte.

use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, Utc};
use proptest::prelude::*;
use rowkey::{DecodeErrorKind, EncodeErrorKind, FieldCodec, RowKey};
use rowkey_fixtures::layouts::Ledger;
use rust_decimal::Decimal;
use std::collections::BTreeMap;
use uuid::Uuid;

fn month_group(t: &NaiveDateTime) -> u32 {
    t.month0()
}

/// The seed ledger with typed fields: `yyyy-MM` and `-dd HH:mm:ss` are two
/// formats of date-times.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct TypedLedger {
    #[salt(buckets = 120, group_by = month, group = month_group, groups = 12, per_group = 10)]
    #[text(format = "%Y-%m")]
    month: NaiveDateTime,
    #[salt]
    #[pad(width = 10, fill = 0x01, align = left)]
    user: String,
    #[text(format = "-%d %H:%M:%S")]
    rest: NaiveDateTime,
}

fn at(y: i32, m: u32, d: u32, h: u32, mi: u32, s: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(y, m, d)
        .unwrap()
        .and_hms_opt(h, mi, s)
        .unwrap()
}

#[test]
fn seed_ledger_with_date_time_fields_byte_for_byte() {
    let t = at(2021, 12, 1, 12, 0, 0);
    let row = TypedLedger {
        month: t,
        user: "zhangsan".into(),
        rest: t,
    };
    let key = row.to_key().unwrap();
    assert_eq!(key.to_string(), r"1142021-12\x01\x01zhangsan-01 12:00:00");
    let seed = Ledger {
        month: "2021-12".into(),
        user: "zhangsan".into(),
        rest: "-01 12:00:00".into(),
    };
    assert_eq!(&*key, &*seed.to_key().unwrap());
    // The key holds the month in one field and day and time in the other.
    let back = TypedLedger::decode(&key).unwrap();
    assert_eq!(back.month, at(2021, 12, 1, 0, 0, 0));
    assert_eq!(back.rest, at(2000, 1, 1, 12, 0, 0));
    assert_eq!(&*back.to_key().unwrap(), &*key);

    for seed in Ledger::rows(3000) {
        let (y, m) = (
            seed.month[..4].parse().unwrap(),
            seed.month[5..].parse().unwrap(),
        );
        let num = |r: std::ops::Range<usize>| seed.rest[r].parse::<u32>().unwrap();
        let t = at(y, m, num(1..3), num(4..6), num(7..9), num(10..12));
        let typed = TypedLedger {
            month: t,
            user: seed.user.clone(),
            rest: t,
        };
        let key = typed.to_vec().unwrap();
        assert_eq!(key, seed.to_vec().unwrap());
        let back = TypedLedger::decode(&key).unwrap();
        assert_eq!(back.to_vec().unwrap(), key);
        // The same scans, range for range.
        let typed_plan = TypedLedger::scan()
            .month
            .eq(t)
            .user
            .eq(&seed.user)
            .plan()
            .unwrap();
        let seed_plan = Ledger::scan()
            .month
            .eq(seed.month.clone())
            .user
            .eq(&seed.user)
            .plan()
            .unwrap();
        assert_eq!(typed_plan.hbase_shell("t"), seed_plan.hbase_shell("t"));
    }
    let month = TypedLedger::layout().field("month").unwrap();
    assert!(
        matches!(month.codec, FieldCodec::DateText { format } if format.to_string() == "%Y-%m")
    );
    assert!(TypedLedger::layout()
        .explain()
        .contains("format \"-%d %H:%M:%S\""));
}

/// Every text form and `#[desc_ts]` on an instant of each crate.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Forms {
    #[text(format = "%Y%m%d%H%M%S%3f")]
    at: DateTime<Utc>,
    #[text(format = "%F")]
    day: time::Date,
    #[text(format = "%Y%j %T.%9f")]
    jiff_at: jiff::civil::DateTime,
    #[text]
    id: Uuid,
    #[text(width = 10, scale = 3)]
    price: Decimal,
    #[desc_ts]
    newest: DateTime<Utc>,
    #[desc_ts]
    #[text]
    newest_time: time::OffsetDateTime,
    #[desc_ts]
    newest_jiff: jiff::Timestamp,
}

const FORMS_WIDTH: usize = 17 + 10 + 7 + 1 + 8 + 1 + 9 + 36 + 10 + 8 + 19 + 8;

fn nanos_2000_2100() -> impl Strategy<Value = i64> {
    // 2000-01-01 .. 2100-01-01, with repeats so equal prefixes occur.
    prop_oneof![
        946_684_800_000_000_000i64..4_102_444_800_000_000_000,
        (0i64..4).prop_map(|k| 1_638_316_800_000_000_000 + k * 86_400_000_000_000),
    ]
}

fn forms() -> impl Strategy<Value = Forms> {
    (
        nanos_2000_2100(),
        nanos_2000_2100(),
        any::<u128>(),
        (0i64..999_999, 0u32..4),
        0i64..i64::MAX,
    )
        .prop_map(|(a, b, id, (m, s), n)| {
            let t = DateTime::from_timestamp_nanos(a);
            let u = DateTime::from_timestamp_nanos(b);
            let tm = time::OffsetDateTime::from_unix_timestamp_nanos(b.into()).unwrap();
            let j = jiff::Timestamp::from_nanosecond(n.into()).unwrap();
            Forms {
                at: t,
                day: tm.date(),
                jiff_at: jiff::tz::Offset::UTC
                    .to_datetime(jiff::Timestamp::from_nanosecond(a.into()).unwrap()),
                id: Uuid::from_u128(id),
                price: Decimal::new(m, s.min(3)),
                newest: u,
                newest_time: tm,
                newest_jiff: j,
            }
        })
}

/// What the key keeps of `f`: milliseconds of `at`, the rest exactly.
fn kept(f: &Forms) -> Forms {
    let mut k = f.clone();
    k.at = DateTime::from_timestamp_millis(f.at.timestamp_millis()).unwrap();
    k
}

fn sort_key(f: &Forms) -> impl Ord {
    (
        f.at,
        f.day,
        f.jiff_at,
        f.id,
        f.price,
        std::cmp::Reverse(f.newest),
        std::cmp::Reverse(f.newest_time),
        std::cmp::Reverse(f.newest_jiff),
    )
}

proptest! {
    #[test]
    fn forms_roundtrip_sort_and_decode_canonically(a in forms(), b in forms()) {
        let (ka, kb) = (a.to_vec().unwrap(), b.to_vec().unwrap());
        prop_assert_eq!(ka.len(), FORMS_WIDTH);
        let da = Forms::decode(&ka).unwrap();
        prop_assert_eq!(&da, &kept(&a));
        prop_assert_eq!(da.to_vec().unwrap(), ka.clone());
        prop_assert_eq!(ka.cmp(&kb), sort_key(&kept(&a)).cmp(&sort_key(&kept(&b))));
    }

    #[test]
    fn damaged_keys_are_errors_or_canonical(a in forms(), i in 0usize..FORMS_WIDTH, byte: u8,
                                            junk in proptest::collection::vec(any::<u8>(), 0..200)) {
        let mut key = a.to_vec().unwrap();
        key[i] = byte;
        for input in [&key, &junk] {
            if let Ok(v) = Forms::decode(input) {
                prop_assert_eq!(&v.to_vec().unwrap(), input);
            }
        }
    }
}

#[test]
fn errors_name_the_field_and_the_byte() {
    let f = Forms {
        at: DateTime::from_timestamp_nanos(1_638_316_800_000_000_000),
        day: time::Date::from_calendar_date(2021, time::Month::December, 1).unwrap(),
        jiff_at: jiff::civil::datetime(2021, 12, 1, 12, 0, 0, 5),
        id: Uuid::from_u128(0xab),
        price: Decimal::new(125, 1),
        newest: DateTime::from_timestamp_nanos(5),
        newest_time: time::OffsetDateTime::UNIX_EPOCH,
        newest_jiff: jiff::Timestamp::UNIX_EPOCH,
    };
    let key = f.to_vec().unwrap();
    assert_eq!(&key[..17], b"20211201000000000");
    assert_eq!(&key[17..27], b"2021-12-01");
    assert_eq!(&key[27..53], b"2021335 12:00:00.000000005");
    let mut bad = key.clone();
    bad[22..24].copy_from_slice(b"13"); // 2021-13-01
    let e = Forms::decode(&bad).unwrap_err();
    assert_eq!((e.field(), e.offset()), ("day", 22));
    let mut bad = key.clone();
    bad[17 + 10 + 7 + 1 + 8 + 1 + 9 + 5] = b'A';
    let e = Forms::decode(&bad).unwrap_err();
    assert_eq!(
        (e.field(), e.offset()),
        ("id", 17 + 10 + 7 + 1 + 8 + 1 + 9 + 5)
    );

    let e = Forms {
        price: Decimal::new(-1, 0),
        ..f.clone()
    }
    .to_vec()
    .unwrap_err();
    assert_eq!(
        (e.field(), e.kind()),
        ("price", EncodeErrorKind::NegativeText)
    );
    let e = Forms {
        price: Decimal::new(12345, 4),
        ..f.clone()
    }
    .to_vec()
    .unwrap_err();
    assert_eq!(e.field(), "price");
    let far = NaiveDate::from_ymd_opt(10_000, 1, 1)
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap()
        .and_utc();
    let e = Forms {
        at: far,
        ..f.clone()
    }
    .to_vec()
    .unwrap_err();
    assert_eq!((e.field(), e.offset()), ("at", 0));
    let before_1970 = DateTime::from_timestamp_nanos(-1);
    let e = Forms {
        newest: before_1970,
        ..f
    }
    .to_vec()
    .unwrap_err();
    let value = rowkey::codec::CivilTime {
        hour: 23,
        minute: 59,
        second: 59,
        nanosecond: 999_999_999,
        ..rowkey::codec::CivilTime::midnight(1969, 12, 31)
    };
    assert_eq!(
        (e.field(), e.kind()),
        ("newest", EncodeErrorKind::DescTsOutOfRange { value })
    );
    let mut bad = key.clone();
    bad[25] = b'x';
    let e = Forms::decode(&bad).unwrap_err();
    assert_eq!(
        (e.field(), e.offset(), e.kind()),
        ("day", 25, DecodeErrorKind::InvalidDigit { byte: b'x' })
    );
}

/// A month as text, then a user, then the newest instant first.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Spending {
    #[text(format = "%Y%m")]
    month: NaiveDateTime,
    #[text(width = 3)]
    user: u16,
    #[desc_ts]
    at: DateTime<Utc>,
}

/// The month a `%Y%m` key keeps.
fn month_of(t: &NaiveDateTime) -> (i32, u32) {
    (t.year(), t.month())
}

/// What a `%Y%m` key decodes to: the first instant of its month.
fn month_start(t: &NaiveDateTime) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(t.year(), t.month(), 1)
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap()
}

fn instant_2021() -> impl Strategy<Value = DateTime<Utc>> {
    // 2020-12-25 .. 2022-01-05: month edges on both sides.
    (1_608_854_400i64..1_641_340_800, 0u32..1_000_000_000)
        .prop_map(|(s, ns)| DateTime::from_timestamp(s, ns).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// `eq` and ranges on a formatted month and on a `#[desc_ts]` instant
    /// select exactly what a filter over a sorted map selects. `eq` keeps
    /// the value's month; a range keeps the rows whose decoded value (the
    /// first instant of their month) is in it.
    #[test]
    fn scans_match_brute_force(
        rows in proptest::collection::vec((instant_2021(), 0u16..3), 1..60),
        lo in instant_2021(), hi in instant_2021(), user in 0u16..3,
    ) {
        let map: BTreeMap<Vec<u8>, Spending> = rows
            .iter()
            .map(|&(t, user)| {
                let r = Spending { month: t.naive_utc(), user, at: t };
                (r.to_vec().unwrap(), r)
            })
            .collect();
        let check = |plan: rowkey::scan::ScanPlan<{ Spending::MAX_LEN + 1 }>, want: &dyn Fn(&Spending) -> bool| {
            for (k, r) in &map {
                assert_eq!(plan.contains(k), want(r), "{r:?}");
            }
        };
        let (lo_t, hi_t) = (lo.naive_utc(), hi.naive_utc());
        check(Spending::scan().month.eq(lo_t).plan().unwrap(),
              &|r| month_of(&r.month) == month_of(&lo_t));
        check(Spending::scan().month.between(lo_t, hi_t).unwrap(),
              &|r| (lo_t..hi_t).contains(&month_start(&r.month)));
        check(Spending::scan().month.since(lo_t).unwrap(),
              &|r| month_start(&r.month) >= lo_t);
        let (r0, _) = rows[0];
        let m0 = month_of(&r0.naive_utc());
        check(Spending::scan().month.eq(r0.naive_utc()).user.eq(user).at.between(lo, hi).unwrap(),
              &|r| month_of(&r.month) == m0 && r.user == user && (lo..hi).contains(&r.at));
        check(Spending::scan().month.eq(r0.naive_utc()).user.eq(user).at.until(hi).unwrap(),
              &|r| month_of(&r.month) == m0 && r.user == user && r.at < hi);
    }
}
