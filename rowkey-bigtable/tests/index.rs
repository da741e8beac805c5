//! Index tables on the Bigtable emulator: a main table and an index table
//! (family `i`) written through `IndexedStore::put_indexed`, index rows
//! written alone (main row missing), and index queries joined back to the
//! main table in batched multi-key reads, compared with a brute-force
//! filter over the generated rows. Then an index write cut by the fault
//! proxy between the main row and the index row, and what a reader sees.

use futures::TryStreamExt;
use rowkey::scan::ScanPlan;
use rowkey::split::SplitKeys;
use rowkey::store::{Cell, IndexedStore, RetryPolicy, Row, Store, StoreExt};
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

/// The seed's buyer_trades on the emulator: 2,000 trades written as
/// records (seller table, family `d`; buyer index, family `i`) with
/// `put_record`; then 100 buyers changed with `update_record`, 20 with a
/// blind `put_record` (stale rows left) and 30 trades deleted with
/// `delete_record`. Every buyer's records found through the index must be
/// the brute-force filter of the current trades, in index order, with the
/// stale rows skipped and counted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn record_index_of_the_seed_buyer_trades() {
    use futures::StreamExt;
    use rowkey_fixtures::layouts::{BuyerTrade, SellerTrade, Trade};
    use std::collections::BTreeMap;

    let emu = Emulator::start();
    let main = table(&emu.host, "seller_trades", "d", &SellerTrade::split_keys()).await;
    let index = table(
        &emu.host,
        "buyer_trades",
        "i",
        &SplitKeys::decimal_string(8),
    )
    .await;
    let store = IndexedStore::new(main, index);
    let mut trades = Trade::rows(2_000);
    futures::stream::iter(&trades)
        .map(|t| store.put_record::<BuyerTrade, _>(t))
        .buffer_unordered(32)
        .try_collect::<()>()
        .await
        .unwrap();
    let buyers: Vec<u32> = trades.iter().map(|t| t.buyer_id).collect();

    // Moves, blind puts (each leaves one stale row) and deletes.
    for t in trades.iter_mut().step_by(20) {
        t.buyer_id = 5000 + (t.buyer_id + 7) % 300;
        store.update_record::<BuyerTrade, _>(t).await.unwrap();
    }
    let mut stale: BTreeMap<u32, u64> = BTreeMap::new();
    for t in trades.iter_mut().skip(5).step_by(100) {
        *stale.entry(t.buyer_id).or_default() += 1;
        t.buyer_id = 5000 + (t.buyer_id + 11) % 300;
        store.put_record::<BuyerTrade, _>(t).await.unwrap();
    }
    let mut deleted = Vec::new();
    for i in (7..trades.len())
        .step_by(67)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
    {
        let t = trades.remove(i);
        store.delete_record::<BuyerTrade, _>(&t).await.unwrap();
        deleted.push(t);
    }
    assert_eq!(deleted.len(), 30);
    for t in &deleted {
        assert!(store.main().get(&t.seller_key()).await.unwrap().is_none());
    }

    let mut checked = 0;
    let mut stale_seen = 0;
    let mut wanted: Vec<u32> = buyers.iter().step_by(37).copied().collect();
    wanted.extend(stale.keys());
    for buyer in wanted {
        for rev in [false, true] {
            let mut plan = BuyerTrade::scan().buyer_id.eq(buyer).plan().unwrap();
            if rev {
                plan = plan.reversed();
            }
            let mut found = store.query_records::<BuyerTrade, Trade, _>(&plan);
            let got: Vec<Trade> = (&mut found).try_collect().await.unwrap();
            let mut want: Vec<&Trade> = trades.iter().filter(|t| t.buyer_id == buyer).collect();
            want.sort_by_key(|t| BuyerTrade::index_key(*t).to_vec().unwrap());
            if rev {
                want.reverse();
            }
            assert!(
                got.iter().eq(want.iter().copied()),
                "buyer {buyer}: records differ"
            );
            let stats = found.stats();
            assert_eq!(stats.missing, 0, "{stats:?}");
            assert_eq!(
                stats.stale,
                stale.get(&buyer).copied().unwrap_or(0),
                "buyer {buyer}"
            );
            checked += got.len();
            stale_seen += stats.stale;
        }
    }
    assert!(checked > 100 && stale_seen > 0);
    eprintln!(
        "buyer_trades on the emulator: {checked} records joined, {stale_seen} stale hits skipped"
    );
}

/// `BigtableStore::delete_rows`: rows gone, absent keys no error, bad keys
/// refused before anything is sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bigtable_deletes_rows() {
    let emu = Emulator::start();
    let store = table(&emu.host, "t", "d", &SplitKeys::new([vec![b'b']])).await;
    let rows: Vec<Row> = [&b"a\x00"[..], b"b\xFF", b"c\n"]
        .into_iter()
        .map(|k| Row::new(k, vec![Cell::new("d", "v", "1")]))
        .collect();
    store.write_rows(rows).await.unwrap();
    store
        .delete_rows(vec![b"a\x00".to_vec(), b"c\n".to_vec(), b"zz".to_vec()])
        .await
        .unwrap();
    let left: Vec<Row> = store
        .read_rows(rowkey::store::ReadRequest::new([
            rowkey::store::KeyRange::new(vec![0u8], None),
        ]))
        .try_collect()
        .await
        .unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].key, b"b\xFF");
    let err = store.delete_rows(vec![vec![b'k'; 4097]]).await.unwrap_err();
    assert!(err
        .to_string()
        .starts_with("cannot delete rows: key of 4097 bytes"));
}

/// The blocking indexed store on Bigtable, called from a plain thread: the
/// clients are connected on the blocking runtime, which then drives every
/// call.
#[test]
fn blocking_indexed_store_on_the_emulator() {
    use rowkey::store::blocking::BlockOn;
    use rowkey_bigtable::blocking::{self, IndexedBigtableStore, Runtime};
    use rowkey_fixtures::layouts::{BuyerTrade, SellerTrade, Trade};

    let emu = Emulator::start();
    for (name, family) in [("seller_trades", "d"), ("buyer_trades", "i")] {
        let families = [family];
        let spec = TableSpec::new(name, &families);
        blocking::create_table(Some(&emu.host), "p", "i", &spec).unwrap();
    }
    let rt = Runtime::new().unwrap();
    let (main, index) = rt
        .block_on("connect", async {
            let main = BigtableStore::connect_emulator(&emu.host, "p", "i", "seller_trades").await;
            let index = BigtableStore::connect_emulator(&emu.host, "p", "i", "buyer_trades").await;
            (main.unwrap(), index.unwrap())
        })
        .unwrap();
    let store = IndexedBigtableStore::with_executor(IndexedStore::new(main, index), rt);
    let trades = Trade::rows(200);
    for t in &trades {
        store.put_record::<BuyerTrade, _>(t).unwrap();
    }
    let buyer = trades[0].buyer_id;
    let plan = BuyerTrade::scan().buyer_id.eq(buyer).plan().unwrap();
    let mut rows = store.query_records::<BuyerTrade, Trade, _>(&plan);
    let got = rows.by_ref().collect::<Result<Vec<_>, _>>().unwrap();
    let mut want: Vec<&Trade> = trades.iter().filter(|t| t.buyer_id == buyer).collect();
    want.sort_by_key(|t| BuyerTrade::index_key(*t).to_vec().unwrap());
    assert!(got.iter().eq(want.iter().copied()));
    assert_eq!(rows.stats().joined as usize, want.len());
    let joined: Vec<SellerTrade> = store
        .query_index(&plan)
        .map(|r| r.unwrap().key_as::<SellerTrade>().unwrap())
        .collect();
    assert_eq!(joined.len(), want.len());
}
