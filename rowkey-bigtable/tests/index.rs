//! Index tables on the Bigtable emulator: a main table and an index table
//! (family `i`) written through `IndexedStore::put_indexed`, index rows
//! written alone (main row missing), and index queries joined back to the
//! main table in batched multi-key reads, compared with a brute-force
//! filter over the generated rows. Then an index write cut by the fault
//! proxy between the main row and the index row, and what a reader sees.

use futures::TryStreamExt;
use rowkey::scan::ScanPlan;
use rowkey::split::SplitKeys;
use rowkey::store::{Cell, IndexedStore, RetryPolicy, Row, Store};
use rowkey::{IndexOf, RowKey};
use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::proxy::{Fault, FaultProxy};

use rowkey_fixtures::layouts::{Reading, ReadingByMetric};

const ROWS: u64 = 2_000;

async fn table(host: &str, name: &str, family: &str, splits: &SplitKeys) -> BigtableStore {
    BigtableAdmin::connect_emulator(host, "p", "i")
        .unwrap()
        .create_table(&TableSpec::new(name, &[family]).splits(splits))
        .await
        .unwrap();
    BigtableStore::connect_emulator(host, "p", "i", name)
        .await
        .unwrap()
}

/// Generated readings: `n` distinct keys, 40 devices, 5 metrics.
fn readings(n: u64, seed: u64) -> Vec<Reading> {
    let mut x = seed;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..n)
        .map(|i| Reading {
            device: (next() % 40) as u32,
            metric: (next() % 5) as u16,
            at_ms: (i * 1_000 + next() % 1_000) as i64,
        })
        .collect()
}

/// The main keys `plan` must join to: index entries kept by `keep`, in
/// index order, cut at the limit, without the orphans; and how many
/// orphans the cut kept.
fn brute_force<const N: usize>(
    mains: &[Reading],
    orphans: &[Reading],
    plan: &ScanPlan<N>,
    keep: impl Fn(&ReadingByMetric) -> bool,
) -> (Vec<Vec<u8>>, usize) {
    let mut hits: Vec<(Vec<u8>, Vec<u8>, bool)> = mains
        .iter()
        .map(|m| (m, true))
        .chain(orphans.iter().map(|o| (o, false)))
        .map(|(m, real)| (ReadingByMetric::index_key(m), m.to_vec().unwrap(), real))
        .filter(|(x, _, _)| keep(x))
        .map(|(x, m, real)| (x.to_vec().unwrap(), m, real))
        .collect();
    hits.sort();
    if plan.is_reversed() {
        hits.reverse();
    }
    hits.truncate(plan.limit().unwrap_or(usize::MAX));
    let missing = hits.iter().filter(|h| !h.2).count();
    (
        hits.into_iter().filter(|h| h.2).map(|h| h.1).collect(),
        missing,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn index_queries_join_back_to_the_main_table() {
    let emu = Emulator::start();
    let main = table(&emu.host, "readings", "d", &Reading::split_keys()).await;
    let index = table(
        &emu.host,
        "readings_by_metric",
        "i",
        &SplitKeys::new([vec![0, 2], vec![0, 4]]),
    )
    .await;
    let store = IndexedStore::new(main, index);
    let mains = readings(ROWS, 7);
    for m in &mains {
        let cells = vec![Cell::new("d", "v", m.at_ms.to_string())];
        store
            .put_indexed::<ReadingByMetric, _>(m, cells)
            .await
            .unwrap();
    }
    // Index rows whose main rows were never written (distinct keys: other
    // timestamps).
    let orphans: Vec<Reading> = readings(50, 99)
        .into_iter()
        .map(|mut r| {
            r.at_ms = -(r.at_ms + 1).rem_euclid(1_000_000) + 10_000_000;
            r
        })
        .collect();
    let orphan_rows: Vec<Row> = orphans
        .iter()
        .map(|o| {
            let key = ReadingByMetric::index_key(o).to_vec().unwrap();
            Row::new(key, vec![Cell::new("i", "k", o.to_vec().unwrap())])
        })
        .collect();
    store.index().write_rows(orphan_rows).await.unwrap();

    let mut checked = 0;
    for metric in 0..5u16 {
        let (lo, hi) = (300_000i64, 1_200_000i64);
        let all = ReadingByMetric::scan().metric.eq(metric).plan().unwrap();
        let window = ReadingByMetric::scan()
            .metric
            .eq(metric)
            .at_ms
            .between(lo, hi)
            .unwrap();
        let cases = [
            (all.clone(), false),
            (all.clone().reversed(), false),
            (all.clone().with_limit(37), false),
            (window.clone(), true),
            (window.reversed().with_limit(11), true),
        ];
        for (plan, windowed) in cases {
            let keep = |x: &ReadingByMetric| {
                x.metric == metric && (!windowed || (lo..hi).contains(&x.at_ms))
            };
            let (want, missing) = brute_force(&mains, &orphans, &plan, keep);
            let mut join = store.query_index(&plan);
            let rows: Vec<Row> = (&mut join).try_collect().await.unwrap();
            let got: Vec<Vec<u8>> = rows.iter().map(|r| r.key.clone()).collect();
            assert!(!want.is_empty());
            assert!(got == want, "metric {metric}: joined rows differ");
            for r in &rows {
                let at = r.key_as::<Reading>().unwrap().at_ms.to_string();
                assert_eq!(
                    r.value("d", "v"),
                    Some(at.as_bytes()),
                    "the main row's cells"
                );
            }
            let stats = join.stats();
            assert_eq!(stats.joined as usize, want.len());
            assert_eq!(stats.missing as usize, missing);
            assert_eq!(stats.hits, stats.joined + stats.missing);
            // Batches of up to 100 keys: a batch also goes out when the
            // index read has no hit ready (between its pages).
            let batches = stats.hits.div_ceil(100);
            assert!(
                (batches..=2 * batches + 1).contains(&stats.reads),
                "{stats:?}: batched point reads"
            );
            checked += got.len();
        }
    }
    let missing_total: usize = (0..5u16)
        .map(|m| {
            let plan = ReadingByMetric::scan().metric.eq(m).plan().unwrap();
            brute_force(&mains, &orphans, &plan, |x| x.metric == m).1
        })
        .sum();
    assert_eq!(missing_total, orphans.len(), "every orphan is counted once");
    eprintln!(
        "index: {ROWS} main rows, {} orphan index rows, {checked} rows joined and checked",
        orphans.len()
    );
}

/// The index write fails after the main row was written. Cut by the
/// proxy after the request went out, it may or may not have landed (the
/// emulator applies a write whose response is lost): either way every
/// index hit finds its main row. With the index table unreachable, it
/// did not land: the main row reads by its key, the index does not find
/// it; a re-put through a sound connection heals it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_index_write_failing_after_the_main_row() {
    let emu = Emulator::start();
    let main = table(&emu.host, "readings", "d", &SplitKeys::new([])).await;
    let index = table(&emu.host, "readings_by_metric", "i", &SplitKeys::new([])).await;
    let proxy = FaultProxy::start(&emu.host);
    let cut_index = BigtableStore::connect_emulator(&proxy.addr, "p", "i", "readings_by_metric")
        .await
        .unwrap()
        .with_retry(RetryPolicy::never());
    let broken = IndexedStore::new(main.clone(), cut_index);
    let sound = IndexedStore::new(main, index);
    let cells = || vec![Cell::new("d", "v", "21.5")];
    let by_metric = |metric: u16| ReadingByMetric::scan().metric.eq(metric).plan().unwrap();

    // 1. The connection is cut under the index write.
    let cut = Reading {
        device: 4,
        metric: 2,
        at_ms: 7,
    };
    proxy.plan([Fault::CutAfter(0); 16]);
    proxy.cut_all();
    let err = broken
        .put_indexed::<ReadingByMetric, _>(&cut, cells())
        .await
        .unwrap_err();
    assert!(proxy.cuts() > 0);
    assert!(
        sound.main().get(&cut).await.unwrap().is_some(),
        "main row written"
    );
    let mut join = sound.query_index(&by_metric(2));
    let found: Vec<Row> = (&mut join).try_collect().await.unwrap();
    assert!(
        found.len() <= 1 && join.stats().missing == 0,
        "{:?}",
        join.stats()
    );
    eprintln!(
        "index write cut ({err}): the index row {}",
        if found.is_empty() {
            "did not land"
        } else {
            "landed anyway"
        }
    );

    // 2. The index table is unreachable: the index write cannot land.
    drop(proxy);
    let lost = Reading {
        device: 5,
        metric: 3,
        at_ms: 8,
    };
    let err = broken
        .put_indexed::<ReadingByMetric, _>(&lost, cells())
        .await
        .unwrap_err();
    eprintln!("index table unreachable: {err}");
    assert!(
        sound.main().get(&lost).await.unwrap().is_some(),
        "main row written"
    );
    let mut join = sound.query_index(&by_metric(3));
    let found: Vec<Row> = (&mut join).try_collect().await.unwrap();
    assert!(found.is_empty(), "not found through the index");
    assert_eq!(join.stats().hits, 0, "no index row points at anything");

    // A re-put heals both.
    for r in [&cut, &lost] {
        sound
            .put_indexed::<ReadingByMetric, _>(r, cells())
            .await
            .unwrap();
        let found: Vec<Row> = sound
            .query_index(&by_metric(r.metric))
            .try_collect()
            .await
            .unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].key_as::<Reading>().unwrap(), *r);
        assert_eq!(found[0].value("d", "v"), Some(&b"21.5"[..]));
    }
}
