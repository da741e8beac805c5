//! Operations that are not idempotent, whose first copy ran on the
//! server and whose answer was lost (the proxy holds the request, cuts
//! the client, then delivers it): the result is the exact effect or
//! `OutcomeUnknown`, and the operation is applied once, never twice and
//! never reported as a transient error a caller would retry.
//!
//! - An increment retried on the server that ran it: that server knows
//!   its nonce and does not run it again.
//! - An increment whose region moved (in order, as the balancer moves
//!   regions) before the retry: the new server does not know the nonce,
//!   so the retry is not sent: `OutcomeUnknown` (it was counted twice,
//!   as `Ok`, before).
//! - An increment whose region server was killed (its regions reopened
//!   elsewhere from its write-ahead log) before the retry: the client
//!   cannot tell a crash from an orderly move, so `OutcomeUnknown`.
//! - An append retried on the server that ran it: appended once.
//! - A conditional write: never sent again, `OutcomeUnknown`.
//! - A table create whose answer was lost: the retry carries the first
//!   try's nonce, and the master answers with the first procedure
//!   (without it, the retry failed with "table exists").

use crate::harness::patient;
use rowkey::store::admin::TableSpec;
use rowkey::store::{
    counter_value, CellCheck, CellCondition, ConditionalWrite, ModifyRule, ReadModifyWrite,
    RowEdit, Store, StoreError, StoreExt,
};
use rowkey_fixtures::hbase::{HBase, Options};
use rowkey_fixtures::proxy::FaultProxy;
use rowkey_hbase::{HBaseClient, HBaseStore};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// A cluster of these tests' own (three region servers): they stop and
/// move servers and regions, and time their faults, so they neither
/// disturb the other tests nor are disturbed by them; and one at a time.
pub(crate) fn own_cluster() -> &'static HBase {
    static CLUSTER: OnceLock<HBase> = OnceLock::new();
    CLUSTER.get_or_init(|| {
        HBase::try_start_with(&Options {
            region_servers: 3,
            ..Options::default()
        })
        .unwrap_or_else(|e| panic!("{e}"))
    })
}

pub(crate) static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

pub(crate) async fn command(line: &str) -> String {
    let line = line.to_owned();
    tokio::task::spawn_blocking(move || own_cluster().command(&line))
        .await
        .unwrap()
        .unwrap_or_else(|e| panic!("{e}"))
}

type Proxies = Arc<Mutex<HashMap<String, Arc<FaultProxy>>>>;

/// A native client whose every connection goes through a proxy of its
/// own, one per server.
async fn proxied_client(options: rowkey_hbase::hbase_native::Options) -> (HBaseClient, Proxies) {
    let proxies = Proxies::default();
    let options = options.address_map(proxy_map(&proxies));
    let client = HBaseClient::connect_native(&own_cluster().zk_address(), options)
        .await
        .unwrap();
    (client, proxies)
}

/// Each server's address mapped to its proxy's, started on first use.
fn proxy_map(proxies: &Proxies) -> impl Fn(&str) -> String + Send + Sync + 'static {
    let proxies = proxies.clone();
    move |server: &str| {
        let mut proxies = proxies.lock().unwrap();
        let proxy = proxies
            .entry(server.to_owned())
            .or_insert_with(|| Arc::new(FaultProxy::start(server)));
        proxy.addr.clone()
    }
}

/// A table of one region retrying as [`slow_retries`] says, and the
/// proxy of the server of that region.
async fn one_region() -> (HBaseStore, Arc<FaultProxy>) {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let (client, proxies) = proxied_client(Default::default()).await;
    let name = format!(
        "o{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    );
    client
        .admin()
        .create_table(&TableSpec::new(&name, &["d"]))
        .await
        .unwrap();
    let store = client.table(&name).with_retry(slow_retries());
    // A first call opens the connection (and the proxy) to the region's
    // server.
    store.read_row(b"-").await.unwrap();
    let regions = command(&format!("regions {name}")).await;
    let port = regions
        .split_once('@')
        .expect("a region on a server")
        .1
        .to_owned();
    let proxy = proxies
        .lock()
        .unwrap()
        .iter()
        .find(|(server, _)| server.ends_with(&format!(":{port}")))
        .map(|(_, p)| p.clone())
        .expect("the proxy of the region's server");
    (store, proxy)
}

/// Retries 10 s apart: time for the test to deliver the held copy and
/// move the region before the client tries again.
fn slow_retries() -> rowkey::store::RetryPolicy {
    patient()
        .backoff_between(Duration::from_secs(10), Duration::from_secs(10))
        .idle_timeout(Duration::from_secs(2))
}

/// Waits (at most 30 s) until the proxy holds a request and has cut its
/// client.
async fn wait_for_hold(proxy: &rowkey_fixtures::proxy::FaultProxy) {
    let began = std::time::Instant::now();
    while !proxy.holding() {
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "no request was held"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn add(by: i64) -> ReadModifyWrite {
    ReadModifyWrite::new(
        crate::harness::key(0),
        vec![ModifyRule::increment("d", "n", by)],
    )
}

async fn counter(store: &rowkey_hbase::HBaseStore) -> Option<i64> {
    store
        .read_row(&crate::harness::key(0))
        .await
        .unwrap()
        .and_then(|row| row.value("d", "n").and_then(counter_value))
}

/// An increment of 10 whose first copy runs while its client has been
/// cut, then `between` (cluster commands, given the table and the port of
/// its region's server), then the client's retry.
async fn lost_answer(
    between: impl Fn(String, String) -> Vec<String>,
) -> (Result<i64, StoreError>, i64) {
    let _alone = ONE_AT_A_TIME.lock().await;
    let (store, proxy) = one_region().await;
    store.read_modify_write(add(1)).await.unwrap();
    proxy.hold_next_request_then_cut_client(b"Mutate");
    let increment = tokio::spawn({
        let store = store.clone();
        async move { store.read_modify_write(add(10)).await }
    });
    wait_for_hold(&proxy).await;
    assert!(proxy.release_held(), "the held increment ran");
    let table = store.table_name().to_owned();
    let regions = command(&format!("regions {table}")).await;
    let port = regions
        .split_once('@')
        .map(|(_, p)| p.to_owned())
        .expect("a region on a server");
    for line in between(table, port) {
        command(&line).await;
    }
    let answer = increment.await.unwrap().map(|row| {
        row.value("d", "n")
            .and_then(counter_value)
            .expect("the counter's new value")
    });
    (answer, counter(&store).await.expect("a counter"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_increment_retried_on_the_server_that_ran_it_counts_once() {
    let (answer, stored) = lost_answer(|_, _| Vec::new()).await;
    assert_eq!(stored, 11, "applied once ({answer:?})");
    match answer {
        Ok(n) => assert_eq!(n, 11),
        Err(e) => assert!(e.is_outcome_unknown(), "{e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_increment_whose_region_moved_before_the_retry_is_outcome_unknown() {
    let (answer, stored) = lost_answer(|table, _| vec![format!("move {table} -")]).await;
    assert_eq!(stored, 11, "applied once ({answer:?})");
    let e = answer.expect_err("the retry would have run again on the new server");
    assert!(e.is_outcome_unknown() && !e.is_transient(), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conditional_write_whose_answer_was_lost_is_outcome_unknown() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let (store, proxy) = one_region().await;
    proxy.hold_next_request_then_cut_client(b"Mutate");
    let claim = ConditionalWrite::new(
        crate::harness::key(0),
        CellCheck::new("d", "owner", CellCondition::Absent),
    )
    .on_true(vec![RowEdit::set("d", "owner", "me")]);
    let write = tokio::spawn({
        let store = store.clone();
        async move { store.check_and_write(claim).await }
    });
    wait_for_hold(&proxy).await;
    assert!(proxy.release_held(), "the held write ran");
    let e = write.await.unwrap().expect_err("its answer was lost");
    assert!(e.is_outcome_unknown() && !e.is_transient(), "{e}");
    let row = store.read_row(&crate::harness::key(0)).await.unwrap();
    assert_eq!(
        row.unwrap().value("d", "owner"),
        Some(&b"me"[..]),
        "applied once"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_increment_whose_server_was_killed_before_the_retry_is_outcome_unknown() {
    let (answer, stored) =
        lost_answer(|_, port| vec![format!("abort-rs {port}"), "start-rs".to_owned()]).await;
    assert_eq!(stored, 11, "applied once ({answer:?})");
    let e = answer.expect_err("the region is on another server now");
    assert!(e.is_outcome_unknown() && !e.is_transient(), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_append_retried_on_the_server_that_ran_it_appends_once() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let (store, proxy) = one_region().await;
    let append = |bytes: &str| {
        ReadModifyWrite::new(
            crate::harness::key(0),
            vec![ModifyRule::append("d", "s", bytes)],
        )
    };
    store.read_modify_write(append("a")).await.unwrap();
    proxy.hold_next_request_then_cut_client(b"Mutate");
    let appended = tokio::spawn({
        let store = store.clone();
        async move { store.read_modify_write(append("b")).await }
    });
    wait_for_hold(&proxy).await;
    assert!(proxy.release_held(), "the held append ran");
    match appended.await.unwrap() {
        Ok(row) => assert_eq!(row.value("d", "s"), Some(&b"ab"[..])),
        Err(e) => assert!(e.is_outcome_unknown(), "{e}"),
    }
    let row = store.read_row(&crate::harness::key(0)).await.unwrap();
    assert_eq!(row.unwrap().value("d", "s"), Some(&b"ab"[..]), "once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_create_whose_answer_was_lost_is_retried_with_its_nonce() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let options = rowkey_hbase::hbase_native::Options::default()
        .call_timeout(Duration::from_secs(2))
        .backoff_between(Duration::from_secs(10), Duration::from_secs(10));
    let proxies = Proxies::default();
    let cluster = own_cluster();
    let client = rowkey_hbase::hbase_native::Client::connect_with(
        &cluster.zk_address(),
        options.address_map(proxy_map(&proxies)),
    )
    .await
    .unwrap();
    let admin = client.admin();
    admin.table_names().await.unwrap();
    let master = format!(":{}", cluster.master_port);
    let proxy = proxies
        .lock()
        .unwrap()
        .iter()
        .find(|(server, _)| server.ends_with(&master))
        .map(|(_, p)| p.clone())
        .expect("the master's proxy");
    let name = format!("created_once_{}", std::process::id());
    proxy.hold_next_request_then_cut_client(b"CreateTable");
    let create = tokio::spawn({
        let (admin, name) = (admin.clone(), name.clone());
        async move { admin.create_table(&name, &["d"], &[]).await }
    });
    wait_for_hold(&proxy).await;
    assert!(proxy.release_held(), "the held create ran");
    create
        .await
        .unwrap()
        .expect("the retry is answered with the first create's procedure");
    assert_eq!(admin.regions(&name).await.unwrap().len(), 1);
}
