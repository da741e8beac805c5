//! Reads and writes under injected faults: a TCP proxy between the client
//! and HBase's Thrift server cuts connections mid-call at chosen byte
//! counts, stalls them, cuts idle ones, or goes away. A retried read must
//! resume strictly after the last row it delivered (no row lost, none
//! repeated); a failure that does not pass must end in a precise error
//! within a bounded time, not a hang.

use crate::server::{address, client, fresh_table};
use futures::{StreamExt, TryStreamExt};
use rowkey::store::{
    Cell, KeyRange, QueryOptions, ReadRequest, RetryPolicy, Row, Store, StoreError, StoreExt,
};
use rowkey_fixtures::layouts::Ledger;
use rowkey_fixtures::proxy::{assert_read, Fault, FaultProxy};
use rowkey_hbase::{ClientOptions, HBaseClient, HBaseStore, WriteOptions};
use std::time::{Duration, Instant};

const ROWS: usize = 10_000;

fn retry() -> RetryPolicy {
    RetryPolicy::default()
        .attempts(5)
        .backoff_between(Duration::from_millis(10), Duration::from_millis(200))
        .idle_timeout(Duration::from_secs(5))
}

/// The ledger's 10,000 rows in a new table; its name and the keys in
/// logical order (salt prefix skipped), as a query must return them.
async fn ledger() -> (String, Vec<Vec<u8>>) {
    let client = client().await;
    let table = fresh_table(&client, &["d"]).await;
    let rows = Ledger::distinct_rows(ROWS);
    let mut keys: Vec<Vec<u8>> = rows.iter().map(|r| r.key.clone()).collect();
    client.table(&table).write_rows(rows).await.unwrap();
    let skip = Ledger::scan().plan().unwrap().prefix_len();
    keys.sort_by(|a, b| a[skip..].cmp(&b[skip..]));
    (table, keys)
}

async fn through(proxy: &FaultProxy, table: &str) -> HBaseStore {
    HBaseClient::connect(&proxy.addr)
        .await
        .unwrap()
        .table(table)
        .with_retry(retry())
}

/// Cuts at these byte counts of the server's replies, one per connection
/// in the order the pool opens them (a read of the ledger's 1 MB spreads
/// over the pool's 8 connections: the cuts come early).
const CUTS: [Fault; 4] = [
    Fault::CutAfter(20_000),
    Fault::CutAfter(45_000),
    Fault::CutAfter(30_000),
    Fault::CutAfter(60_000),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_query_cut_mid_scan_resumes_without_loss_or_repeats() {
    let (table, want) = ledger().await;
    let plan = Ledger::scan().plan().unwrap();
    assert_eq!(plan.len(), 120);
    for (name, options) in [
        ("query, defaults", QueryOptions::default()),
        (
            "query, 32 in flight, pages of 200",
            QueryOptions::default().concurrency(32).page_rows(200),
        ),
    ] {
        let proxy = FaultProxy::start(&address());
        proxy.plan(CUTS);
        let store = through(&proxy, &table).await;
        let got: Vec<Vec<u8>> = store
            .query_with(&plan, options)
            .map_ok(|r| r.key)
            .try_collect()
            .await
            .unwrap();
        assert!(proxy.cuts() >= 2, "{name}: {} cuts", proxy.cuts());
        assert_read(name, &proxy, &want, &got);
    }
    // Backwards: a retry resumes below the last row delivered.
    let proxy = FaultProxy::start(&address());
    proxy.plan(CUTS);
    let store = through(&proxy, &table).await;
    let got: Vec<Vec<u8>> = store
        .query(&plan.reversed())
        .map_ok(|r| r.key)
        .try_collect()
        .await
        .unwrap();
    let backwards: Vec<Vec<u8>> = want.iter().rev().cloned().collect();
    assert_read("query reversed", &proxy, &backwards, &got);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_multi_range_read_a_limit_and_point_gets_resume_after_cuts() {
    let (table, logical) = ledger().await;
    let plan = Ledger::scan().plan().unwrap();
    let mut want = logical.clone();
    want.sort();
    let proxy = FaultProxy::start(&address());
    proxy.plan(CUTS);
    let store = through(&proxy, &table).await;
    let got: Vec<Vec<u8>> = store
        .read_plan(&plan)
        .map_ok(|r| r.key)
        .try_collect()
        .await
        .unwrap();
    assert_read("read_plan, one multi-range stream", &proxy, &want, &got);
    // A limit counts the rows delivered before a cut.
    let proxy = FaultProxy::start(&address());
    proxy.plan([Fault::CutAfter(60_000), Fault::CutAfter(30_000)]);
    let store = through(&proxy, &table).await.with_read_page_rows(100);
    let request = ReadRequest::new([KeyRange::new([], None)]).with_limit(3_000);
    let got: Vec<Vec<u8>> = store
        .read_rows(request)
        .map_ok(|r| r.key)
        .try_collect()
        .await
        .unwrap();
    assert_read("read_rows, limit 3,000", &proxy, &want[..3_000], &got);
    // Point gets over a connection cut between them. One connection: in a
    // pool of several, the gets may all go to others than the first (the
    // one planned to be cut), and nothing is cut.
    let proxy = FaultProxy::start(&address());
    proxy.plan([Fault::CutAfter(400)]);
    let store = HBaseClient::connect_with(&proxy.addr, ClientOptions::default().connections(1))
        .await
        .unwrap()
        .table(&table)
        .with_retry(retry());
    for key in want.iter().step_by(500) {
        assert_eq!(store.read_row(key).await.unwrap().unwrap().key, *key);
    }
    assert_eq!(proxy.cuts(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_and_deletes_cut_mid_call_are_retried() {
    let client = client().await;
    let table = fresh_table(&client, &["d"]).await;
    let proxy = FaultProxy::start(&address());
    // The replies to writes are small: cut early in each connection.
    proxy.plan([
        Fault::CutAfter(60),
        Fault::CutAfter(200),
        Fault::CutAfter(60),
    ]);
    let store = through(&proxy, &table)
        .await
        .with_write_options(WriteOptions::default().batch_rows(500).in_flight(2));
    let rows: Vec<Row> = (0..5_000u32)
        .map(|i| Row::new(i.to_be_bytes().to_vec(), vec![Cell::new("d", "v", "x")]))
        .collect();
    store.write_rows(rows).await.unwrap();
    let direct = client.table(&table);
    let count = |s: HBaseStore| async move {
        s.read_rows(ReadRequest::new([KeyRange::new([], None)]))
            .try_fold(0usize, |n, _| async move { Ok(n + 1) })
            .await
            .unwrap()
    };
    let back = count(direct.clone()).await;
    eprintln!(
        "writes: 5,000 rows in batches of 500, {} connections cut, {back} rows read back",
        proxy.cuts()
    );
    assert!(proxy.cuts() >= 1);
    assert_eq!(back, 5_000);
    let keys: Vec<Vec<u8>> = (0..5_000u32)
        .step_by(2)
        .map(|i| i.to_be_bytes().to_vec())
        .collect();
    store.delete_rows(keys).await.unwrap();
    assert_eq!(count(direct).await, 2_500);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_server_fails_precisely_in_bounded_time() {
    let (table, _) = ledger().await;
    let proxy = FaultProxy::start(&address());
    // Every connection stalls 30 kB into the server's replies: inside
    // the first page of 1,000 rows (100 kB), so no attempt makes progress.
    proxy.plan([Fault::StallAfter(30_000); 100]);
    let policy = retry().attempts(3).idle_timeout(Duration::from_secs(2));
    let client = HBaseClient::connect_with(
        &proxy.addr,
        rowkey_hbase::ClientOptions::default().connections(1),
    )
    .await
    .unwrap();
    let store = client
        .table(&table)
        .with_retry(policy)
        .with_read_page_rows(1_000);
    let started = Instant::now();
    let outcome = tokio::time::timeout(Duration::from_secs(90), async {
        let mut rows = store.read_rows(ReadRequest::new([KeyRange::new([], None)]));
        let mut delivered = 0;
        while let Some(row) = rows.next().await {
            match row {
                Ok(_) => delivered += 1,
                Err(e) => return (delivered, Some(e)),
            }
        }
        (delivered, None)
    })
    .await
    .expect("a stalled server must give an error, not a hang");
    let (delivered, error) = outcome;
    let e = error.expect("the stall outlasts every retry: an error");
    let elapsed = started.elapsed();
    eprintln!(
        "stall: {delivered} rows delivered, then after {:.1} s: {e}: {}",
        elapsed.as_secs_f32(),
        e.backend_source()
            .map(|s| s.to_string())
            .unwrap_or_default()
    );
    assert_eq!(delivered, 0);
    assert!(proxy.stalls() >= 3, "{} stalls", proxy.stalls());
    assert!(e.is_transient(), "{e}");
    assert!(
        matches!(
            e,
            StoreError::Backend {
                op: "read rows",
                attempts: 3,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("after 3 attempts"), "{e}");
    // Three idle timeouts of 2 s and two short backoffs, and no more.
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_goes_away_mid_scan_is_an_error_in_bounded_time() {
    let (table, _) = ledger().await;
    let proxy = FaultProxy::start(&address());
    let store = through(&proxy, &table).await;
    let plan = Ledger::scan().plan().unwrap();
    let mut rows = store.query_with(&plan, QueryOptions::default().concurrency(4).page_rows(50));
    for _ in 0..100 {
        rows.next().await.unwrap().unwrap();
    }
    // The proxy goes: its connections are cut and its port refuses.
    drop(proxy);
    let started = Instant::now();
    let outcome = tokio::time::timeout(Duration::from_secs(60), async {
        while let Some(row) = rows.next().await {
            if let Err(e) = row {
                return Some(e);
            }
        }
        None
    })
    .await
    .expect("a server gone must give an error, not a hang");
    let e = outcome.expect("rows cannot all arrive from a server gone");
    eprintln!(
        "server gone: after {:.1} s: {e}",
        started.elapsed().as_secs_f32()
    );
    assert!(
        matches!(
            e,
            StoreError::Backend {
                op: "read rows",
                transient: true,
                ..
            }
        ),
        "{e}"
    );
    // Point gets and writes fail the same way.
    let e = store.read_row(b"x").await.unwrap_err();
    assert!(matches!(e, StoreError::Backend { .. }), "{e}");
    let e = store
        .write_rows(vec![Row::new("x", vec![Cell::new("d", "v", "x")])])
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            StoreError::Backend {
                op: "write rows",
                ..
            }
        ),
        "{e}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_the_server_closed_are_not_reused() {
    let (table, want) = ledger().await;
    let proxy = FaultProxy::start(&address());
    // No retry: a call on a connection found closed would fail.
    let store = through(&proxy, &table)
        .await
        .with_retry(RetryPolicy::never());
    let mut sorted = want.clone();
    sorted.sort();
    for round in 0..3 {
        let got: Vec<Vec<u8>> = store
            .read_rows(ReadRequest::new([KeyRange::new([], None)]).with_limit(10))
            .map_ok(|r| r.key)
            .try_collect()
            .await
            .unwrap_or_else(|e| panic!("round {round}: {e}: {:?}", e.backend_source()));
        assert_eq!(got, sorted[..10]);
        // The server closes idle sockets (here the proxy, at once); the
        // next call must find out before it writes to one.
        proxy.cut_all();
        tokio::time::sleep(Duration::from_millis(1_200)).await;
    }
    assert!(proxy.cuts() >= 2, "{} cuts", proxy.cuts());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_stream_closes_its_scanner_and_frees_its_connection() {
    let (table, want) = ledger().await;
    // One connection: a stream that kept it, or a scanner call stuck on
    // it, would starve the reads after.
    let client = HBaseClient::connect_with(
        &address(),
        rowkey_hbase::ClientOptions::default().connections(1),
    )
    .await
    .unwrap();
    let store = client.table(&table).with_read_page_rows(10);
    for _ in 0..20 {
        let mut rows = store.read_rows(ReadRequest::new([KeyRange::new([], None)]));
        rows.next().await.unwrap().unwrap();
        drop(rows);
    }
    let n = store
        .read_rows(ReadRequest::new([KeyRange::new([], None)]))
        .try_fold(0usize, |n, _| async move { Ok(n + 1) })
        .await
        .unwrap();
    assert_eq!(n, want.len());
}
