//! A region server killed as a crash does (SIGKILL, its own JVM: its
//! ZooKeeper session lives on until it expires, 6 s on this cluster),
//! holding every region of a table: a policy of a few quick tries gives
//! up in the middle of the failover, and the native store's default
//! policy rides it out, reads and writes exact against brute force
//! (issue 48). On the outcome tests' cluster, one test at a time.

use crate::harness::{check_read, key, requests, table, write, Model};
use crate::outcomes::{command, own_cluster, ONE_AT_A_TIME};
use rowkey::store::{KeyRange, ReadRequest, RetryPolicy, Store};
use rowkey_fixtures::hbase::RegionServerProcess;
use rowkey_hbase::{failover_retry, HBaseClient, DEFAULT_SESSION_TIMEOUT};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_policy_outlasts_a_region_server_killed_as_a_crash() {
    const N: u32 = 4_000;
    let _one = ONE_AT_A_TIME.lock().await;
    let client = HBaseClient::connect(&own_cluster().zk_address())
        .await
        .unwrap();
    let (setup, mut model) = table(&client, N, &[N / 2]).await;
    let name = setup.table_name().to_owned();
    let mut server = tokio::task::spawn_blocking(|| RegionServerProcess::start(own_cluster()))
        .await
        .unwrap()
        .unwrap_or_else(|e| panic!("{e}"));
    for row in [key(0), key(N / 2)] {
        let line = format!("move {name} {} {}", hex(&row), server.port);
        let moved = tokio::task::spawn_blocking(move || own_cluster().command(&line))
            .await
            .unwrap();
        if let Err(e) = moved {
            panic!(
                "{e}\nthe region server's stderr:\n{}\nthe cluster's:\n{}",
                server.stderr_tail(),
                own_cluster().stderr_tail()
            );
        }
    }
    let store = client.table(&name);
    assert_eq!(store.retry(), failover_retry(DEFAULT_SESSION_TIMEOUT));
    let all = || ReadRequest::new([KeyRange::new(Vec::new(), None)]);
    check_read(&store, &model, all(), "on the server to kill").await;

    server.kill();
    // The store's old default (5 tries, pauses up to 2 s) gives up while
    // the dead server still holds the regions: the failover is longer.
    let short = store.clone().with_retry(RetryPolicy::default());
    let read: Result<Vec<_>, _> = futures::TryStreamExt::try_collect(short.read_rows(all())).await;
    let e = read.expect_err("a read of a few quick tries fails mid-failover");
    assert!(e.is_transient(), "{e}");
    // The default rides it out: every read, then a write, then a read.
    for (request, what) in requests(N) {
        check_read(&store, &model, request, &format!("after the kill: {what}")).await;
    }
    let fresh: Model = (0..N)
        .step_by(3)
        .map(|i| (key(i), b"after".to_vec()))
        .collect();
    write(&store, &fresh).await;
    model.extend(fresh);
    check_read(&store, &model, all(), "written after the kill").await;
    let servers = command("servers").await;
    assert!(
        !servers.split(',').any(|p| p == server.port.to_string()),
        "the killed server is gone from {servers}"
    );
}
