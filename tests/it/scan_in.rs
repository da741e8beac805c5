//! IN-lists (`Step::is_in`): every plan, through `MemStore` (`query` in
//! logical key order, forwards and reversed, with limits, and
//! `read_plan`), selects exactly the rows a brute-force filter over a
//! sorted map selects. Layouts: salts whose inputs the lists fix (one
//! bucket per combination) or not, bucket groups, Phoenix salts, a hash
//! prefix, `#[desc]` and `#[desc_ts]` fields, escaped and padded text with
//! 0x00/0xFF tails; lists composed with later lists, ranges and prefixes.

use futures::executor::block_on;
use futures::TryStreamExt;
use proptest::prelude::*;
use rowkey::scan::ScanPlan;
use rowkey::store::{MemStore, Row, StoreExt};
use rowkey::{EncodeErrorKind, RowKey};
use rowkey_fixtures::adversarial::GroupedSpend;
use rowkey_fixtures::strategies::edge_bytes;
use std::collections::BTreeMap;

fn store_of(keys: &BTreeMap<Vec<u8>, ()>) -> MemStore {
    block_on(rowkey_fixtures::stores::mem_store_with_keys(keys.keys()))
}

/// Checks `plan` against `want` over `rows`: `contains`, `read_plan` (as a
/// set), `query` (the logical order, the salt prefix skipped) forwards and
/// reversed, and a limit.
fn check<K: RowKey, const N: usize>(
    rows: &[K],
    plan: &ScanPlan<N>,
    want: impl Fn(&K) -> bool,
) -> Result<(), TestCaseError> {
    let table: BTreeMap<Vec<u8>, ()> = rows.iter().map(|r| (r.to_vec().unwrap(), ())).collect();
    let mut expected: Vec<Vec<u8>> = table
        .keys()
        .filter(|k| rows.iter().any(|r| r.to_vec().unwrap() == **k && want(r)))
        .cloned()
        .collect();
    let skip = plan.prefix_len();
    expected.sort_by(|a, b| a[skip..].cmp(&b[skip..]));
    let mut by_contains: Vec<Vec<u8>> =
        table.keys().filter(|k| plan.contains(k)).cloned().collect();
    by_contains.sort_by(|a, b| a[skip..].cmp(&b[skip..]));
    prop_assert_eq!(&by_contains, &expected, "contains");
    // Ranges are sorted by stored key and disjoint.
    let ranges: Vec<_> = plan.ranges().collect();
    for w in ranges.windows(2) {
        prop_assert!(
            w[0].stop().is_some_and(|s| s < w[1].start()),
            "ranges overlap or touch: {:?}",
            ranges
        );
    }
    let store = store_of(&table);
    let keys = |p: &ScanPlan<N>| {
        block_on(async { store.query(p).try_collect::<Vec<Row>>().await.unwrap() })
            .into_iter()
            .map(|r| r.key)
            .collect::<Vec<_>>()
    };
    prop_assert_eq!(&keys(plan), &expected, "query");
    let mut back = expected.clone();
    back.reverse();
    prop_assert_eq!(&keys(&plan.clone().reversed()), &back, "query reversed");
    prop_assert_eq!(
        &keys(&plan.clone().with_limit(3)),
        &expected[..expected.len().min(3)],
        "limit"
    );
    let mut stored: Vec<Vec<u8>> = block_on(async {
        store
            .read_plan(plan)
            .try_collect::<Vec<Row>>()
            .await
            .unwrap()
    })
    .into_iter()
    .map(|r| r.key)
    .collect();
    stored.sort_by(|a, b| a[skip..].cmp(&b[skip..]));
    prop_assert_eq!(&stored, &expected, "read_plan");
    Ok(())
}

fn edgy_text() -> impl Strategy<Value = String> {
    "[ab\\x00\\x7F]{0,3}"
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Reading {
    #[salt(buckets = 16, binary)]
    device: u32,
    metric: u16,
    #[desc_ts]
    at: i64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Doc {
    #[salt(buckets = 8, hash = phoenix)]
    #[max_len(4)]
    tag: String,
    #[desc]
    #[max_len(4)]
    name: String,
    n: i8,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Hashed {
    #[hash_prefix(len = 2, binary)]
    tenant: u16,
    #[max_len(4)]
    kind: Vec<u8>,
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn salted_inputs_fixed_by_lists_read_one_bucket_each(
        rows in prop::collection::vec((0u32..8, 0u16..5, 0i64..20), 1..120),
        devices in prop::collection::vec(0u32..9, 0..4),
        metrics in prop::collection::vec(0u16..6, 1..4),
        (t1, t2) in (0i64..20, 0i64..20),
    ) {
        let rows: Vec<Reading> = rows.into_iter().map(|(device, metric, at)| Reading { device, metric, at }).collect();
        let plan = Reading::scan().device.is_in(devices.clone()).plan().unwrap();
        let mut distinct = devices.clone();
        distinct.sort();
        distinct.dedup();
        prop_assert!(plan.len() <= distinct.len());
        check(&rows, &plan, |r| devices.contains(&r.device))?;
        let plan = Reading::scan().device.is_in(devices.clone()).metric.is_in(metrics.clone()).at.between(t1, t2).unwrap();
        check(&rows, &plan, |r| devices.contains(&r.device) && metrics.contains(&r.metric) && (t1..t2).contains(&r.at))?;
        // A list after a fixed field, then `eq`, then a point.
        if let (Some(&d), Some(&t)) = (devices.first(), Some(&t1)) {
            let plan = Reading::scan().device.eq(d).metric.is_in(metrics.clone()).at.eq(t).plan().unwrap();
            check(&rows, &plan, |r| r.device == d && metrics.contains(&r.metric) && r.at == t)?;
        }
    }

    #[test]
    fn grouped_salt_with_padded_and_descending_fields(
        rows in prop::collection::vec((1u8..=4, "[ab\\x01\\x7F]{1,4}", any::<u16>(), edge_bytes(3)), 1..120),
        months in prop::collection::vec(1u8..=4, 1..3),
        users in prop::collection::vec("[ab\\x01\\x7F]{1,4}", 1..3),
        pick in any::<prop::sample::Index>(),
    ) {
        let rows: Vec<GroupedSpend> = rows.into_iter().map(|(month, user, seq, tail)| GroupedSpend { month, user, seq, tail }).collect();
        let seq = pick.get(&rows).seq;
        let users_ref: Vec<&str> = users.iter().map(String::as_str).collect();
        check(&rows, &GroupedSpend::scan().month.is_in(months.clone()).plan().unwrap(), |r| months.contains(&r.month))?;
        check(&rows, &GroupedSpend::scan().month.is_in(months.clone()).user.is_in(users_ref.clone()).plan().unwrap(),
            |r| months.contains(&r.month) && users.contains(&r.user))?;
        check(&rows, &GroupedSpend::scan().month.is_in(months.clone()).user.is_in(users_ref.clone()).seq.range(..=seq).unwrap(),
            |r| months.contains(&r.month) && users.contains(&r.user) && r.seq <= seq)?;
        check(&rows, &GroupedSpend::scan().month.is_in(months.clone()).user.starts_with("a").unwrap(),
            |r| months.contains(&r.month) && r.user.starts_with('a'))?;
    }

    #[test]
    fn phoenix_salt_and_descending_escaped_text(
        rows in prop::collection::vec((edgy_text(), edgy_text(), any::<i8>()), 1..120),
        tags in prop::collection::vec(edgy_text(), 1..4),
        names in prop::collection::vec(edgy_text(), 1..3),
        (lo, hi) in (any::<i8>(), any::<i8>()),
    ) {
        let rows: Vec<Doc> = rows.into_iter().map(|(tag, name, n)| Doc { tag, name, n }).collect();
        let tags_ref: Vec<&str> = tags.iter().map(String::as_str).collect();
        let names_ref: Vec<&str> = names.iter().map(String::as_str).collect();
        check(&rows, &Doc::scan().tag.is_in(tags_ref.clone()).plan().unwrap(), |r| tags.contains(&r.tag))?;
        check(&rows, &Doc::scan().tag.is_in(tags_ref.clone()).name.is_in(names_ref.clone()).n.range(lo..=hi).unwrap(),
            |r| tags.contains(&r.tag) && names.contains(&r.name) && (lo..=hi).contains(&r.n))?;
    }

    #[test]
    fn hash_prefixed_lists(
        rows in prop::collection::vec((0u16..6, prop::collection::vec(prop_oneof![Just(0u8), Just(0xFF), any::<u8>()], 0..4)), 1..120),
        tenants in prop::collection::vec(0u16..7, 1..4),
        kinds in prop::collection::vec(prop::collection::vec(prop_oneof![Just(0u8), Just(0xFF)], 0..3), 1..3),
    ) {
        let rows: Vec<Hashed> = rows.into_iter().map(|(tenant, kind)| Hashed { tenant, kind }).collect();
        let kinds_ref: Vec<&[u8]> = kinds.iter().map(Vec::as_slice).collect();
        check(&rows, &Hashed::scan().tenant.is_in(tenants.clone()).plan().unwrap(), |r| tenants.contains(&r.tenant))?;
        check(&rows, &Hashed::scan().tenant.is_in(tenants.clone()).kind.is_in(kinds_ref.clone()).plan().unwrap(),
            |r| tenants.contains(&r.tenant) && kinds.contains(&r.kind))?;
    }
}

#[test]
fn an_empty_list_matches_nothing_and_a_list_over_the_cap_is_an_error() {
    let none: [u32; 0] = [];
    assert!(Reading::scan()
        .device
        .is_in(none)
        .plan()
        .unwrap()
        .is_empty());
    let err = Reading::scan()
        .with_max_ranges(10)
        .device
        .is_in(0..4)
        .metric
        .is_in(0..3)
        .plan()
        .unwrap_err();
    assert_eq!(
        err.kind(),
        EncodeErrorKind::TooManyRanges {
            ranges: 12,
            max: 10
        }
    );
    assert_eq!(err.field(), "metric");
    // Raised, the same query plans: twelve prefixes, and metrics 0, 1
    // and 2 of a device are adjacent, so one range per device.
    let plan = Reading::scan()
        .with_max_ranges(12)
        .device
        .is_in(0..4)
        .metric
        .is_in(0..3)
        .plan()
        .unwrap();
    assert_eq!(plan.len(), 4);
    // Duplicates and touching ranges are joined: 0,1,2 of one device's
    // metrics are three adjacent prefixes, one range.
    let plan = Reading::scan()
        .device
        .eq(5)
        .metric
        .is_in([2, 0, 1, 1])
        .plan()
        .unwrap();
    assert_eq!(plan.len(), 1);
    // A value the field cannot hold is the plan's error.
    let long = Doc::scan()
        .tag
        .is_in(["ok", "far too long"])
        .plan()
        .unwrap_err();
    assert_eq!(long.field(), "tag");
}

/// Issue 41: `is_in` takes whatever borrows as the field's type: the
/// items of `Vec<String>::iter()` (`&String`) for a text field, `&u16`
/// for an integer, `Box<str>`, `Cow<str>`; each plan is the one of the
/// plain values.
#[test]
fn is_in_takes_items_that_borrow_as_the_field() {
    #[derive(RowKey)]
    struct Trip {
        #[salt(buckets = 12)]
        city: u16,
        #[pad(width = 24)]
        driver: String,
        #[desc_ts]
        started: i64,
    }
    let drivers: Vec<String> = vec!["fleet-airport-shuttle".into(), "ana".into()];
    let cities: Vec<u16> = vec![3, 9];
    let plain = Trip::scan()
        .city
        .is_in([3, 9])
        .driver
        .is_in(["fleet-airport-shuttle", "ana"])
        .plan()
        .unwrap();
    let borrowed = Trip::scan()
        .city
        .is_in(cities.iter())
        .driver
        .is_in(drivers.iter())
        .plan()
        .unwrap();
    assert_eq!(borrowed, plain);
    let owned = Trip::scan()
        .city
        .is_in(cities.clone())
        .driver
        .is_in(
            drivers
                .iter()
                .map(|d| std::borrow::Cow::Borrowed(d.as_str())),
        )
        .plan()
        .unwrap();
    assert_eq!(owned, plain);
    let boxed: Vec<Box<str>> = drivers.iter().map(|d| d.as_str().into()).collect();
    let from_boxes = Trip::scan()
        .city
        .is_in(&cities)
        .driver
        .is_in(&boxed)
        .plan()
        .unwrap();
    assert_eq!(from_boxes, plain);
    assert_eq!(plain.len(), 4);
}
