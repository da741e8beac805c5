//! Ranges after a field left free (`driver.any().started.range(..)`): a
//! residual filter on the bytes after the pattern. Every plan, through
//! `MemStore` (`query`, in merged order, and `read_plan`), selects exactly
//! the rows a brute-force filter over the typed values selects: ascending,
//! `#[desc]` and `#[desc_ts]` fields, text ranges cut to the field, a raw
//! last field, salted keys read in every bucket, reversed and limited.

use futures::executor::block_on;
use futures::TryStreamExt;
use proptest::prelude::*;
use rowkey::scan::ScanPlan;
use rowkey::store::StoreExt;
use rowkey::RowKey;
use std::collections::BTreeMap;
use std::ops::{Bound, RangeBounds};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Trip {
    #[salt(buckets = 6, binary)]
    city: u16,
    #[salt]
    #[pad(width = 3)]
    driver: String,
    #[desc_ts]
    started: i64,
    #[desc]
    fare: u16,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Note {
    zone: u8,
    kind: u8,
    #[max_len(4)]
    text: String,
}

/// Checks `plan` over `rows` against `want`: `contains`, `query` (in
/// logical key order: the salt prefix skipped, reversed if the plan is,
/// cut at its limit) and `read_plan` (as a set).
fn check<K: RowKey, const N: usize>(
    rows: &[K],
    plan: &ScanPlan<N>,
    want: impl Fn(&K) -> bool,
) -> Result<(), TestCaseError> {
    let table: BTreeMap<Vec<u8>, bool> = rows
        .iter()
        .map(|r| (r.to_vec().unwrap(), want(r)))
        .collect();
    for (k, w) in &table {
        prop_assert_eq!(plan.contains(k), *w, "contains {:?}", k);
    }
    let skip = plan.prefix_len();
    let mut expected: Vec<Vec<u8>> = table
        .iter()
        .filter(|(_, w)| **w)
        .map(|(k, _)| k.clone())
        .collect();
    let mut all = expected.clone();
    expected.sort_by(|a, b| a[skip..].cmp(&b[skip..]));
    if plan.is_reversed() {
        expected.reverse();
    }
    expected.truncate(plan.limit().unwrap_or(usize::MAX));
    let store = block_on(rowkey_fixtures::stores::mem_store_with_keys(table.keys()));
    let (q, mut r) = block_on(async {
        let q: Vec<_> = store.query(plan).try_collect().await.unwrap();
        let r: Vec<_> = store
            .read_plan(&plan.clone().with_limit(usize::MAX))
            .try_collect()
            .await
            .unwrap();
        (q, r)
    });
    let q: Vec<Vec<u8>> = q.into_iter().map(|r| r.key).collect();
    prop_assert_eq!(&q, &expected, "query");
    let mut r: Vec<Vec<u8>> = r.drain(..).map(|r| r.key).collect();
    r.sort();
    all.sort();
    prop_assert_eq!(&r, &all, "read_plan");
    Ok(())
}

fn bound<T>(t: T) -> impl Strategy<Value = Bound<T::Value>>
where
    T: Strategy + Clone,
    T::Value: Clone,
{
    prop_oneof![
        Just(Bound::Unbounded),
        t.clone().prop_map(Bound::Included),
        t.prop_map(Bound::Excluded),
    ]
}

fn time() -> impl Strategy<Value = i64> {
    prop_oneof![Just(0i64), Just(i64::MAX), Just(i64::MAX - 1), 0i64..20]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// One city, any driver, a window of starts (newest first), across
    /// every bucket: the rows merged in logical order.
    #[test]
    fn a_desc_ts_window_after_a_free_salted_driver(
        rows in prop::collection::vec((0u16..3, "[ab\\n]{1,3}", time(), any::<u16>()), 1..80),
        city in 0u16..3,
        lo in time(), lo_incl: bool, hi in time(), hi_kind in 0u8..3,
        reversed: bool, limit in proptest::option::of(0usize..12),
    ) {
        let rows: Vec<Trip> = rows.into_iter()
            .map(|(city, driver, started, fare)| Trip { city, driver, started, fare })
            .collect();
        let lo = if lo_incl { Bound::Included(lo) } else { Bound::Excluded(lo) };
        let hi = match hi_kind { 0 => Bound::Unbounded, 1 => Bound::Included(hi), _ => Bound::Excluded(hi) };
        let mut plan = Trip::scan().city.eq(city).driver.any().started.range((lo, hi)).unwrap();
        // Every bucket with a filter, or nothing when no start is in the range.
        prop_assert!(plan.is_empty() || (plan.len() == 6 && plan.explain().filters_a_range()));
        if reversed { plan = plan.reversed(); }
        if let Some(l) = limit { plan = plan.with_limit(l); }
        check(&rows, &plan, |t| t.city == city && (lo, hi).contains(&t.started))?;
        // `between`, `since` and `until` are the same ranges.
        if let (Bound::Included(a), Bound::Excluded(b)) = (lo, hi) {
            check(&rows, &Trip::scan().city.eq(city).driver.any().started.between(a, b).unwrap(),
                |t| t.city == city && (a..b).contains(&t.started))?;
        }
        if let Bound::Included(a) = lo {
            check(&rows, &Trip::scan().city.eq(city).driver.any().started.since(a).unwrap(),
                |t| t.city == city && t.started >= a)?;
        }
        if let Bound::Excluded(b) = hi {
            check(&rows, &Trip::scan().city.any().driver.any().started.until(b).unwrap(),
                |t| t.started < b)?;
        }
    }

    /// A `#[desc]` field after two free ones, and an `eq` after a free
    /// field before the range.
    #[test]
    fn a_desc_range_after_free_fields(
        rows in prop::collection::vec((0u16..3, "[ab]{1,2}", 0i64..4, prop_oneof![Just(0u16), Just(u16::MAX), 0u16..50]), 1..80),
        started in 0i64..4,
        lo in bound(0u16..60), hi in bound(0u16..60),
    ) {
        let rows: Vec<Trip> = rows.into_iter()
            .map(|(city, driver, started, fare)| Trip { city, driver, started, fare })
            .collect();
        let plan = Trip::scan().city.any().driver.any().started.eq(started).fare.range((lo, hi)).unwrap();
        check(&rows, &plan, |t| t.started == started && (lo, hi).contains(&t.fare))?;
    }

    /// Text ranges on a raw last field after a free one: bounds longer
    /// than the field are cut to it, as without a free field.
    #[test]
    fn a_text_range_on_a_raw_last_field_after_a_free_one(
        rows in prop::collection::vec((0u8..3, 0u8..3, "[a-c\\x00]{0,4}"), 1..80),
        kind in 0u8..3,
        lo in bound("[a-c\\x00]{0,6}"), hi in bound("[a-c\\x00]{0,6}"),
    ) {
        let rows: Vec<Note> = rows.into_iter().map(|(zone, kind, text)| Note { zone, kind, text }).collect();
        fn as_str(b: &Bound<String>) -> Bound<&str> {
            b.as_ref().map(String::as_str)
        }
        let plan = Note::scan().zone.any().kind.eq(kind).text.range((as_str(&lo), as_str(&hi))).unwrap();
        check(&rows, &plan, |n| n.kind == kind && RangeBounds::<str>::contains(&(as_str(&lo), as_str(&hi)), n.text.as_str()))?;
    }
}

#[test]
fn explain_says_what_it_reads_and_what_it_keeps() {
    let plan = Trip::scan()
        .city
        .eq(3)
        .driver
        .any()
        .started
        .between(3_600_000, 7_200_000)
        .unwrap();
    assert_eq!(
        plan.explain().to_string(),
        "6 ranges, one in each of 6 salt buckets\n\
         the salt hashes city and driver, and driver is not fixed: fix it (eq) or list its \
         values (is_in) to read 1 bucket instead of 6\n\
         reads every row of those ranges, keeping the rows whose key matches a pattern of 6 \
         bytes and whose started (the key's bytes from byte 6 on) lie in the range: both on \
         the server on Bigtable (RowKeyRegexFilter), the pattern on the server and the range in \
         the client on HBase natively (FuzzyRowFilter), both in the client over HBase's Thrift 1 \
         and on MemStore\n\
         rows merged across buckets in logical key order"
    );
    let fuzzy = plan.fuzzy().unwrap();
    assert!(fuzzy.tail_range().is_some());
    // The shell line says what HBase cannot filter.
    assert!(plan
        .hbase_shell("trips")
        .contains("# then keep the rows whose bytes from byte 6"));
    // Bounds in the wrong order match nothing, as Rust's ranges.
    let none = Trip::scan()
        .city
        .eq(3)
        .driver
        .any()
        .started
        .between(9, 3)
        .unwrap();
    assert!(none.is_empty());
}
