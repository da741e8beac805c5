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
