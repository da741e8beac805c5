//! Structs holding the optional key parts (`rust_decimal`, `time`, `jiff`
//! features) derive `RowKey`: keys roundtrip, sort like the fields, errors
//! name the field, and every scan finisher selects exactly the rows a
//! brute-force filter over a sorted map selects.

use proptest::prelude::*;
use rowkey::scan::{merge_sorted, ScanPlan};
use rowkey::{DecodeErrorKind, DecodeKeyOwned, EncodeErrorKind, RowKey};
use rust_decimal::Decimal;
use std::collections::BTreeMap;
use std::ops::Bound;
use time::OffsetDateTime;

/// A decimal in the middle of the key (prefix-free, variable width), then
/// dates and times of each crate, then adversarial text.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Quote {
    price: Decimal,
    day: jiff::civil::Date,
    at: OffsetDateTime,
    #[max_len(8)]
    venue: String,
}

/// `#[desc]` on fixed-width parts, and `Option` around a variable one.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Latest {
    #[desc]
    at: jiff::Timestamp,
    #[desc]
    day: time::Date,
    bid: Option<Decimal>,
}

fn decimal() -> impl Strategy<Value = Decimal> {
    let mantissa = prop_oneof![
        -300i128..300,
        any::<i64>().prop_map(i128::from),
        Just((1i128 << 96) - 1),
        Just(-((1i128 << 96) - 1)),
    ];
    // Small scales mostly, so that values repeat and eq and ranges find
    // rows; 1.5 and 1.50 are one value.
    let scale = prop_oneof![4 => 0u32..3, 1 => 0u32..=28];
    (mantissa, scale).prop_map(|(m, s)| Decimal::from_i128_with_scale(m, s))
}

fn day() -> impl Strategy<Value = jiff::civil::Date> {
    (-3i16..3).prop_map(|d| {
        jiff::civil::date(2021, 12, 10)
            .checked_add(jiff::SignedDuration::from_hours(24 * i64::from(d)))
            .unwrap()
    })
}

fn instant() -> impl Strategy<Value = OffsetDateTime> {
    (prop_oneof![-3i64..3, any::<i64>()], -12i8..=12).prop_map(|(n, h)| {
        let utc = OffsetDateTime::from_unix_timestamp_nanos(n.into()).unwrap();
        let offset = time::UtcOffset::from_hms(h, 0, 0).unwrap();
        utc.checked_to_offset(offset).unwrap_or(utc)
    })
}

fn venue() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("\0".to_string()),
        Just("a\0\u{ff}".to_string()),
        Just("\n.*[".to_string()),
        "[a-c]{0,3}",
    ]
}

fn quote() -> impl Strategy<Value = Quote> {
    (decimal(), day(), instant(), venue()).prop_map(|(price, day, at, venue)| Quote {
        price,
        day,
        at,
        venue,
    })
}

type Table = BTreeMap<Vec<u8>, ()>;

/// The plan run against the table: its ranges read and merged.
fn run<const N: usize>(table: &Table, plan: &ScanPlan<N>) -> Vec<Vec<u8>> {
    let sources: Vec<Vec<Vec<u8>>> = plan
        .ranges()
        .map(|r| {
            table
                .range::<[u8], _>((Bound::Included(r.start()), Bound::Unbounded))
                .take_while(|(k, _)| r.stop().is_none_or(|s| k.as_slice() < s))
                .map(|(k, _)| k.clone())
                .collect()
        })
        .collect();
    merge_sorted(sources, plan.prefix_len(), plan.limit()).collect()
}

/// The rows a filter over the decoded keys selects, in key order.
fn brute<K: DecodeKeyOwned>(table: &Table, keep: impl Fn(&K) -> bool) -> Vec<Vec<u8>> {
    table
        .keys()
        .filter(|k| keep(&K::decode(k).unwrap()))
        .cloned()
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Roundtrip (the instant in UTC, the decimal normalised), and key
    /// order is the order of the fields.
    #[test]
    fn roundtrip_and_order(a in quote(), b in quote()) {
        let (ka, kb) = (a.to_vec().unwrap(), b.to_vec().unwrap());
        let back = Quote::decode(&ka).unwrap();
        prop_assert_eq!(&back, &a);
        prop_assert!(back.at.offset().is_utc());
        prop_assert_eq!(back.price.scale(), a.price.normalize().scale());
        let fields = |q: &Quote| (q.price, q.day, q.at, q.venue.clone());
        prop_assert_eq!(fields(&a).cmp(&fields(&b)), ka.cmp(&kb));
    }

    /// `#[desc]` reverses the fixed-width parts; `Option<Decimal>` keeps
    /// None first.
    #[test]
    fn desc_and_option(a in instant(), b in instant(), x in proptest::option::of(decimal()), y in proptest::option::of(decimal())) {
        let ts = |t: OffsetDateTime| jiff::Timestamp::from_nanosecond(t.unix_timestamp_nanos()).unwrap();
        let day = time::Date::from_calendar_date(2021, time::Month::December, 1).unwrap();
        let (la, lb) = (Latest { at: ts(a), day, bid: x }, Latest { at: ts(b), day, bid: y });
        let (ka, kb) = (la.to_vec().unwrap(), lb.to_vec().unwrap());
        prop_assert_eq!(Latest::decode(&ka).unwrap(), la.clone());
        prop_assert_eq!((lb.at, la.bid).cmp(&(la.at, lb.bid)), ka.cmp(&kb));
    }

    /// Every finisher on each optional part against brute force.
    #[test]
    fn scans_match_brute_force(
        rows in proptest::collection::vec(quote(), 0..60),
        p in decimal(), q in decimal(), d in day(), e in day(), t in instant(), u in instant(),
    ) {
        let table: Table = rows.iter().map(|r| (r.to_vec().unwrap(), ())).collect();
        let (lo, hi) = (p.min(q), p.max(q));

        let plan = Quote::scan().price.range(lo..hi).unwrap();
        prop_assert_eq!(run(&table, &plan), brute(&table, |r: &Quote| lo <= r.price && r.price < hi));
        let plan = Quote::scan().price.range(lo..=hi).unwrap();
        prop_assert_eq!(run(&table, &plan), brute(&table, |r: &Quote| lo <= r.price && r.price <= hi));
        // `between` and `until` leave the upper bound out.
        let plan = Quote::scan().price.between(lo, hi).unwrap();
        prop_assert_eq!(run(&table, &plan), brute(&table, |r: &Quote| lo <= r.price && r.price < hi));
        let plan = Quote::scan().price.since(p).unwrap();
        prop_assert_eq!(run(&table, &plan), brute(&table, |r: &Quote| p <= r.price));
        let plan = Quote::scan().price.until(p).unwrap();
        prop_assert_eq!(run(&table, &plan), brute(&table, |r: &Quote| r.price < p));

        for r in rows.iter().take(3) {
            // A fixed decimal, then ranges of each date and time part.
            let price = r.price;
            let plan = Quote::scan().price.eq(price).plan().unwrap();
            prop_assert_eq!(run(&table, &plan), brute(&table, |x: &Quote| x.price == price));
            let plan = Quote::scan().price.eq(price).day.range(d.min(e)..=d.max(e)).unwrap();
            prop_assert_eq!(
                run(&table, &plan),
                brute(&table, |x: &Quote| x.price == price && d.min(e) <= x.day && x.day <= d.max(e))
            );
            let plan = Quote::scan().price.eq(price).day.eq(r.day).at.range(t.min(u)..t.max(u)).unwrap();
            prop_assert_eq!(
                run(&table, &plan),
                brute(&table, |x: &Quote| x.price == price && x.day == r.day && t.min(u) <= x.at && x.at < t.max(u))
            );
            let plan = Quote::scan().price.eq(price).day.eq(r.day).at.eq(r.at).plan().unwrap();
            prop_assert!(plan.contains(&r.to_vec().unwrap()));
        }
    }
}

#[test]
fn errors_name_the_field_and_the_byte() {
    let q = Quote {
        price: "19.99".parse().unwrap(),
        day: jiff::civil::date(2021, 12, 1),
        at: time::macros::datetime!(2300-01-01 0:00 UTC),
        venue: "x".into(),
    };
    let e = q.to_key().unwrap_err();
    assert_eq!((e.field(), e.offset()), ("at", 3 + 4));
    assert!(
        matches!(e.kind(), EncodeErrorKind::Invalid(why) if why.contains("1677-09-21..2262-04-11"))
    );

    // 1.50 with a trailing zero digit: refused at that byte.
    let e = Quote::decode(&[0x8F, 0x03, 0x00]).unwrap_err();
    assert_eq!((e.field(), e.offset()), ("price", 2));
    assert!(matches!(e.kind(), DecodeErrorKind::Invalid(why) if why.contains("trailing zero")));

    // A day past jiff's range.
    let mut key = Quote {
        at: OffsetDateTime::UNIX_EPOCH,
        ..q
    }
    .to_vec()
    .unwrap();
    key[3..7].copy_from_slice(&(i32::MAX as u32 ^ 1 << 31).to_be_bytes());
    let e = Quote::decode(&key).unwrap_err();
    assert_eq!((e.field(), e.offset()), ("day", 3));
}
