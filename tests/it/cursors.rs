//! Cursors handed back by a client: the reproductions (a resume
//! key longer than the plan's keys, a count near `u64::MAX`, a cursor of
//! another query), and properties over cursors cut, changed, forged or
//! taken from another plan: each is an `InvalidCursor` error, or (a token
//! forged with a valid checksum) pages that hold only rows of the plan,
//! each once, in order; never a panic. Through `scan::page` over a sorted
//! map and `StoreExt::page` over `MemStore`, forward and reversed.

use futures::executor::block_on;
use proptest::prelude::*;
use rowkey::scan::{page, Cursor, InvalidCursor, ScanPlan};
use rowkey::store::{MemStore, StoreError, StoreExt};
use rowkey::RowKey;
use rowkey_fixtures::brute::{read_range, Table};

/// The layout: a 2-digit bucket, so a resume key that fits `N`
/// bytes without it may not fit with it.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct St {
    #[salt(buckets = 12)]
    #[pad(width = 3)]
    user: String,
    #[max_len(4)]
    tag: String,
    #[desc]
    seq: u32,
}

const N: usize = St::MAX_LEN + 1;

fn user() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "ab", "zzz"]).prop_map(str::to_owned)
}

fn tag() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["", "x", "\0", "xy\0", "\u{ff}\u{ff}"]).prop_map(str::to_owned)
}

fn row() -> impl Strategy<Value = St> {
    (user(), tag(), 0u32..6).prop_map(|(user, tag, seq)| St { user, tag, seq })
}

/// Every page of `plan` through `scan::page`, the first from `resume`,
/// then each from the cursor before; the first error ends it.
fn scan_pages(
    table: &Table,
    plan: &ScanPlan<N>,
    mut resume: Option<Cursor>,
    size: usize,
) -> Result<(Vec<Vec<u8>>, Vec<Cursor>), InvalidCursor> {
    let (mut rows, mut cursors) = (Vec::new(), Vec::new());
    let read = |r, limit| read_range(table, &r, limit, plan.is_reversed());
    for _ in 0..=table.len() + 1 {
        let p = page(plan, resume.as_ref(), size, read)?;
        rows.extend(p.rows);
        match p.next {
            Some(next) => {
                cursors.push(next.clone());
                resume = Some(next.to_string().parse().unwrap());
            }
            None => return Ok((rows, cursors)),
        }
    }
    panic!("paging does not advance")
}

/// The same through `StoreExt::page`.
fn store_pages(
    store: &MemStore,
    plan: &ScanPlan<N>,
    mut resume: Option<Cursor>,
    size: usize,
) -> Result<Vec<Vec<u8>>, StoreError> {
    let mut rows = Vec::new();
    for _ in 0..=store.len() + 1 {
        let p = block_on(store.page(plan, resume.as_ref(), size))?;
        rows.extend(p.rows.into_iter().map(|r| r.key));
        match p.next {
            Some(next) => resume = Some(next),
            None => return Ok(rows),
        }
    }
    panic!("paging does not advance")
}

/// Rows of the plan in its order (logical key, reversed if it is), with
/// no limit: what any page may hold.
fn plan_rows(table: &Table, plan: &ScanPlan<N>) -> Vec<Vec<u8>> {
    rowkey_fixtures::brute::merged_keys(
        table,
        |k| plan.contains(k),
        |_| (),
        plan.prefix_len(),
        plan.is_reversed(),
        None,
    )
}

/// `rows` hold only rows of the plan, each once, in the plan's order, and
/// after `after` (in that order) when a cursor gave one.
fn well_formed(
    table: &Table,
    plan: &ScanPlan<N>,
    rows: &[Vec<u8>],
    after: Option<&[u8]>,
) -> Result<(), TestCaseError> {
    let order = plan_rows(table, plan);
    let position = |k: &[u8]| order.iter().position(|o| o == k);
    let mut last = after.map(|a| {
        // A forged key between two rows: the position of the rows before it.
        let skip = plan.prefix_len();
        let before = order.iter().filter(|o| {
            let (o, a) = (&o[skip..], a.get(skip..).unwrap_or_default());
            if plan.is_reversed() {
                o > a
            } else {
                o < a
            }
        });
        before.count() as isize + isize::from(position(a).is_some()) - 1
    });
    for k in rows {
        let Some(at) = position(k) else {
            return Err(TestCaseError::fail(format!("row {k:?} is not in the plan")));
        };
        let at = at as isize;
        prop_assert!(
            last.is_none_or(|l| at > l),
            "row {:?} repeated or out of order",
            k
        );
        last = Some(at);
    }
    if let Some(limit) = plan.limit() {
        prop_assert!(rows.len() <= limit);
    }
    Ok(())
}

/// The plans the properties page through: every row, one user, a tag
/// range, a fuzzy key, limits; each forward and reversed.
fn plans() -> Vec<ScanPlan<N>> {
    let all = St::scan().plan().unwrap();
    let one = St::scan().user.eq("ab").plan().unwrap();
    let tags = St::scan().user.eq("a").tag.range("x"..).unwrap();
    let fuzzy = St::scan().user.any().tag.eq("x").plan().unwrap();
    let mut out = Vec::new();
    for p in [all.clone(), one, tags, fuzzy, all.with_limit(5)] {
        out.push(p.clone().reversed());
        out.push(p);
    }
    out
}

/// How a client changes a cursor it was given.
#[derive(Debug, Clone)]
enum Tamper {
    Truncate(usize),
    FlipByte(usize, u8),
    ReplaceChar(usize, char),
    Append(Vec<u8>),
    OtherPlan(usize),
    Count(u64),
    Key(Vec<u8>),
}

fn tamper() -> impl Strategy<Value = Tamper> {
    let counts = prop_oneof![
        Just(0u64),
        Just(1),
        Just(4),
        Just(5),
        Just(6),
        Just(u64::MAX),
        Just(u64::MAX - 1),
        any::<u64>()
    ];
    prop_oneof![
        any::<usize>().prop_map(Tamper::Truncate),
        (any::<usize>(), 1u8..).prop_map(|(i, x)| Tamper::FlipByte(i, x)),
        (any::<usize>(), prop::char::any()).prop_map(|(i, c)| Tamper::ReplaceChar(i, c)),
        prop::collection::vec(any::<u8>(), 1..4).prop_map(Tamper::Append),
        any::<usize>().prop_map(Tamper::OtherPlan),
        counts.prop_map(Tamper::Count),
        prop::collection::vec(
            prop_oneof![Just(0u8), Just(b'0'), Just(b'a'), Just(0xFF), any::<u8>()],
            0..N + 3
        )
        .prop_map(Tamper::Key),
    ]
}

/// The cursor a client sends back after changing `genuine`: `Err` where
/// the token itself no longer parses.
fn tampered(genuine: &Cursor, plan: &ScanPlan<N>, t: &Tamper) -> Result<Cursor, InvalidCursor> {
    let bytes = genuine.to_bytes();
    match t {
        Tamper::Truncate(n) => Cursor::from_bytes(&bytes[..n % bytes.len()]),
        Tamper::FlipByte(i, x) => {
            let mut b = bytes.clone();
            b[i % bytes.len()] ^= x;
            Cursor::from_bytes(&b)
        }
        Tamper::ReplaceChar(i, c) => {
            let mut s: Vec<char> = genuine.to_string().chars().collect();
            let i = i % s.len();
            s[i] = *c;
            s.into_iter().collect::<String>().parse()
        }
        Tamper::Append(extra) => Cursor::from_bytes(&[bytes.as_slice(), extra].concat()),
        Tamper::OtherPlan(i) => {
            let others: Vec<ScanPlan<N>> = plans().into_iter().filter(|p| p != plan).collect();
            Ok(Cursor::new(
                &others[i % others.len()],
                genuine.after().to_vec(),
                genuine.delivered(),
            ))
        }
        Tamper::Count(n) => Ok(Cursor::new(plan, genuine.after().to_vec(), *n)),
        Tamper::Key(k) => Ok(Cursor::new(plan, k.clone(), genuine.delivered())),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_changed_cursor_is_refused_or_pages_only_the_plan(
        rows in prop::collection::vec(row(), 1..40),
        which in any::<usize>(),
        size in 1usize..5,
        t in tamper(),
    ) {
        let table: Table = rows.iter().map(|r| r.to_vec().unwrap()).collect();
        let store = block_on(rowkey_fixtures::stores::mem_store_with_keys(table.iter()));
        let all = plans();
        let plan = &all[which % all.len()];
        // The genuine pages, and a cursor of theirs to change.
        let (genuine, cursors) = scan_pages(&table, plan, None, size).unwrap();
        let mut want = plan_rows(&table, plan);
        want.truncate(plan.limit().unwrap_or(usize::MAX));
        prop_assert_eq!(&genuine, &want);
        prop_assert_eq!(&store_pages(&store, plan, None, size).unwrap(), &genuine);
        let Some(cursor) = cursors.get(which % cursors.len().max(1)) else {
            return Ok(());
        };
        let sent = tampered(cursor, plan, &t);
        match (&t, &sent) {
            (Tamper::Truncate(_) | Tamper::FlipByte(..) | Tamper::Append(_), sent) => {
                prop_assert!(sent.is_err(), "{:?} parsed", t);
            }
            (Tamper::ReplaceChar(..), Ok(parsed)) => {
                // Only a character that reads as the same bytes (the one
                // there, or the last with other unused low bits).
                prop_assert_eq!(parsed, cursor);
            }
            _ => {}
        }
        let Ok(sent) = sent else { return Ok(()) };
        let by_scan = scan_pages(&table, plan, Some(sent.clone()), size);
        let by_store = store_pages(&store, plan, Some(sent.clone()), size);
        match by_scan {
            Ok((rows, _)) => {
                well_formed(&table, plan, &rows, Some(sent.after()))?;
                prop_assert_eq!(by_store.unwrap(), rows);
                if let Tamper::OtherPlan(_) = t {
                    return Err(TestCaseError::fail("another plan's cursor was taken"));
                }
            }
            Err(e) => {
                match by_store {
                    Err(StoreError::InvalidCursor(s)) => prop_assert_eq!(&s, &e),
                    other => return Err(TestCaseError::fail(format!("store: {other:?}, scan: {e}"))),
                }
                match (&t, &e) {
                    (Tamper::OtherPlan(_), InvalidCursor::OtherPlan { .. }) => {}
                    (Tamper::Count(_), InvalidCursor::ImpossibleCount { .. }) => {}
                    (Tamper::Key(k), InvalidCursor::KeyTooLong { .. }) => prop_assert!(k.len() >= N),
                    (Tamper::Key(k), InvalidCursor::KeyOutsidePlan { .. }) => {
                        prop_assert!(!plan.contains(k))
                    }
                    (Tamper::ReplaceChar(..), _) => {}
                    _ => return Err(TestCaseError::fail(format!("{t:?} refused as {e}"))),
                }
            }
        }
    }
}

/// Defect 4: a resume key longer than the plan's keys once its bucket
/// prefix is counted. It dropped the bound: forward, rows before the
/// cursor came back; reversed, nothing did. Now the pager refuses it, and
/// `ScanPlan::after` bounds every bucket by its first bytes.
#[test]
fn a_resume_key_longer_than_the_plan_keys_is_refused() {
    let rows: Vec<St> = (0..6)
        .flat_map(|seq| {
            ["a", "b"].map(|u| St {
                user: u.into(),
                tag: "x".into(),
                seq,
            })
        })
        .collect();
    let table: Table = rows.iter().map(|r| r.to_vec().unwrap()).collect();
    let store = block_on(rowkey_fixtures::stores::mem_store_with_keys(table.iter()));
    let mut long = St {
        user: "b".into(),
        tag: "\0\0\0\0".into(),
        seq: 0,
    }
    .to_vec()
    .unwrap();
    assert_eq!(long.len(), N - 1, "the longest key");
    long.push(b'!');
    for plan in [
        St::scan().plan().unwrap(),
        St::scan().plan().unwrap().reversed(),
    ] {
        let c = Cursor::new(&plan, long.clone(), 1);
        let want = InvalidCursor::KeyTooLong { len: N, max: N - 1 };
        let read = |r, limit| read_range(&table, &r, limit, plan.is_reversed());
        assert_eq!(page(&plan, Some(&c), 3, read).unwrap_err(), want);
        let e = block_on(store.page(&plan, Some(&c), 3)).unwrap_err();
        assert!(
            matches!(e, StoreError::InvalidCursor(ref e) if *e == want),
            "{e}"
        );
        // `after` keeps exactly the rows past it in the plan's order.
        let skip = plan.prefix_len();
        let got = plan_rows(&table, &plan.after(&long));
        let mut want: Vec<Vec<u8>> = plan_rows(&table, &plan)
            .into_iter()
            .filter(|k| {
                if plan.is_reversed() {
                    k[skip..] < long[skip..]
                } else {
                    k[skip..] > long[skip..]
                }
            })
            .collect();
        assert!(!want.is_empty());
        want.retain(|k| got.contains(k));
        assert_eq!(got, want);
    }
}

/// Defect 5: a count near `u64::MAX` panicked (debug) or wrapped
/// (release) in `delivered + rows.len()`. Now it is refused.
#[test]
fn a_count_that_would_overflow_is_refused() {
    let table: Table = (0..4)
        .map(|seq| {
            St {
                user: "a".into(),
                tag: String::new(),
                seq,
            }
            .to_vec()
            .unwrap()
        })
        .collect();
    let store = block_on(rowkey_fixtures::stores::mem_store_with_keys(table.iter()));
    let plan = St::scan().user.eq("a").plan().unwrap();
    let first = table.iter().next().unwrap().clone();
    for count in [u64::MAX, u64::MAX - 1] {
        let c = Cursor::new(&plan, first.clone(), count);
        let read = |r, limit| read_range(&table, &r, limit, false);
        let e = page(&plan, Some(&c), 2, read).unwrap_err();
        assert_eq!(
            e,
            InvalidCursor::ImpossibleCount {
                delivered: count,
                limit: None
            }
        );
        let e = block_on(store.page(&plan, Some(&c), 2)).unwrap_err();
        assert!(matches!(
            e,
            StoreError::InvalidCursor(InvalidCursor::ImpossibleCount { .. })
        ));
    }
    // A count with room for the page is taken (the plan has no limit).
    let c = Cursor::new(&plan, first, u64::MAX - 2);
    let p = block_on(store.page(&plan, Some(&c), 2)).unwrap();
    assert_eq!(p.next.unwrap().delivered(), u64::MAX);
}
