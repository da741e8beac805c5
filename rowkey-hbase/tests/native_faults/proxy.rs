//! Every connection to a region server through a fault proxy (servers'
//! addresses come from `hbase:meta`, so the client maps each to its
//! proxy):
//! - cut, all of them, every 300 ms: reads resume after the last row they
//!   delivered, stamped writes are retried, and every read still holds;
//! - stalled (open, but nothing more from the server) after a random
//!   number of bytes: a call with no answer within the policy's idle
//!   timeout gives its connection up, the read goes on over a new one,
//!   and every read and write still holds.

use crate::harness::{check_read, key, patient, proxied_table, requests, Model};
use rowkey::store::Store;
use rowkey_fixtures::layouts::Rng;
use rowkey_fixtures::proxy::Fault;
use rowkey_hbase::HBaseStore;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Rounds of every read kind against the model, with 1,000 rows
/// rewritten after each round.
async fn rounds(store: &HBaseStore, model: &mut Model, n: u32) {
    for round in 0..3u32 {
        for (request, what) in requests(n) {
            check_read(store, model, request, &format!("round {round}: {what}")).await;
        }
        let fresh: Model = (0..1_000)
            .map(|i| (key(i * 8 + round), format!("c{round}").into_bytes()))
            .collect();
        crate::harness::write(store, &fresh).await;
        model.extend(fresh);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_cut_every_300_ms() {
    const N: u32 = 8_000;
    let (store, mut model, proxies) =
        proxied_table(N, &[N / 4, N / 2, N * 3 / 4], patient(), Vec::new).await;
    let stop = Arc::new(AtomicBool::new(false));
    let cutter = {
        let (proxies, stop) = (proxies.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut cuts = 0;
            while !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(300));
                for proxy in proxies.lock().unwrap().values() {
                    proxy.cut_all();
                }
                cuts += 1;
            }
            cuts
        })
    };
    rounds(&store, &mut model, N).await;
    stop.store(true, Ordering::SeqCst);
    let cuts = cutter.join().unwrap();
    let cut: usize = proxies.lock().unwrap().values().map(|p| p.cuts()).sum();
    assert!(
        cuts > 3 && cut > 0,
        "{cuts} rounds of cuts, {cut} connections cut"
    );
    assert_eq!(store.key_limit().store, "HBase");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_connections_are_given_up_and_reads_go_on() {
    const N: u32 = 8_000;
    // Each server's first five connections stall after a random number
    // of bytes from the server: in the connection header's answer, in a
    // page of a scan, in a write's answer. (A connection that never
    // stalls lives on; the next ones are made only when one stalls.)
    let rng = Arc::new(Mutex::new(Rng(39)));
    let faults = move || {
        let mut rng = rng.lock().unwrap();
        (0..5)
            .map(|_| Fault::StallAfter(rng.below(40_000) as usize))
            .collect()
    };
    // A short idle timeout: a stalled call is given up after 1 s.
    let policy = patient().idle_timeout(Duration::from_secs(1));
    let (store, mut model, proxies) =
        proxied_table(N, &[N / 4, N / 2, N * 3 / 4], policy, faults).await;
    rounds(&store, &mut model, N).await;
    let stalls: usize = proxies.lock().unwrap().values().map(|p| p.stalls()).sum();
    eprintln!("{stalls} connections stalled");
    assert!(stalls >= 10, "{stalls} connections stalled");
}

/// Issue 48: a deadline the user sets bounds an operation however
/// patient its retry policy. Every connection to every region server
/// stalls: a read and a write each fail once their operation timeout has
/// passed, with an error that is not transient and says so; with the
/// stalls gone, the same store reads every row again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operation_timeout_ends_reads_and_writes_on_stalled_servers() {
    use rowkey::store::{Cell, KeyRange, ReadRequest, Row, StoreError};
    const N: u32 = 2_000;
    // A policy that would wait minutes: 60 tries, calls of up to 20 s.
    let (store, model, proxies) = proxied_table(N, &[N / 2], patient(), Vec::new).await;
    let store = store.with_operation_timeout(Duration::from_secs(2));
    assert_eq!(store.operation_timeout(), Some(Duration::from_secs(2)));
    for proxy in proxies.lock().unwrap().values() {
        proxy.plan((0..1_000).map(|_| Fault::StallAfter(0)));
        proxy.cut_all();
    }
    let timed_out = |what: &str, e: StoreError| {
        assert!(!e.is_transient(), "{what}: {e}");
        let text = format!("{e} {:?}", std::error::Error::source(&e));
        assert!(
            text.contains("within its timeout of 2.0 s"),
            "{what}: {text}"
        );
    };
    let all = ReadRequest::new([KeyRange::new(Vec::new(), None)]);
    let read = store.read_rows(all);
    let read: Result<Vec<_>, _> = futures::TryStreamExt::try_collect(read).await;
    timed_out("read", read.unwrap_err());
    // A row outside the model's keys: the server may have applied it.
    let row = Row::new(b"late".to_vec(), vec![Cell::new("d", "v", "late")]);
    timed_out("write", store.write_rows(vec![row]).await.unwrap_err());
    // The stalls lifted: the same store, the same rows.
    for proxy in proxies.lock().unwrap().values() {
        proxy.clear_plan();
        proxy.cut_all();
    }
    let rows = ReadRequest::new([KeyRange::new(key(0), Some(key(N)))]);
    check_read(&store, &model, rows, "after the stalls").await;
}
