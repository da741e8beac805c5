//! Faults under an index write, a bulk load and a filtered read: the
//! proxy cuts the connection after the index write went out (it may or
//! may not have landed: either way no index hit points at nothing), under
//! a bulk load's writes (retried, every record lands; not retried, the
//! load fails with no index hit pointing at nothing and every committed
//! record found) or mid-stream of a fuzzy read (every matching row still
//! comes back once, in order).
//! What a failed index write leaves behind on any store is in the
//! conformance suite.

use futures::TryStreamExt;
use rowkey::scan::FuzzyKey;
use rowkey::store::{
    Cell, IndexedStore, PutRecordsOptions, PutRecordsProgress, RetryPolicy, Row, Store, StoreError,
    StoreExt,
};
use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::conformance::bulk::{check_write_order, found_through_the_index, Tables};
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::layouts::{BuyerTrade, Ledger, Reading, ReadingByMetric, Trade};
use rowkey_fixtures::proxy::{Fault, FaultProxy};
use rowkey_fixtures::stores::RowBudgetHandle;
use std::collections::BTreeSet;
use std::time::Duration;

/// The index write fails after the main row was written. Cut by the
/// proxy after the request went out, it may or may not have landed (the
/// emulator applies a write whose response is lost): either way every
/// index hit finds its main row. With the index table unreachable, it
/// did not land: the main row reads by its key, the index does not find
/// it; a re-put through a sound connection heals it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_index_write_failing_after_the_main_row() {
    let emu = Emulator::start();
    let main = table(&emu.host, "readings", "d").await;
    let index = table(&emu.host, "readings_by_metric", "i").await;
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

/// A bulk load of 5,000 trades whose connections (both tables through
/// one proxy) are cut under its writes. Retried, every trade lands and
/// the tables are what `put_record` in turn leaves. Not retried, the load
/// fails: every index row that landed through a write that reported
/// success points at a main row whose write succeeded, no index hit leads
/// nowhere (a write cut after it went out may have landed anyway), every
/// committed trade is found through the index; the load run again
/// through a sound connection heals it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bulk_load_through_cut_connections() {
    let emu = Emulator::start();
    let trades = Trade::rows(5_000);
    let options = PutRecordsOptions::default().batch_records(250).in_flight(4);
    // Writes' replies are small: a cut after a few KiB lands mid-load.
    const CUTS: [Fault; 4] = [
        Fault::CutAfter(3_000),
        Fault::CutAfter(6_000),
        Fault::CutAfter(9_000),
        Fault::CutAfter(12_000),
    ];
    for (round, retry) in [
        RetryPolicy::default()
            .backoff_between(Duration::from_millis(10), Duration::from_millis(100)),
        RetryPolicy::never(),
    ]
    .into_iter()
    .enumerate()
    {
        let (main, index) = (format!("trades{round}"), format!("by_buyer{round}"));
        let sound = IndexedStore::new(
            table(&emu.host, &main, "d").await,
            table(&emu.host, &index, "i").await,
        );
        let proxy = FaultProxy::start(&emu.host);
        proxy.plan(CUTS);
        let through = |name: String| {
            let addr = proxy.addr.clone();
            async move {
                BigtableStore::connect_emulator(&addr, "p", "i", &name)
                    .await
                    .unwrap()
                    .with_retry(retry)
            }
        };
        let log = RowBudgetHandle::new(i64::MAX, 1);
        let cut = IndexedStore::new(
            log.wrap(through(main).await, "main"),
            log.wrap(through(index).await, "index"),
        );
        let mut last = PutRecordsProgress::default();
        let result = cut
            .put_records_with::<BuyerTrade, _>(trades.iter().cloned(), options, |p| last = p)
            .await;
        eprintln!(
            "bulk load, {}: {} connections, {} cut: {:?}",
            if round == 0 { "retried" } else { "not retried" },
            proxy.connections(),
            proxy.cuts(),
            result.as_ref().map(|p| p.records)
        );
        assert!(proxy.cuts() > 0, "a connection was cut under the load");
        let what = format!("round {round}");
        let committed = check_write_order(&log.log(), &what);
        assert_eq!(last.records, committed.len() as u64, "{what}");
        found_through_the_index(&sound, &trades, &committed, &what).await;
        if round == 0 {
            assert_eq!(result.expect("retried").records, 5_000);
            assert!(Tables::read(&sound).await == Tables::of(&trades));
            continue;
        }
        let err = result.expect_err("not retried, a cut fails the load");
        assert!(err.is_transient(), "{err}");
        assert!(committed.len() < trades.len());
        sound
            .put_records::<BuyerTrade, _>(trades.iter().cloned())
            .await
            .unwrap();
        assert!(Tables::read(&sound).await == Tables::of(&trades), "healed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_filtered_read_cut_mid_stream_returns_every_matching_row_once() {
    let emu = Emulator::start();
    let direct = table(&emu.host, "ledger", "d").await;
    let rows = Ledger::distinct_rows(10_000);
    let all: BTreeSet<Vec<u8>> = rows.iter().map(|r| r.key.clone()).collect();
    direct.write_rows(rows).await.unwrap();
    // Days 10 to 19 of any month, any user: bucket, month and user free,
    // then `-1` of `-dd hh:mm:ss`.
    let plan = Ledger::scan().plan().unwrap();
    let mut fuzzy = FuzzyKey::new();
    fuzzy.push_free(plan.prefix_len() + 7 + 10).unwrap();
    fuzzy.push_fixed(b"-1").unwrap();
    let plan = plan.with_fuzzy(fuzzy);
    let want = rowkey_fixtures::brute::fuzzy_plan_keys(&all, &plan);
    assert!(want.len() > 2_500, "{} rows", want.len());
    let retry = RetryPolicy::default()
        .attempts(6)
        .backoff_between(Duration::from_millis(10), Duration::from_millis(200))
        .idle_timeout(Duration::from_secs(5));
    const CUTS: [Fault; 3] = [
        Fault::CutAfter(20_000),
        Fault::CutAfter(45_000),
        Fault::CutAfter(70_000),
    ];
    let through = |proxy: &FaultProxy| {
        let addr = proxy.addr.clone();
        async move {
            BigtableStore::connect_emulator(&addr, "p", "i", "ledger")
                .await
                .unwrap()
                .with_retry(retry)
        }
    };
    // The merged query over 120 buckets, then one multi-range read.
    let proxy = FaultProxy::start(&emu.host);
    proxy.plan(CUTS);
    let got = keys_of(through(&proxy).await.query(&plan)).await;
    eprintln!(
        "query: {} connections, {} cut, {} of {} rows",
        proxy.connections(),
        proxy.cuts(),
        got.len(),
        want.len()
    );
    assert_eq!(proxy.cuts(), CUTS.len(), "every planned cut happened");
    assert_eq!(got, want, "query under cuts: every row once, in order");

    let proxy = FaultProxy::start(&emu.host);
    proxy.plan(CUTS);
    let got = keys_of(through(&proxy).await.read_plan(&plan)).await;
    eprintln!(
        "read_plan: {} connections, {} cut",
        proxy.connections(),
        proxy.cuts()
    );
    assert_eq!(proxy.cuts(), CUTS.len(), "every planned cut happened");
    let mut sorted = want.clone();
    sorted.sort();
    assert_eq!(
        got, sorted,
        "read_plan under cuts: every row once, in stored order"
    );
}

async fn table(host: &str, name: &str, family: &str) -> BigtableStore {
    BigtableAdmin::connect_emulator(host, "p", "i")
        .unwrap()
        .create_table(&TableSpec::new(name, &[family]))
        .await
        .unwrap();
    BigtableStore::connect_emulator(host, "p", "i", name)
        .await
        .unwrap()
}

async fn keys_of(rows: impl futures::Stream<Item = Result<Row, StoreError>>) -> Vec<Vec<u8>> {
    rows.map_ok(|r| r.key).try_collect().await.unwrap()
}
