//! Every query the typed builders can express, checked against brute
//! force: random rows go into a sorted map (a stand-in for the store,
//! which sorts keys the same way), each plan's ranges are read from it and
//! merged, and the result must be exactly the rows a filter over the
//! decoded structs selects, in the same (logical key) order. Paging with
//! pages of 1, 7 and more rows than match must give the same rows.

use proptest::prelude::*;
use rowkey::scan::{merge_sorted, offset_limit, page, ScanPlan, ScanRange};
use rowkey::{DecodeKeyOwned, RowKey};
use std::collections::BTreeMap;
use std::ops::Bound;

pub(crate) type Table = BTreeMap<Vec<u8>, ()>;

pub(crate) fn read<const N: usize>(table: &Table, r: &ScanRange<N>, limit: usize) -> Vec<Vec<u8>> {
    table
        .range(r.start().to_vec()..)
        .take_while(|(k, _)| r.stop().is_none_or(|s| k.as_slice() < s))
        .take(limit)
        .map(|(k, _)| k.clone())
        .collect()
}

/// One range read last key first, as a reversed store read returns it.
fn read_back<const N: usize>(table: &Table, r: &ScanRange<N>, limit: usize) -> Vec<Vec<u8>> {
    let mut rows = read(table, r, usize::MAX);
    rows.reverse();
    rows.truncate(limit);
    rows
}

/// The plan run against the table: ranges read and merged.
fn run<const N: usize>(table: &Table, plan: &ScanPlan<N>) -> Vec<Vec<u8>> {
    let sources: Vec<_> = plan.ranges().map(|r| read(table, &r, usize::MAX)).collect();
    merge_sorted(sources, plan.prefix_len(), plan.limit()).collect()
}

/// The rows a filter selects, in logical order (salt prefix ignored).
fn brute<K: DecodeKeyOwned>(
    table: &Table,
    prefix_len: usize,
    limit: Option<usize>,
    keep: impl Fn(&K) -> bool,
) -> Vec<Vec<u8>> {
    let mut rows: Vec<Vec<u8>> = table
        .keys()
        .filter(|k| keep(&K::decode(k).expect("stored keys decode")))
        .cloned()
        .collect();
    rows.sort_by(|a, b| a[prefix_len..].cmp(&b[prefix_len..]));
    rows.truncate(limit.unwrap_or(usize::MAX));
    rows
}

/// The plan and the filter must select the same rows; pages must too.
fn check<K: DecodeKeyOwned, const N: usize>(
    table: &Table,
    what: &str,
    plan: ScanPlan<N>,
    keep: impl Fn(&K) -> bool,
) -> Result<(), TestCaseError> {
    let want = brute(table, plan.prefix_len(), plan.limit(), &keep);
    let got = run(table, &plan);
    prop_assert_eq!(&got, &want, "{}: {:?}", what, plan);
    for size in [1, 7, want.len() + 3] {
        let (mut resume, mut paged) = (None::<rowkey::scan::Cursor>, Vec::new());
        for _ in 0..=want.len() + 1 {
            let p = page(&plan, resume.as_ref(), size, |r, limit| {
                read(table, &r, limit)
            })
            .unwrap();
            prop_assert!(p.rows.len() <= size);
            paged.extend(p.rows);
            match p.next {
                Some(next) => resume = Some(next.to_string().parse().unwrap()),
                None => break,
            }
        }
        prop_assert_eq!(&paged, &want, "{} in pages of {}", what, size);
        let mut by_offset = Vec::new();
        for offset in (0..want.len()).step_by(size) {
            by_offset.extend(offset_limit(&plan, offset, size, |r, limit| {
                read(table, &r, limit)
            }));
        }
        prop_assert_eq!(&by_offset, &want, "{} by offset, {} at a time", what, size);
    }
    // The reversed plan pages from the last key down, each row once.
    let back = plan.clone().reversed();
    let mut want_back = brute(table, plan.prefix_len(), None, &keep);
    want_back.reverse();
    want_back.truncate(plan.limit().unwrap_or(usize::MAX));
    for size in [1, 7, want_back.len() + 3] {
        let (mut resume, mut paged) = (None::<rowkey::scan::Cursor>, Vec::new());
        for _ in 0..=want_back.len() + 1 {
            let p = page(&back, resume.as_ref(), size, |r, limit| {
                read_back(table, &r, limit)
            })
            .unwrap();
            paged.extend(p.rows);
            match p.next {
                Some(next) => resume = Some(next),
                None => break,
            }
        }
        prop_assert_eq!(
            &paged,
            &want_back,
            "{} reversed, in pages of {}",
            what,
            size
        );
        let by_offset = offset_limit(&back, 0, want_back.len() + 1, |r, limit| {
            read_back(table, &r, limit)
        });
        prop_assert_eq!(&by_offset, &want_back, "{} reversed by offset", what);
    }
    Ok(())
}

fn table_of<K: RowKey>(rows: &[K]) -> Table {
    rows.iter().map(|r| (r.to_vec().unwrap(), ())).collect()
}

fn bound<T>(kind: u8, v: T) -> Bound<T> {
    match kind % 3 {
        0 => Bound::Included(v),
        1 => Bound::Excluded(v),
        _ => Bound::Unbounded,
    }
}

fn in_bounds<T: PartialOrd>(v: &T, lo: &Bound<T>, hi: &Bound<T>) -> bool {
    (match lo {
        Bound::Included(l) => v >= l,
        Bound::Excluded(l) => v > l,
        Bound::Unbounded => true,
    }) && (match hi {
        Bound::Included(h) => v <= h,
        Bound::Excluded(h) => v < h,
        Bound::Unbounded => true,
    })
}

// ---- The spending ledger: salted, bucket groups, reversed timestamps.

const USERS: [&str; 5] = ["a", "b", "zhangsan", "lisi", "\u{ff}\u{ff}"];

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Ledger {
    #[salt(buckets = 24, group_by = month, range = 1..=12, per_group = 2)]
    #[text(width = 2)]
    month: u8,
    #[salt]
    #[pad(width = 10, fill = 0x01, align = left)]
    user: String,
    #[desc_ts]
    at_ms: i64,
}

fn timestamp() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(0i64),
        Just(1),
        Just(i64::MAX),
        Just(i64::MAX - 1),
        0i64..40
    ]
}

fn ledger() -> impl Strategy<Value = Ledger> {
    (1u8..=12, 0usize..USERS.len(), timestamp()).prop_map(|(month, u, at_ms)| Ledger {
        month,
        user: USERS[u].to_string(),
        at_ms,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn ledger_queries_match_brute_force(
        rows in proptest::collection::vec(ledger(), 0..40),
        probe in ledger(),
        (t1, t2) in (timestamp(), timestamp()),
        (m1, m2, k1, k2) in (0u8..=13, 0u8..=13, any::<u8>(), any::<u8>()),
    ) {
        let t = table_of(&rows);
        let (m, u) = (probe.month, probe.user.clone());
        check(&t, "all", Ledger::scan().plan().unwrap(), |_: &Ledger| true)?;
        check(&t, "month", Ledger::scan().month.eq(m).plan().unwrap(), |r: &Ledger| r.month == m)?;
        let (lo, hi) = (bound(k1, m1), bound(k2, m2));
        match Ledger::scan().month.range((lo, hi)) {
            Ok(plan) => check(&t, "month range", plan, |r: &Ledger| in_bounds(&r.month, &lo, &hi))?,
            // 0 and 13 are not months of the group range: encoding says so.
            Err(e) => prop_assert!([m1, m2].iter().any(|m| !(1..=12).contains(m)), "{}", e),
        }
        let mu = Ledger::scan().month.eq(m).user.eq(&u);
        let is = |r: &Ledger| r.month == m && r.user == u;
        check(&t, "month+user", mu.plan().unwrap(), is)?;
        check(&t, "between", mu.at_ms.between(t1, t2).unwrap(), |r: &Ledger| is(r) && t1 <= r.at_ms && r.at_ms < t2)?;
        check(&t, "since", mu.at_ms.since(t1).unwrap(), |r: &Ledger| is(r) && r.at_ms >= t1)?;
        check(&t, "until", mu.at_ms.until(t2).unwrap(), |r: &Ledger| is(r) && r.at_ms < t2)?;
        let (lo, hi) = (bound(k1, t1), bound(k2, t2));
        check(&t, "ts range", mu.at_ms.range((lo, hi)).unwrap(), |r: &Ledger| is(r) && in_bounds(&r.at_ms, &lo, &hi))?;
        // The newest row: the smallest stored `MAX - ts`, i.e. the largest ts.
        let latest = run(&t, &mu.at_ms.latest(1).unwrap());
        let newest = rows.iter().filter(|r| is(r)).map(|r| r.at_ms).max();
        prop_assert_eq!(latest.len(), usize::from(newest.is_some()));
        if let Some(ts) = newest {
            prop_assert_eq!(Ledger::decode(&latest[0]).unwrap().at_ms, ts);
        }
        let point = mu.at_ms.eq(probe.at_ms);
        check(&t, "point", point.plan().unwrap(), |r: &Ledger| *r == probe)?;
        prop_assert_eq!(point.key().unwrap().to_vec(), probe.to_vec().unwrap());
    }
}

// ---- Unsalted: binary, escaped text, reversed timestamp, binary tail.

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Event {
    tenant: u16,
    #[max_len(8)]
    kind: String,
    #[desc_ts]
    at: u64,
    seq: u8,
}

fn kind() -> impl Strategy<Value = String> {
    "[ab\\x00\u{ff}]{0,3}"
}

fn event() -> impl Strategy<Value = Event> {
    (
        prop_oneof![Just(0u16), Just(u16::MAX), 0u16..4],
        kind(),
        prop_oneof![Just(0u64), Just(i64::MAX as u64), 0u64..30],
        any::<u8>(),
    )
        .prop_map(|(tenant, kind, at, seq)| Event {
            tenant,
            kind,
            at,
            seq,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn event_queries_match_brute_force(
        rows in proptest::collection::vec(event(), 0..40),
        probe in event(),
        (a, b) in (any::<u16>(), prop_oneof![Just(0u16), Just(u16::MAX), 0u16..5]),
        (p, q) in (kind(), kind()),
        (k1, k2) in (any::<u8>(), any::<u8>()),
        (t1, t2) in (prop_oneof![Just(0u64), Just(u64::MAX), 0u64..30], 0u64..30),
    ) {
        let t = table_of(&rows);
        let (lo, hi) = (bound(k1, a % 5), bound(k2, b));
        check(&t, "tenant range", Event::scan().tenant.range((lo, hi)).unwrap(), |r: &Event| in_bounds(&r.tenant, &lo, &hi))?;
        let tn = Event::scan().tenant.eq(probe.tenant);
        check(&t, "tenant", tn.plan().unwrap(), |r: &Event| r.tenant == probe.tenant)?;
        check(&t, "kind prefix", tn.kind.starts_with(&p).unwrap(), |r: &Event| r.tenant == probe.tenant && r.kind.starts_with(&p))?;
        let (lo, hi) = (bound(k1, p.as_str()), bound(k2, q.as_str()));
        check(&t, "kind range", tn.kind.range((lo, hi)).unwrap(), |r: &Event| r.tenant == probe.tenant && in_bounds(&r.kind.as_str(), &lo, &hi))?;
        let tk = tn.kind.eq(&probe.kind);
        let is = |r: &Event| r.tenant == probe.tenant && r.kind == probe.kind;
        check(&t, "at between", tk.at.between(t1, t2).unwrap(), |r: &Event| is(r) && t1 <= r.at && r.at < t2)?;
        check(&t, "at since", tk.at.since(t1).unwrap(), |r: &Event| is(r) && r.at >= t1)?;
        let at = tk.at.eq(probe.at);
        check(&t, "seq range", at.seq.range(..=probe.seq).unwrap(), |r: &Event| is(r) && r.at == probe.at && r.seq <= probe.seq)?;
        check(&t, "point", at.seq.eq(probe.seq).plan().unwrap(), |r: &Event| *r == probe)?;
    }
}

// ---- A raw last field (not prefix-free) and text digits.

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Doc {
    #[text(width = 4)]
    year: u16,
    #[max_len(3)]
    name: Vec<u8>,
}

fn name() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![Just(0u8), Just(0xFF), Just(b'a'), Just(b'b')],
        0..=3,
    )
}

fn doc() -> impl Strategy<Value = Doc> {
    (prop_oneof![Just(0u16), Just(9999), 2019u16..2023], name())
        .prop_map(|(year, name)| Doc { year, name })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn doc_queries_match_brute_force(
        rows in proptest::collection::vec(doc(), 0..40),
        probe in doc(),
        // Prefixes up to 2 longer than the field: no value starts with
        // those, an empty plan.
        digits in "[0-9]{0,6}",
        long in proptest::collection::vec(prop_oneof![Just(0u8), Just(0xFF), Just(b'a')], 0..=5),
        (p, q) in (name(), name()),
        (k1, k2) in (any::<u8>(), any::<u8>()),
        (y1, y2) in (prop_oneof![Just(10_000u16), Just(u16::MAX), 2018u16..2024], prop_oneof![Just(10_000u16), Just(u16::MAX), 2018u16..2024]),
    ) {
        let t = table_of(&rows);
        check(&t, "year digits", Doc::scan().year.starts_with(&digits).unwrap(), |r: &Doc| format!("{:04}", r.year).starts_with(&digits))?;
        let (lo, hi) = (bound(k1, y1), bound(k2, y2));
        check(&t, "year range", Doc::scan().year.range((lo, hi)).unwrap(), |r: &Doc| in_bounds(&r.year, &lo, &hi))?;
        let y = Doc::scan().year.eq(probe.year);
        check(&t, "name prefix", y.name.starts_with(&p).unwrap(), |r: &Doc| r.year == probe.year && r.name.starts_with(&p))?;
        check(&t, "long name prefix", y.name.starts_with(&long).unwrap(), |r: &Doc| r.year == probe.year && r.name.starts_with(&long))?;
        let (lo, hi) = (bound(k1, p.as_slice()), bound(k2, q.as_slice()));
        check(&t, "name range", y.name.range((lo, hi)).unwrap(), |r: &Doc| r.year == probe.year && in_bounds(&r.name.as_slice(), &lo, &hi))?;
        check(&t, "point", y.name.eq(&probe.name).plan().unwrap(), |r: &Doc| *r == probe)?;
    }
}

// ---- A descending field in front of a binary salt.

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Score {
    #[desc]
    score: i32,
    #[salt(buckets = 4, binary)]
    id: u16,
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn score_queries_match_brute_force(
        rows in proptest::collection::vec((prop_oneof![Just(i32::MIN), Just(i32::MAX), -3i32..3], 0u16..6).prop_map(|(score, id)| Score { score, id }), 0..40),
        (a, b, k1, k2) in (prop_oneof![Just(i32::MIN), Just(i32::MAX), -4i32..4], prop_oneof![Just(i32::MIN), Just(i32::MAX), -4i32..4], any::<u8>(), any::<u8>()),
        probe in (-3i32..3, 0u16..6),
    ) {
        let t = table_of(&rows);
        let (lo, hi) = (bound(k1, a), bound(k2, b));
        let plan = Score::scan().score.range((lo, hi)).unwrap();
        prop_assert!(plan.len() == 4 || plan.is_empty());
        check(&t, "score range", plan, |r: &Score| in_bounds(&r.score, &lo, &hi))?;
        let s = Score::scan().score.eq(probe.0);
        check(&t, "score", s.plan().unwrap(), |r: &Score| r.score == probe.0)?;
        let point = s.id.eq(probe.1);
        prop_assert_eq!(point.plan().unwrap().len(), 1);
        check(&t, "point", point.plan().unwrap(), |r: &Score| r.score == probe.0 && r.id == probe.1)?;
    }
}

// ---- Separator-joined text with a Java-hash salt.

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(separator = "_")]
struct Call {
    #[salt(buckets = 6, hash = java)]
    #[text(width = 3)]
    tel: u16,
    #[max_len(4)]
    city: String,
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn call_queries_match_brute_force(
        rows in proptest::collection::vec((0u16..4, "[ab]{0,3}").prop_map(|(tel, city)| Call { tel, city }), 0..30),
        (tel, p) in (0u16..4, "[ab]{0,2}"),
    ) {
        let t = table_of(&rows);
        let c = Call::scan().tel.eq(tel);
        prop_assert_eq!(c.plan().unwrap().len(), 1);
        check(&t, "tel", c.plan().unwrap(), |r: &Call| r.tel == tel)?;
        check(&t, "city prefix", c.city.starts_with(&p).unwrap(), |r: &Call| r.tel == tel && r.city.starts_with(&p))?;
    }
}

// ---- Right padding with 0x00: ordered, and prefixes must not end in the fill.

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Tag {
    #[pad(width = 3)]
    tag: Vec<u8>,
    n: u8,
}

fn tag_bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(prop_oneof![Just(0u8), Just(1), Just(0xFF)], 0..=3)
        .prop_filter("a padded value does not end with the fill", |v| {
            v.last() != Some(&0)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn padded_queries_match_brute_force(
        rows in proptest::collection::vec((tag_bytes(), 0u8..3).prop_map(|(tag, n)| Tag { tag, n }), 0..30),
        prefix in proptest::collection::vec(prop_oneof![Just(0u8), Just(1), Just(0xFF)], 0..=5),
        (a, b, k1, k2) in (tag_bytes(), tag_bytes(), any::<u8>(), any::<u8>()),
    ) {
        let t = table_of(&rows);
        match Tag::scan().tag.starts_with(&prefix) {
            Ok(plan) => {
                prop_assert_ne!(prefix.last(), Some(&0));
                check(&t, "tag prefix", plan, |r: &Tag| r.tag.starts_with(&prefix))?;
            }
            Err(e) => prop_assert_eq!(prefix.last(), Some(&0), "{}", e),
        }
        let (lo, hi) = (bound(k1, a.as_slice()), bound(k2, b.as_slice()));
        check(&t, "tag range", Tag::scan().tag.range((lo, hi)).unwrap(), |r: &Tag| in_bounds(&r.tag.as_slice(), &lo, &hi))?;
    }
}
