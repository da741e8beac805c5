//! Index tables (`#[rowkey(index_of = ..)]`, `IndexedStore`) against brute
//! force on `MemStore`: random main rows, some index rows written alone
//! (their main row missing), random index queries (ranges, reversed,
//! limits, join batches of 1 to 5 keys, reads that are not ready at once);
//! the joined rows must be the brute-force filter over the main rows, in
//! index order, and the skipped hits counted. Then a write that fails
//! between the main row and the index row, and what a reader sees.

use futures::executor::block_on;
use futures::TryStreamExt;
use proptest::prelude::*;
use rowkey::store::{Cell, IndexedStore, MemStore, Row, Store, StoreError, StoreExt};
use rowkey::{IndexOf, RowKey};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rowkey_fixtures::layouts::{Reading, ReadingByMetric};
use rowkey_fixtures::stores::FaultyStore;

/// Escaped byte fields: 0x00 and 0xFF tails in both keys.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Page {
    #[max_len(8)]
    site: Vec<u8>,
    #[max_len(8)]
    path: Vec<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(index_of = Page)]
struct PageByPath {
    #[max_len(8)]
    path: Vec<u8>,
    #[max_len(8)]
    site: Vec<u8>,
}

/// A store whose reads arrive slowly and whose writes fail while the flag
/// is set.
fn flaky() -> (FaultyStore, Arc<AtomicBool>) {
    let flag = Arc::new(AtomicBool::new(false));
    (FaultyStore::failing_while(flag.clone()), flag)
}

/// An index row written alone: its main row does not exist.
async fn orphan<X: RowKey>(index: &impl Store, key: &X, main_key: Vec<u8>) {
    let row = Row::new(key.to_vec().unwrap(), vec![Cell::new("i", "k", main_key)]);
    index.write_rows(vec![row]).await.unwrap();
}

/// Writes `mains` (indexed) and `orphans` (index rows only) and checks one
/// query: `keep` selects index keys, `rev` reads backwards, `limit` caps
/// the index hits.
#[allow(clippy::too_many_arguments)]
async fn check<M, X, const N: usize>(
    mains: &[M],
    orphans: &[M],
    plan: rowkey::scan::ScanPlan<N>,
    keep: impl Fn(&X) -> bool,
    batch: usize,
) -> Result<(), TestCaseError>
where
    M: RowKey,
    X: IndexOf<M>,
{
    let store = IndexedStore::new(flaky().0, flaky().0).join_batch(batch);
    for m in mains {
        let cells = vec![Cell::new("d", "v", m.to_vec().unwrap())];
        store.put_indexed::<X, M>(m, cells).await.unwrap();
    }
    let main_keys: Vec<Vec<u8>> = mains.iter().map(|m| m.to_vec().unwrap()).collect();
    let mut orphan_keys = Vec::new();
    for o in orphans {
        let key = o.to_vec().unwrap();
        if !main_keys.contains(&key) {
            orphan(store.index(), &X::index_key(o), key.clone()).await;
            orphan_keys.push(key);
        }
    }
    // Brute force: every index entry the query keeps, in index key order,
    // cut at the limit; then the ones whose main row exists.
    let mut hits: Vec<(Vec<u8>, Vec<u8>)> = mains
        .iter()
        .chain(orphans)
        .map(|m| (X::index_key(m), m.to_vec().unwrap()))
        .filter(|(x, _)| keep(x))
        .map(|(x, m)| (x.to_vec().unwrap(), m))
        .collect();
    hits.sort();
    hits.dedup();
    if plan.is_reversed() {
        hits.reverse();
    }
    hits.truncate(plan.limit().unwrap_or(usize::MAX));
    let want: Vec<Vec<u8>> = hits
        .iter()
        .filter(|(_, m)| main_keys.contains(m))
        .map(|(_, m)| m.clone())
        .collect();
    let missing = hits.len() - want.len();

    let mut join = store.query_index(&plan);
    let rows: Vec<Row> = (&mut join).try_collect().await.unwrap();
    let got: Vec<Vec<u8>> = rows.iter().map(|r| r.key.clone()).collect();
    prop_assert_eq!(&got, &want);
    for r in &rows {
        prop_assert_eq!(r.value("d", "v"), Some(&r.key[..]), "the main row's cells");
    }
    let stats = join.stats();
    prop_assert_eq!(stats.hits as usize, hits.len());
    prop_assert_eq!(stats.joined as usize, want.len());
    prop_assert_eq!(stats.missing as usize, missing);
    prop_assert!(stats.reads as usize >= hits.len().div_ceil(batch));
    Ok(())
}

fn reading() -> impl Strategy<Value = Reading> {
    (0u32..6, 0u16..3, 0i64..8).prop_map(|(device, metric, at_ms)| Reading {
        device,
        metric,
        at_ms,
    })
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![Just(0u8), Just(0xFF), Just(b'\n'), Just(b'.'), Just(b'*')],
        0..4,
    )
}

fn page() -> impl Strategy<Value = Page> {
    (bytes(), bytes()).prop_map(|(site, path)| Page { site, path })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn metric_index_joins_as_brute_force(
        mains in proptest::collection::vec(reading(), 0..40),
        orphans in proptest::collection::vec(reading(), 0..6),
        metric in 0u16..3,
        window in (0i64..9, 0i64..9),
        ranged: bool,
        rev: bool,
        limit in proptest::option::of(0usize..12),
        batch in 1usize..6,
    ) {
        let (lo, hi) = window;
        let step = ReadingByMetric::scan().metric.eq(metric);
        let mut plan = if ranged {
            step.at_ms.between(lo, hi).unwrap()
        } else {
            step.plan().unwrap()
        };
        if rev {
            plan = plan.reversed();
        }
        if let Some(l) = limit {
            plan = plan.with_limit(l);
        }
        let keep = move |x: &ReadingByMetric| {
            x.metric == metric && (!ranged || (lo..hi).contains(&x.at_ms))
        };
        block_on(check::<Reading, ReadingByMetric, _>(&mains, &orphans, plan, keep, batch))?;
    }

    #[test]
    fn escaped_bytes_index_joins_as_brute_force(
        mains in proptest::collection::vec(page(), 0..30),
        orphans in proptest::collection::vec(page(), 0..6),
        prefix in bytes(),
        exact: bool,
        rev: bool,
        batch in 1usize..6,
    ) {
        let scan = PageByPath::scan();
        let mut plan = if exact {
            scan.path.eq(&prefix[..]).plan().unwrap()
        } else {
            scan.path.starts_with(&prefix[..]).unwrap()
        };
        if rev {
            plan = plan.reversed();
        }
        let keep = move |x: &PageByPath| {
            if exact { x.path == prefix } else { x.path.starts_with(&prefix) }
        };
        block_on(check::<Page, PageByPath, _>(&mains, &orphans, plan, keep, batch))?;
    }
}

/// The index write fails after the main row was written: the main row is
/// read by its key but not found through the index, and no hit points at
/// nothing. Putting it again heals the index.
#[test]
fn a_failed_index_write_leaves_the_main_row_unindexed_until_put_again() {
    block_on(async {
        let (index, fail_writes) = flaky();
        let store = IndexedStore::new(MemStore::new(), index);
        let r = Reading {
            device: 4,
            metric: 2,
            at_ms: 7,
        };
        let cells = || vec![Cell::new("d", "v", "21.5")];
        let by_metric = ReadingByMetric::scan().metric.eq(2).plan().unwrap();

        fail_writes.store(true, Ordering::SeqCst);
        let err = store
            .put_indexed::<ReadingByMetric, _>(&r, cells())
            .await
            .unwrap_err();
        assert!(err.is_transient(), "{err}");
        assert!(
            store.main().get(&r).await.unwrap().is_some(),
            "main row written"
        );
        let mut join = store.query_index(&by_metric);
        let found: Vec<Row> = (&mut join).try_collect().await.unwrap();
        assert!(found.is_empty(), "not found through the index");
        assert_eq!(join.stats().hits, 0, "no index row at all");

        fail_writes.store(false, Ordering::SeqCst);
        store
            .put_indexed::<ReadingByMetric, _>(&r, cells())
            .await
            .unwrap();
        let found: Vec<Row> = store.query_index(&by_metric).try_collect().await.unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].key_as::<Reading>().unwrap(), r);
        assert_eq!(found[0].value("d", "v"), Some(&b"21.5"[..]));
    });
}

/// The main write fails: nothing is written, the index included.
#[test]
fn a_failed_main_write_writes_no_index_row() {
    block_on(async {
        let (main, fail_writes) = flaky();
        let store = IndexedStore::new(main, MemStore::new());
        fail_writes.store(true, Ordering::SeqCst);
        let r = Reading {
            device: 1,
            metric: 0,
            at_ms: 0,
        };
        let cells = vec![Cell::new("d", "v", "x")];
        assert!(store
            .put_indexed::<ReadingByMetric, _>(&r, cells)
            .await
            .is_err());
        assert!(store.index().is_empty() && store.main().inner.is_empty());
    });
}

/// A row of the index table without the `i:k` cell is an error naming it.
#[test]
fn an_index_row_without_its_main_key_is_an_error() {
    block_on(async {
        let store = IndexedStore::new(MemStore::new(), MemStore::new());
        let x = ReadingByMetric {
            metric: 1,
            at_ms: 5,
            device: 3,
        };
        store
            .index()
            .put(&x, vec![Cell::new("d", "v", "x")])
            .await
            .unwrap();
        let plan = ReadingByMetric::scan().metric.eq(1).plan().unwrap();
        let err = store
            .query_index(&plan)
            .try_collect::<Vec<_>>()
            .await
            .unwrap_err();
        assert!(matches!(&err, StoreError::NotAnIndexRow { key } if *key == x.to_vec().unwrap()));
        assert_eq!(
            err.to_string(),
            format!(
                "cannot join an index hit: index row {} has no cell i:k holding its main row's key",
                x.to_key().unwrap()
            )
        );
    });
}
