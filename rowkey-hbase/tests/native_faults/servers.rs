//! Region servers stopped in order and aborted as a crash does, mid-scan
//! and mid-batch: their regions reopen on the others, and the client
//! finds them there, retrying as the native store does by default.

use crate::harness::{check_read, client, command, key, requests, table, write, Model};
use rowkey::store::{KeyRange, ReadRequest};
use std::time::Duration;

/// The port of a region server holding a region of `table` (not the one
/// holding `hbase:meta`, whose loss a later test checks on its own).
async fn a_server_of(table: &str) -> u16 {
    let regions = command(&format!("regions {table}")).await;
    regions
        .split(',')
        .filter_map(|r| r.split_once('@')?.1.parse().ok())
        .next()
        .expect("a region on a server")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn region_servers_stopped_and_aborted_mid_scan_and_mid_batch() {
    const N: u32 = 12_000;
    let client = client().await;
    let (store, mut model) = table(&client, N, &[3_000, 6_000, 9_000]).await;
    let name = store.table_name().to_owned();
    // Issue 48: the store's default policy, not the harness's patient
    // one, rides out a region server's death.
    let store = client.table(&name);
    let default = rowkey_hbase::failover_retry(rowkey_hbase::DEFAULT_SESSION_TIMEOUT);
    assert_eq!(store.retry(), default);
    for (kind, round) in [("stop-rs", 0u32), ("abort-rs", 1)] {
        let port = a_server_of(&name).await;
        let fault = tokio::spawn({
            let line = format!("{kind} {port}");
            async move {
                // Let the reads below get going first.
                tokio::time::sleep(Duration::from_millis(300)).await;
                let stopped = command(&line).await;
                let started = command("start-rs").await;
                format!("{line}: {stopped}; start-rs: {started}")
            }
        });
        while !fault.is_finished() {
            for (request, what) in requests(N) {
                check_read(&store, &model, request, &format!("{kind}: {what}")).await;
            }
            let fresh: Model = (0..300)
                .map(|i| (key(i * 40 + 7), format!("{kind}{round}").into_bytes()))
                .collect();
            write(&store, &fresh).await;
            model.extend(fresh);
        }
        eprintln!("{}", fault.await.unwrap());
        check_read(
            &store,
            &model,
            ReadRequest::new([KeyRange::new(Vec::new(), None)]),
            &format!("after {kind}"),
        )
        .await;
    }
    assert_eq!(crate::cluster().region_servers().len(), 3);
}
