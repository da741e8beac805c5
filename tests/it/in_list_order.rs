//! IN-list plans ordered after their lists
//! (`ScanPlan::ordered_after_in_lists`, `Step::latest(n)`) without a
//! store: the plan's shape (its merge offset, its sources, what it
//! contains, how it renders), and `scan::page` and
//! `merge_sorted_by_offset` over a sorted map return exactly a
//! brute-force answer sorted by the test's own reading of the fields after
//! the last listed one (ties by the logical key), in pages of 1 to 7 rows
//! resumed through cursors. Layouts: a binary salt fixed by the list, a
//! grouped text salt the list does not fix, `#[desc_ts]`, `#[desc]` text
//! with `\n` and regex metacharacters, keys with 0x00/0xFF tails, equal
//! later fields across combinations (ties). The same plans through every
//! store are in the conformance suite (`rowkey_fixtures::conformance`).

use proptest::prelude::*;
use rowkey::scan::{merge_sorted_by_offset, page, Cursor, ScanPlan, ScanRange};
use rowkey::{EncodeErrorKind, RowKey};
use rowkey_fixtures::adversarial::GroupedSpend;
use rowkey_fixtures::brute::merged_keys;
use rowkey_fixtures::layouts::Reading;
use rowkey_fixtures::strategies::edge_bytes;
use std::cmp::Reverse;
use std::collections::BTreeSet;

type Keys = BTreeSet<Vec<u8>>;

/// Pages that come back more often than there are rows: a resume that
/// does not advance.
const MAX_PAGES: usize = 200;

/// Every page of `plan` through `scan::page` over the sorted map, each
/// resumed from the previous cursor sent through its string.
fn map_pages<const N: usize>(table: &Keys, plan: &ScanPlan<N>, size: usize) -> Vec<Vec<u8>> {
    let read = |r: ScanRange<N>, limit: usize| -> Vec<Vec<u8>> {
        table
            .range(r.start().to_vec()..)
            .take_while(|k| r.contains(k))
            .take(limit)
            .cloned()
            .collect()
    };
    let (mut out, mut resume): (Vec<Vec<u8>>, Option<Cursor>) = (Vec::new(), None);
    for _ in 0..MAX_PAGES {
        let p = page(plan, resume.as_ref(), size, read).unwrap();
        out.extend(p.rows);
        match p.next {
            Some(c) => resume = Some(c.to_string().parse().unwrap()),
            None => return out,
        }
    }
    panic!("paging does not advance: {} rows so far", out.len())
}

/// `key_order` ordered after its IN-lists returns `expected` (forwards,
/// unlimited) however it is read.
fn check<const N: usize>(
    table: &Keys,
    key_order: &ScanPlan<N>,
    offset: Option<usize>,
    expected: &[Vec<u8>],
) -> Result<(), TestCaseError> {
    let ordered = key_order.clone().ordered_after_in_lists().unwrap();
    // `None`: an empty list, whose offset does not matter.
    let offset = offset.unwrap_or(ordered.merge_offset());
    prop_assert_eq!(ordered.merge_offset(), offset);
    prop_assert_eq!(
        ordered.clone().ordered_after_in_lists().unwrap(),
        ordered.clone()
    );
    let skip = key_order.prefix_len();
    // The same rows as the plan in key order: its renderings stay right.
    for k in table {
        prop_assert_eq!(ordered.contains(k), key_order.contains(k), "contains");
    }
    let sources: Vec<_> = ordered.ranges().collect();
    for w in sources.windows(2) {
        prop_assert!(
            w[0].stop().is_some_and(|s| s <= w[1].start()),
            "{:?}",
            sources
        );
    }
    prop_assert_eq!(ordered.hbase_shell("t").lines().count(), sources.len());
    for size in 1..=7 {
        prop_assert_eq!(
            &map_pages(table, &ordered, size),
            expected,
            "scan::page of {}",
            size
        );
    }
    // Users merging their own reads of the ranges.
    let reads = sources.iter().map(|r| {
        table
            .iter()
            .filter(|k| r.contains(k))
            .cloned()
            .collect::<Vec<_>>()
    });
    let merged: Vec<Vec<u8>> =
        merge_sorted_by_offset(reads, skip, ordered.merge_offset(), None).collect();
    prop_assert_eq!(&merged, expected, "merge_sorted_by_offset");
    Ok(())
}

fn keys_of<K: RowKey>(rows: &[K]) -> Keys {
    rows.iter().map(|r| r.to_vec().unwrap()).collect()
}

/// Unsalted; a `#[desc]` IN field, then `#[desc]` escaped text.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Doc {
    #[desc]
    kind: u8,
    #[desc]
    #[max_len(6)]
    name: String,
    n: i8,
}

/// A field of varying width before the IN-listed one.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Page {
    #[max_len(8)]
    host: String,
    kind: u8,
    #[desc_ts]
    at: i64,
}

fn edgy_text() -> impl Strategy<Value = String> {
    "[a\\n.*()\\x00]{0,3}"
}

fn padded(user: &str) -> Vec<u8> {
    let mut b = user.as_bytes().to_vec();
    b.resize(4, 0);
    b
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// One device, its metrics as an IN-list, a time window: newest first
    /// across the metrics (few timestamps: ties across metrics).
    #[test]
    fn readings_newest_first_across_metrics(
        rows in prop::collection::vec((0u32..3, 0u16..5, 0i64..6), 1..80),
        device in 0u32..3,
        metrics in prop::collection::vec(0u16..6, 1..4),
        since in 0i64..4,
    ) {
        let rows: Vec<Reading> = rows.into_iter().map(|(device, metric, at_ms)| Reading { device, metric, at_ms }).collect();
        let table = keys_of(&rows);
        let plan = Reading::scan().device.eq(device).metric.is_in(metrics.clone()).at_ms.since(since).unwrap();
        let keep = |k: &[u8]| {
            let r = Reading::decode(k).unwrap();
            r.device == device && metrics.contains(&r.metric) && r.at_ms >= since
        };
        let newest = |k: &[u8]| Reverse(Reading::decode(k).unwrap().at_ms);
        let expected = merged_keys(&table, keep, newest, 1, false, None);
        check(&table, &plan, Some(1 + 4 + 2), &expected)?;
        // latest(n): the n newest of every metric, the whole window.
        for n in [0, 1, 3, 100] {
            let latest = Reading::scan().device.eq(device).metric.is_in(metrics.clone()).at_ms.latest(n).unwrap();
            let want = merged_keys(&table, |k: &[u8]| {
                let r = Reading::decode(k).unwrap();
                r.device == device && metrics.contains(&r.metric)
            }, newest, 1, false, Some(n));
            prop_assert_eq!(map_pages(&table, &latest, 1000), want, "latest({})", n);
        }
    }

    /// Devices and metrics both listed: one bucket per device, a source
    /// per (device, metric).
    #[test]
    fn readings_over_devices_and_metrics(
        rows in prop::collection::vec((0u32..4, 0u16..3, 0i64..5), 1..80),
        devices in prop::collection::vec(0u32..5, 1..4),
        metrics in prop::collection::vec(0u16..4, 1..3),
        until in 1i64..6,
    ) {
        let rows: Vec<Reading> = rows.into_iter().map(|(device, metric, at_ms)| Reading { device, metric, at_ms }).collect();
        let table = keys_of(&rows);
        let plan = Reading::scan().device.is_in(devices.clone()).metric.is_in(metrics.clone()).at_ms.until(until).unwrap();
        let keep = |k: &[u8]| {
            let r = Reading::decode(k).unwrap();
            devices.contains(&r.device) && metrics.contains(&r.metric) && r.at_ms < until
        };
        let newest = |k: &[u8]| Reverse(Reading::decode(k).unwrap().at_ms);
        check(&table, &plan, Some(7), &merged_keys(&table, keep, newest, 1, false, None))?;
        // Devices listed, the metric fixed after the list: ordered from
        // the metric on.
        let m = metrics[0];
        let plan = Reading::scan().device.is_in(devices.clone()).metric.eq(m).plan().unwrap();
        let keep = |k: &[u8]| {
            let r = Reading::decode(k).unwrap();
            devices.contains(&r.device) && r.metric == m
        };
        check(&table, &plan, Some(5), &merged_keys(&table, keep, newest, 1, false, None))?;
    }

    /// A grouped text salt: listing only the month leaves the user free,
    /// so each month is read in its group's three buckets; listing both
    /// fixes each combination's bucket.
    #[test]
    fn grouped_text_salt(
        rows in prop::collection::vec((1u8..5, "[ab\\x7F]{1,2}", any::<u16>().prop_map(|s| s % 4 * 21845), edge_bytes(3)), 1..80),
        months in prop::collection::vec(1u8..5, 1..3),
        users in prop::collection::vec("[ab\\x7F]{1,2}", 1..3),
    ) {
        let rows: Vec<GroupedSpend> = rows.into_iter().map(|(month, user, seq, tail)| GroupedSpend { month, user, seq, tail }).collect();
        let table = keys_of(&rows);
        let decode = |k: &[u8]| GroupedSpend::decode(k).unwrap();
        let plan = GroupedSpend::scan().month.is_in(months.clone()).plan().unwrap();
        let keep = |k: &[u8]| months.contains(&decode(k).month);
        let order = |k: &[u8]| { let r = decode(k); (padded(&r.user), Reverse(r.seq), r.tail) };
        check(&table, &plan, Some(2 + 2), &merged_keys(&table, keep, order, 2, false, None))?;
        let names: Vec<&str> = users.iter().map(String::as_str).collect();
        let plan = GroupedSpend::scan().month.is_in(months.clone()).user.is_in(names).plan().unwrap();
        let keep = |k: &[u8]| { let r = decode(k); months.contains(&r.month) && users.contains(&r.user) };
        let order = |k: &[u8]| { let r = decode(k); (Reverse(r.seq), r.tail) };
        check(&table, &plan, Some(2 + 2 + 4), &merged_keys(&table, keep, order, 2, false, None))?;
    }

    /// `#[desc]` fields, escaped text full of `\n`, `\x00` and regex
    /// metacharacters after the list.
    #[test]
    fn descending_fields(
        rows in prop::collection::vec((0u8..4, edgy_text(), -2i8..2), 1..80),
        kinds in prop::collection::vec(0u8..5, 0..4),
    ) {
        let rows: Vec<Doc> = rows.into_iter().map(|(kind, name, n)| Doc { kind, name, n }).collect();
        let table = keys_of(&rows);
        let plan = Doc::scan().kind.is_in(kinds.clone()).plan().unwrap();
        let keep = |k: &[u8]| kinds.contains(&Doc::decode(k).unwrap().kind);
        let order = |k: &[u8]| { let r = Doc::decode(k).unwrap(); (Reverse(r.name.into_bytes()), r.n) };
        check(&table, &plan, (!kinds.is_empty()).then_some(1), &merged_keys(&table, keep, order, 0, false, None))?;
    }
}

proptest! {
    /// A field of varying width set with `eq` before the list: every
    /// combination writes it at one width, so the rows merge by the fields
    /// after the list (hosts of any width, escaped bytes included).
    #[test]
    fn a_varying_field_set_exactly_before_the_list(
        rows in prop::collection::vec((edgy_text(), 0u8..4, 0i64..6), 1..80),
        host in edgy_text(),
        kinds in prop::collection::vec(0u8..5, 0..4),
    ) {
        let rows: Vec<Page> = rows.into_iter().map(|(host, kind, at)| Page { host, kind, at }).collect();
        let table = keys_of(&rows);
        let plan = Page::scan().host.eq(host.as_str()).kind.is_in(kinds.clone()).plan().unwrap();
        let keep = |k: &[u8]| { let p = Page::decode(k).unwrap(); p.host == host && kinds.contains(&p.kind) };
        // Newest first (`#[desc_ts]`), ties by the whole key.
        let order = |k: &[u8]| Reverse(Page::decode(k).unwrap().at);
        let offset = Page { host: host.clone(), kind: 0, at: 0 }.to_vec().unwrap().len() - 8;
        check(&table, &plan, (!kinds.is_empty()).then_some(offset), &merged_keys(&table, keep, order, 0, false, None))?;
    }
}

#[test]
fn no_common_offset_is_a_precise_error() {
    // The listed field's values differ in width: named, with where the
    // fields after the list start in two combinations, and the fix.
    let plan = Page::scan().host.is_in(["a", "bc"]).plan().unwrap();
    let e = plan.clone().ordered_after_in_lists().unwrap_err();
    assert_eq!((e.key(), e.field(), e.offset()), ("Page", "host", 0));
    assert_eq!(
        e.kind(),
        EncodeErrorKind::InListWidthVaries { ends: (3, 4) }
    );
    assert_eq!(
        e.to_string(),
        "cannot plan Page.host at byte 0: this field's width varies, so the fields after the \
         IN-list start at byte 3 in one combination and at byte 4 in another: their rows have \
         no common offset to be merged by; give the field one width with #[pad(width = N)]"
    );
    // Values of one width end at one offset: the merge is sound, so the
    // plan allows it (`latest` after such a list does not compile: the
    // next value may differ; see tests/ui/scan_latest_after_varying_in.rs).
    let same = Page::scan().host.is_in(["ab", "cd"]).plan().unwrap();
    assert_eq!(same.ordered_after_in_lists().unwrap().merge_offset(), 4);
    // A varying field set with `eq` before the list: one width.
    let eq_first = Page::scan()
        .host
        .eq("a.b")
        .kind
        .is_in([1, 2])
        .at
        .latest(3)
        .unwrap();
    assert_eq!(eq_first.merge_offset(), 6);
    // The plan reads in key order still.
    assert_eq!(plan.len(), 2);
    // No IN-list, or resumed in key order: nothing to order by.
    let plain = Reading::scan().device.eq(1).plan().unwrap();
    let e = plain.ordered_after_in_lists().unwrap_err();
    assert!(e.to_string().contains("no IN-list"), "{e}");
    let listed = Reading::scan()
        .device
        .eq(1)
        .metric
        .is_in([1, 2])
        .plan()
        .unwrap();
    assert!(listed.after(&[0; 15]).ordered_after_in_lists().is_err());
}

#[test]
fn one_value_none_and_duplicates() {
    let rows: Vec<Reading> = (0..12)
        .map(|i| Reading {
            device: 1,
            metric: (i % 3) as u16,
            at_ms: i / 2,
        })
        .collect();
    let table = keys_of(&rows);
    let run = |plan: ScanPlan<{ Reading::MAX_LEN + 1 }>| {
        map_pages(&table, &plan, 1000)
            .iter()
            .map(|k| {
                let r = Reading::decode(k).unwrap();
                (r.metric, r.at_ms)
            })
            .collect::<Vec<_>>()
    };
    let device = Reading::scan().device.eq(1);
    let scan = || &device.metric;
    // One value: ordered like the plan in key order (newest first).
    let one = scan().is_in([1]).plan().unwrap();
    assert_eq!(run(one.clone().ordered_after_in_lists().unwrap()), run(one));
    // No values: nothing, ordered or not.
    let none = scan().is_in([0u16; 0]).plan().unwrap();
    assert!(run(none.ordered_after_in_lists().unwrap()).is_empty());
    // A value twice reads its range once; ties (same time) by metric.
    let twice = scan().is_in([2, 0, 2]).at_ms.latest(4).unwrap();
    assert_eq!(run(twice), [(2, 5), (0, 4), (2, 4), (0, 3)]);
    assert!(run(scan().is_in([0, 2]).at_ms.latest(0).unwrap()).is_empty());
}

#[test]
fn renders_one_line_per_source() {
    let plan = Reading::scan()
        .device
        .eq(7)
        .metric
        .is_in([4, 3])
        .plan()
        .unwrap();
    let ordered = plan.clone().ordered_after_in_lists().unwrap();
    // Metrics 3 and 4 touch: one range in key order, two sources ordered.
    assert_eq!(plan.len(), 1);
    assert_eq!(ordered.len(), 2);
    assert_eq!(
        ordered.hbase_shell("t"),
        "scan 't', {STARTROW => \"\\x07\\x00\\x00\\x00\\x07\\x00\\x03\", STOPROW => \"\\x07\\x00\\x00\\x00\\x07\\x00\\x04\"}\n\
         scan 't', {STARTROW => \"\\x07\\x00\\x00\\x00\\x07\\x00\\x04\", STOPROW => \"\\x07\\x00\\x00\\x00\\x07\\x00\\x05\"}\n"
    );
    assert!(ordered.cbt("t").is_err(), "0x00 in a bound: not a command");
}
