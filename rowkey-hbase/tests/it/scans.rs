//! Ranges, plans and read requests as `TScan`s: their bytes, and (by
//! property tests) the keys a model of HBase's scan semantics selects
//! with them, forwards and backwards, against brute force.

use crate::common;

use common::{assert_only_rows, scan, Reading, Table, HBASE, MAX_KEY, READINGS};
use hbase_thrift::hbase::TScan;
use proptest::prelude::*;
use rowkey::scan::{merge_sorted, prefix_successor, ScanPlan, ScanRange};
use rowkey::store::{KeyRange, ReadRequest};
use rowkey::RowKey;
use rowkey_hbase::{
    plan_scans, plan_scans_reversed, request_scans, ReverseStep, ReversedTScan, ToTScan,
};

fn rows(scan: &TScan) -> (Option<&[u8]>, Option<&[u8]>) {
    (scan.start_row.as_deref(), scan.stop_row.as_deref())
}

/// A backwards read as a client does it: every row the scanner returns
/// goes through the step, until a row says stop or the rows run out.
/// Panics if a row is skipped that is not the first, or skipped twice.
fn read_backwards(table: &Table, read: &ReversedTScan, reading: Reading) -> Vec<Vec<u8>> {
    let mut got = Vec::new();
    for (i, key) in scan(table, read.tscan(), reading).into_iter().enumerate() {
        match read.step(&key) {
            ReverseStep::Take => got.push(key),
            ReverseStep::Skip => assert_eq!(i, 0, "only the first row is skipped"),
            ReverseStep::Stop => break,
        }
    }
    got
}

#[test]
fn forward_bounds_byte_for_byte() {
    let cases: [(&[u8], Option<&[u8]>); 5] = [
        (b"\x00\xFF", Some(b"\x01")),
        (b"a\xFF\xFF", Some(b"b")),
        (b"\x00", Some(b"\x01")),
        (b"\xFF\xFF", None),
        (b"", None),
    ];
    for (prefix, stop) in cases {
        let range = ScanRange::<8>::with_prefix(prefix).unwrap();
        let s = range.to_tscan().unwrap();
        assert_only_rows(&s);
        assert_eq!(rows(&s), (Some(prefix), stop), "{range}");
        assert_eq!(s.reversed, None);
        // The owned range converts the same.
        assert_eq!(KeyRange::from(&range).to_tscan(), Some(s));
    }
    // One row: [k, k 00).
    let s = KeyRange::row(b"k\xFF").to_tscan().unwrap();
    assert_eq!(rows(&s), (Some(&b"k\xFF"[..]), Some(&b"k\xFF\x00"[..])));
    // The whole TScan, every field spelled out.
    let want = TScan {
        start_row: Some(b"\x00\x00".to_vec()),
        stop_row: Some(b"\xFF\x00".to_vec()),
        timestamp: None,
        columns: None,
        caching: None,
        filter_string: None,
        batch_size: None,
        sort_columns: None,
        reversed: None,
        cache_blocks: None,
    };
    let range = KeyRange::new(b"\x00\x00".to_vec(), Some(b"\xFF\x00".to_vec()));
    assert_eq!(range.to_tscan(), Some(want));
}

#[test]
fn ranges_without_rows_have_no_scan() {
    let none = [
        KeyRange::new(b"b".to_vec(), Some(b"b".to_vec())),
        KeyRange::new(b"b".to_vec(), Some(b"a".to_vec())),
        KeyRange::new(b"".to_vec(), Some(b"".to_vec())),
        // Only the empty key, which no HBase row has.
        KeyRange::new(b"".to_vec(), Some(b"\x00".to_vec())),
        // Past every key of at most 32767 bytes.
        KeyRange::new(vec![0xFF; MAX_KEY + 1], None),
    ];
    for r in none {
        assert_eq!(r.to_tscan(), None, "{r:?}");
        assert_eq!(r.to_reversed_tscan(), None, "{r:?}");
    }
}

#[test]
fn reversed_bounds_byte_for_byte() {
    // (start, stop) -> (start_row, stop_row) of the reversed scan.
    type Case<'a> = (
        (&'a [u8], Option<&'a [u8]>),
        (Option<&'a [u8]>, Option<&'a [u8]>),
    );
    let cases: [Case; 7] = [
        ((b"u7", Some(b"u8")), (Some(b"u8"), Some(b"u6"))),
        // A start ending in 00: its predecessor, exactly.
        ((b"k\x00", Some(b"k\x01")), (Some(b"k\x01"), Some(b"k"))),
        (
            (b"\x00\xFF", Some(b"\x01")),
            (Some(b"\x01"), Some(b"\x00\xFE")),
        ),
        // Nothing but the empty key is below [00] and [].
        ((b"\x00", Some(b"\x01")), (Some(b"\x01"), None)),
        ((b"", Some(b"\x01")), (Some(b"\x01"), None)),
        // No stop: from the last row of the table.
        ((b"\xFF\xFF", None), (None, Some(b"\xFF\xFE"))),
        ((b"", None), (None, None)),
    ];
    for ((start, stop), want) in cases {
        let range = KeyRange::new(start.to_vec(), stop.map(<[u8]>::to_vec));
        let read = range.to_reversed_tscan().unwrap();
        let s = read.tscan();
        assert_only_rows(s);
        assert_eq!(s.reversed, Some(true));
        assert_eq!(rows(s), want, "{range:?}");
        assert_eq!(read.range(), range);
    }
    let read = ScanRange::<8>::with_prefix(b"u7")
        .unwrap()
        .to_reversed_tscan();
    assert_eq!(
        read.unwrap().tscan(),
        &TScan {
            start_row: Some(b"u8".to_vec()),
            stop_row: Some(b"u6".to_vec()),
            timestamp: None,
            columns: None,
            caching: None,
            filter_string: None,
            batch_size: None,
            sort_columns: None,
            reversed: Some(true),
            cache_blocks: None,
        }
    );
}

#[test]
fn bounds_over_hbase_limit_fit_it() {
    let k = vec![b'k'; MAX_KEY];
    let mut after_k = k.clone();
    after_k.push(0);
    let next = prefix_successor(&k).unwrap();
    // [k 00, ...): the keys after k, which cannot start with k.
    let r = KeyRange::new(after_k.clone(), None);
    assert_eq!(rows(&r.to_tscan().unwrap()), (Some(next.as_slice()), None));
    // [.., k 00): the keys up to k.
    let r = KeyRange::new(b"k".to_vec(), Some(after_k.clone()));
    let s = r.to_tscan().unwrap();
    assert_eq!(rows(&s), (Some(&b"k"[..]), Some(next.as_slice())));
    let mut below = k.clone();
    *below.last_mut().unwrap() = b'j';
    let table: Table = [b"k".to_vec(), below.clone(), k.clone(), next.clone()]
        .into_iter()
        .collect();
    assert_eq!(
        scan(&table, &s, HBASE),
        [b"k".to_vec(), below.clone(), k.clone()]
    );
    let read = r.to_reversed_tscan().unwrap();
    assert_eq!(
        read_backwards(&table, &read, HBASE),
        [k.clone(), below, b"k".to_vec()]
    );
    // A 32767-byte bound is kept as it is.
    let r = KeyRange::new(k.clone(), None);
    assert_eq!(rows(&r.to_tscan().unwrap()), (Some(k.as_slice()), None));
}

#[test]
fn steps_of_a_backwards_read() {
    let read = KeyRange::new(b"b".to_vec(), Some(b"d".to_vec()))
        .to_reversed_tscan()
        .unwrap();
    assert_eq!(read.step(b"d"), ReverseStep::Skip);
    assert_eq!(read.step(b"c\xFF"), ReverseStep::Take);
    assert_eq!(read.step(b"b"), ReverseStep::Take);
    assert_eq!(read.step(b"a\xFF\xFF"), ReverseStep::Stop);
    let table: Table = [&b"a"[..], b"a\xFF", b"b", b"b\x00", b"c", b"d", b"d\x00"]
        .into_iter()
        .map(<[u8]>::to_vec)
        .collect();
    let want: Vec<Vec<u8>> = vec![b"c".to_vec(), b"b\x00".to_vec(), b"b".to_vec()];
    for reading in READINGS {
        assert_eq!(read_backwards(&table, &read, reading), want, "{reading:?}");
    }
}

fn key_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        Just(0u8),
        Just(1),
        Just(0x7F),
        Just(0xFE),
        Just(0xFF),
        any::<u8>()
    ]
}

fn key(max: usize) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(key_byte(), 0..=max)
}

/// A table of non-empty keys.
fn table() -> impl Strategy<Value = Table> {
    proptest::collection::btree_set(
        key(4).prop_filter("HBase keys are not empty", |k| !k.is_empty()),
        0..40,
    )
}

fn range() -> impl Strategy<Value = KeyRange> {
    (key(4), proptest::option::of(key(4))).prop_map(|(s, e)| KeyRange::new(s, e))
}

/// A range and keys near its bounds (a bound, a bound with bytes
/// appended, a bound's last byte changed), so that the model's edges are
/// in the table.
fn range_and_table() -> impl Strategy<Value = (KeyRange, Table)> {
    (
        range(),
        table(),
        proptest::collection::vec((0usize..2, key_byte(), 0usize..3), 0..8),
    )
        .prop_map(|(r, mut t, near)| {
            for (which, b, how) in near {
                let mut k = if which == 0 {
                    r.start.clone()
                } else {
                    r.stop.clone().unwrap_or_default()
                };
                match how {
                    0 => {}
                    1 => k.push(b),
                    _ => {
                        if let Some(last) = k.last_mut() {
                            *last = b;
                        }
                    }
                }
                if !k.is_empty() {
                    t.insert(k);
                }
            }
            (r, t)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// A range's forward scan selects exactly its keys, in key order; a
    /// range without a scan holds none of the table's keys.
    #[test]
    fn forward_scan_selects_exactly_the_range((r, t) in range_and_table()) {
        let want: Vec<Vec<u8>> = t.iter().filter(|k| r.contains(k)).cloned().collect();
        match r.to_tscan() {
            Some(s) => {
                assert_only_rows(&s);
                prop_assert_eq!(s.reversed, None);
                // Never equal bounds (HBase 1.x's get scan), never reversed ones.
                if let (Some(a), Some(b)) = rows(&s) {
                    prop_assert!(a < b, "{:?}", s);
                }
                prop_assert_eq!(scan(&t, &s, HBASE), want);
            }
            None => prop_assert!(want.is_empty(), "{:?} has no scan but holds {:?}", r, want),
        }
    }

    /// A range's backwards read (scan and steps) gives exactly its keys,
    /// in descending order, however the server reads the bounds, reading
    /// at most one row past each end.
    #[test]
    fn backward_read_gives_exactly_the_range((r, t) in range_and_table()) {
        let want: Vec<Vec<u8>> = t.iter().rev().filter(|k| r.contains(k)).cloned().collect();
        match r.to_reversed_tscan() {
            Some(read) => {
                let s = read.tscan();
                assert_only_rows(s);
                prop_assert_eq!(s.reversed, Some(true));
                for row in [s.start_row.as_ref(), s.stop_row.as_ref()].into_iter().flatten() {
                    prop_assert!(!row.is_empty(), "an empty row means the table's end: {:?}", s);
                }
                if let (Some(a), Some(b)) = rows(s) {
                    prop_assert!(a > b, "{:?}", s);
                }
                for reading in READINGS {
                    prop_assert_eq!(&read_backwards(&t, &read, reading), &want, "{:?}", reading);
                    let scanned = scan(&t, s, reading);
                    let used = scanned.iter().take_while(|k| read.step(k) != ReverseStep::Stop).count();
                    let extra = used - want.len() + usize::from(used < scanned.len());
                    prop_assert!(extra <= 2, "{} rows read past the range", extra);
                }
                // `retain_rows` over any split into batches agrees.
                let scanned = scan(&t, s, HBASE);
                let mut got = Vec::new();
                for batch in scanned.chunks(3) {
                    let mut batch: Vec<_> = batch.iter().map(|k| rowkey::store::Row::new(k.clone(), vec![])).collect();
                    let done = read.retain_rows(&mut batch);
                    got.extend(batch.into_iter().map(|r| r.key));
                    if done {
                        break;
                    }
                }
                prop_assert_eq!(got, want);
            }
            None => prop_assert!(want.is_empty()),
        }
    }

    /// A read request's scans, read in order, give exactly its keys in
    /// key order.
    #[test]
    fn request_scans_select_exactly_the_request(
        ranges in proptest::collection::vec(range(), 0..5),
        t in table(),
        at in key(3),
    ) {
        for request in [ReadRequest::new(ranges.clone()), ReadRequest::new(ranges.clone()).after(&at)] {
            let want: Vec<Vec<u8>> = t.iter().filter(|k| request.contains(k)).cloned().collect();
            let scans = request_scans(&request);
            prop_assert!(scans.len() <= request.ranges().len());
            let got: Vec<Vec<u8>> = scans.iter().flat_map(|s| scan(&t, s, HBASE)).collect();
            prop_assert_eq!(got, want);
        }
    }
}

// ---- Plans of derived keys.

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Op {
    #[salt(buckets = 4, binary)]
    user: u32,
    #[desc_ts]
    at: i64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Spend {
    #[salt(buckets = 24, group_by = month, range = 1..=12, per_group = 2)]
    #[text(width = 2)]
    month: u8,
    #[salt]
    #[pad(width = 4, fill = 0x01, align = left)]
    user: String,
    #[desc_ts]
    at_ms: i64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Event {
    tenant: u16,
    #[max_len(8)]
    kind: String,
    seq: u8,
}

/// A plan's scans, run in order through the model, give exactly the
/// plan's keys in key order; their merge gives them in logical order; the
/// backwards reads give them in descending key order.
fn check_plan<const N: usize>(t: &Table, plan: &ScanPlan<N>) -> Result<(), TestCaseError> {
    let want: Vec<Vec<u8>> = t.iter().filter(|k| plan.contains(k)).cloned().collect();
    let scans = plan_scans(plan);
    prop_assert!(scans.len() <= plan.len());
    if plan.is_empty() {
        prop_assert!(scans.is_empty());
    }
    for w in scans.windows(2) {
        prop_assert!(w[0].start_row < w[1].start_row, "sorted: {:?}", scans);
    }
    let per_scan: Vec<Vec<Vec<u8>>> = scans.iter().map(|s| scan(t, s, HBASE)).collect();
    let got: Vec<Vec<u8>> = per_scan.iter().flatten().cloned().collect();
    prop_assert_eq!(&got, &want, "{:?}", plan);
    // The plan's limit is not in the scans.
    prop_assert_eq!(&plan_scans(&plan.clone().with_limit(1)), &scans);
    let merged: Vec<Vec<u8>> = merge_sorted(per_scan, plan.prefix_len(), None).collect();
    let mut logical = want.clone();
    logical.sort_by(|a, b| a[plan.prefix_len()..].cmp(&b[plan.prefix_len()..]));
    prop_assert_eq!(merged, logical);
    let backwards: Vec<Vec<u8>> = plan_scans_reversed(plan)
        .iter()
        .flat_map(|read| read_backwards(t, read, HBASE))
        .collect();
    let mut descending = want;
    descending.reverse();
    prop_assert_eq!(backwards, descending);
    Ok(())
}

fn table_of<K: RowKey>(rows: &[K], junk: Vec<Vec<u8>>) -> Table {
    rows.iter()
        .map(|r| r.to_vec().unwrap())
        .chain(junk.into_iter().filter(|k| !k.is_empty()))
        .collect()
}

fn ts() -> impl Strategy<Value = i64> {
    prop_oneof![Just(0i64), Just(i64::MAX), Just(i64::MAX - 1), 0i64..8]
}

const USERS: [&str; 4] = ["a", "b", "\u{ff}", ""];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn salted_binary_plans(
        rows in proptest::collection::vec((0u32..6, ts()), 0..30),
        junk in proptest::collection::vec(key(10), 0..8),
        (user, t1, t2) in (0u32..6, ts(), ts()),
    ) {
        let rows: Vec<Op> = rows.into_iter().map(|(user, at)| Op { user, at }).collect();
        let t = table_of(&rows, junk);
        check_plan(&t, &Op::scan().plan().unwrap())?;
        check_plan(&t, &Op::scan().user.eq(user).plan().unwrap())?;
        check_plan(&t, &Op::scan().user.eq(user).at.between(t1, t2).unwrap())?;
        check_plan(&t, &Op::scan().user.eq(user).at.since(t1).unwrap())?;
        check_plan(&t, &Op::scan().user.eq(user).at.latest(1).unwrap())?;
    }

    #[test]
    fn salted_text_plans(
        rows in proptest::collection::vec((1u8..=12, 0usize..USERS.len(), ts()), 0..30),
        junk in proptest::collection::vec(key(12), 0..8),
        (m, u, t1, t2) in (1u8..=12, 0usize..USERS.len(), ts(), ts()),
    ) {
        let rows: Vec<Spend> = rows
            .into_iter()
            .map(|(month, u, at_ms)| Spend { month, user: USERS[u].to_string(), at_ms })
            .collect();
        let t = table_of(&rows, junk);
        check_plan(&t, &Spend::scan().plan().unwrap())?;
        check_plan(&t, &Spend::scan().month.eq(m).plan().unwrap())?;
        let mu = Spend::scan().month.eq(m).user.eq(USERS[u]);
        check_plan(&t, &mu.plan().unwrap())?;
        check_plan(&t, &mu.at_ms.between(t1, t2).unwrap())?;
        check_plan(&t, &mu.at_ms.until(t2).unwrap())?;
    }

    #[test]
    fn unsalted_plans(
        rows in proptest::collection::vec((prop_oneof![Just(0u16), Just(u16::MAX), 0u16..3], "[a\\x00\u{ff}]{0,3}", any::<u8>()), 0..30),
        junk in proptest::collection::vec(key(8), 0..8),
        (tenant, kind, s1, s2) in (prop_oneof![Just(0u16), Just(u16::MAX), 0u16..3], "[a\\x00\u{ff}]{0,3}", any::<u8>(), any::<u8>()),
    ) {
        let rows: Vec<Event> = rows.into_iter().map(|(tenant, kind, seq)| Event { tenant, kind, seq }).collect();
        let t = table_of(&rows, junk);
        check_plan(&t, &Event::scan().plan().unwrap())?;
        check_plan(&t, &Event::scan().tenant.eq(tenant).plan().unwrap())?;
        check_plan(&t, &Event::scan().tenant.eq(tenant).kind.eq(&kind).plan().unwrap())?;
        check_plan(&t, &Event::scan().tenant.eq(tenant).kind.eq(&kind).seq.between(s1, s2).unwrap())?;
    }
}

#[test]
fn empty_plans_have_no_scans() {
    assert!(plan_scans(&ScanPlan::<8>::empty()).is_empty());
    assert!(plan_scans_reversed(&ScanPlan::<8>::empty()).is_empty());
    assert!(request_scans(&ReadRequest::new([])).is_empty());
    // An empty time window.
    let plan = Op::scan().user.eq(1).at.between(5, 5).unwrap();
    assert!(plan.is_empty());
    assert!(plan_scans(&plan).is_empty());
}

#[test]
fn salted_plan_byte_for_byte() {
    let scans = plan_scans(&Op::scan().plan().unwrap());
    let bounds: Vec<_> = scans.iter().map(rows).collect();
    assert_eq!(
        bounds,
        [
            (Some(&[0u8][..]), Some(&[1u8][..])),
            (Some(&[1][..]), Some(&[2][..])),
            (Some(&[2][..]), Some(&[3][..])),
            (Some(&[3][..]), Some(&[4][..])),
        ]
    );
    scans.iter().for_each(assert_only_rows);
    let reads = plan_scans_reversed(&Op::scan().plan().unwrap());
    let bounds: Vec<_> = reads.iter().map(|r| rows(r.tscan())).collect();
    assert_eq!(
        bounds,
        [
            (Some(&[4u8][..]), Some(&[2][..])),
            (Some(&[3][..]), Some(&[1][..])),
            (Some(&[2][..]), Some(&[0][..])),
            (Some(&[1][..]), None),
        ]
    );
}
