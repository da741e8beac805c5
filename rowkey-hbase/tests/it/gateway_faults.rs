//! A Thrift gateway that restarts, freezes, sits behind a load balancer
//! or delivers a request late, each checked against brute force: the
//! gateway runs in a JVM of its own (`ThriftGateway`) in front of the
//! test binary's HBase, so a test can kill it (SIGTERM, SIGKILL), stop it
//! (SIGSTOP) and start it again on the same port while HBase keeps its
//! rows.
//!
//! What must hold: a scanner id is used only on the connection that
//! opened it (a restarted server numbers its scanners from 0 again; two
//! servers behind one address each number their own), so no row comes
//! from another scan, none twice, none lost; a write's late copy never
//! wins over a later write; a silent server fails within the retry
//! policy's bounds, saying so.

use crate::server::{address, client, fresh_table};
use futures::{StreamExt, TryStreamExt};
use rowkey::store::{Cell, KeyRange, ReadRequest, RetryPolicy, Row, Store};
use rowkey_fixtures::hbase::{shared, Signal, ThriftGateway};
use rowkey_fixtures::proxy::{assert_read, FaultProxy};
use rowkey_hbase::{ClientOptions, HBaseClient, HBaseStore};
use std::time::{Duration, Instant};

const BUCKETS: u8 = 4;
const PER_BUCKET: u32 = 5_000;

fn gateway() -> ThriftGateway {
    ThriftGateway::start(shared().zk_port, 0).unwrap_or_else(|e| panic!("{e}"))
}

/// Enough patience to outlast a gateway's restart (a JVM's start, about
/// 5 s; much more on a busy machine).
fn patient() -> RetryPolicy {
    RetryPolicy::default()
        .attempts(60)
        .backoff_between(Duration::from_millis(100), Duration::from_secs(1))
        .idle_timeout(Duration::from_secs(10))
}

fn key(bucket: u8, i: u32) -> Vec<u8> {
    let mut k = vec![bucket];
    k.extend_from_slice(format!("{i:05}").as_bytes());
    k
}

/// A salted-looking table of 4 buckets of 5,000 rows; its name and the
/// four ranges.
async fn salted() -> (String, Vec<KeyRange>) {
    let client = client().await;
    let table = fresh_table(&client, &["d"]).await;
    let rows: Vec<Row> = (0..BUCKETS)
        .flat_map(|b| {
            (0..PER_BUCKET).map(move |i| Row::new(key(b, i), vec![Cell::new("d", "v", "x")]))
        })
        .collect();
    client.table(&table).write_rows(rows).await.unwrap();
    let ranges = (0..BUCKETS)
        .map(|b| KeyRange::new(vec![b], Some(vec![b + 1])))
        .collect();
    (table, ranges)
}

fn all_keys() -> Vec<Vec<u8>> {
    (0..BUCKETS)
        .flat_map(|b| (0..PER_BUCKET).map(move |i| key(b, i)))
        .collect()
}

async fn store_at(address: &str, table: &str) -> HBaseStore {
    HBaseClient::connect(address)
        .await
        .unwrap()
        .table(table)
        .with_retry(patient())
        .with_read_page_rows(100)
}

/// Another client's scanners on the server at `address`, opened and
/// parked (pages of 5 of the last bucket, from 16 starts): they take the
/// scanner ids a restarted server gives first, which an old id would then
/// read.
async fn open_scanners(address: &str, table: &str) -> HBaseClient {
    let other = HBaseClient::connect(address).await.unwrap();
    let store = other.table(table);
    for i in 0..16 {
        let start = key(BUCKETS - 1, i * 100);
        let page: Vec<Row> = store
            .read_rows(ReadRequest::new([KeyRange::new(start, Some(vec![BUCKETS]))]).with_limit(5))
            .try_collect()
            .await
            .unwrap();
        assert_eq!(page.len(), 5);
    }
    other
}

/// One `read_rows` stream of 20,000 rows, paused after 2,000 while the
/// gateway restarts (by SIGTERM, then by SIGKILL), and read to its end:
/// every row once, in order, none of another scan. Then pages of 10 that
/// go on with a parked scanner across a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_gateway_never_serves_an_old_scanner_id() {
    let (table, ranges) = salted().await;
    let mut gateway = gateway();
    let proxy = FaultProxy::start(&gateway.address); // counts connections only
    let store = store_at(&proxy.addr, &table).await;
    let want = all_keys();
    for signal in [Signal::Term, Signal::Kill] {
        let mut rows = store.read_rows(ReadRequest::new(ranges.clone()));
        let mut got = Vec::new();
        while got.len() < 2_000 {
            got.push(rows.next().await.unwrap().unwrap().key);
        }
        gateway.restart(signal).unwrap();
        let others = open_scanners(&gateway.address, &table).await;
        while let Some(row) = rows.next().await {
            got.push(row.unwrap().key);
        }
        assert_read(
            &format!("stream across a restart ({signal:?})"),
            &proxy,
            &want,
            &got,
        );
        drop(others);
    }

    // Pages that park their scanner, a restart between two of them.
    let all = ReadRequest::new(ranges.clone());
    let mut got: Vec<Vec<u8>> = Vec::new();
    let mut request = all.clone();
    let mut pages = 0;
    loop {
        if pages == 5 || pages == 9 {
            gateway
                .restart(if pages == 5 {
                    Signal::Term
                } else {
                    Signal::Kill
                })
                .unwrap();
            // The new server's scanner ids start again: taken by others.
            drop(open_scanners(&gateway.address, &table).await);
        }
        let page: Vec<Vec<u8>> = store
            .read_rows(request.clone().with_limit(10))
            .map_ok(|r| r.key)
            .try_collect()
            .await
            .unwrap();
        pages += 1;
        let Some(last) = page.last().cloned() else {
            break;
        };
        got.extend(page);
        if pages == 20 {
            break;
        }
        request = all.after(&last);
    }
    assert_eq!(got, want[..got.len()].to_vec(), "pages across restarts");
    assert_eq!(got.len(), 200);
}

/// The gateway killed over and over while a query reads: every row once,
/// in order (the query's ranges read by several streams at once).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_query_reads_exactly_while_its_gateway_is_killed_and_restarted() {
    let (table, ranges) = salted().await;
    let gateway = std::sync::Arc::new(std::sync::Mutex::new(gateway()));
    let address = gateway.lock().unwrap().address.clone();
    let store = store_at(&address, &table).await;
    let want = all_keys();
    let killer = {
        let gateway = gateway.clone();
        std::thread::spawn(move || {
            let mut restarts = 0;
            for signal in [Signal::Kill, Signal::Term, Signal::Kill] {
                std::thread::sleep(Duration::from_millis(700));
                gateway.lock().unwrap().restart(signal).unwrap();
                restarts += 1;
            }
            restarts
        })
    };
    let mut got = Vec::new();
    let mut reads = 0;
    // Reads of the whole table, slowly, until the killer is done.
    while !killer.is_finished() || reads == 0 {
        let mut rows = store.read_rows(ReadRequest::new(ranges.clone()));
        got.clear();
        while let Some(row) = rows.next().await {
            got.push(row.unwrap().key);
            if got.len() % 500 == 0 {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        assert_eq!(got.len(), want.len(), "read {reads}: rows");
        assert!(got == want, "read {reads}: rows out of order or repeated");
        reads += 1;
    }
    let restarts = killer.join().unwrap();
    eprintln!("{reads} whole-table reads exact across {restarts} restarts");
}

/// Two gateways behind one address, each connection to the next: reads
/// (a stream, pages through parked scanners) are exact with no fault at
/// all, and a scanner is never closed on the other server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_gateways_behind_one_address_read_exactly() {
    let (table, ranges) = salted().await;
    let (a, b) = (gateway(), gateway());
    let proxy = FaultProxy::round_robin(&[&a.address, &b.address]);
    let store = store_at(&proxy.addr, &table).await;
    let want = all_keys();
    for round in 0..3 {
        let got: Vec<Vec<u8>> = store
            .read_rows(ReadRequest::new(ranges.clone()))
            .map_ok(|r| r.key)
            .try_collect()
            .await
            .unwrap();
        assert_read(&format!("round robin, round {round}"), &proxy, &want, &got);
    }
    // Pages of 25, many scanners parked at once on both servers.
    let all = ReadRequest::new(ranges.clone());
    let (mut got, mut request) = (Vec::new(), all.clone());
    for _ in 0..40 {
        let page: Vec<Vec<u8>> = store
            .read_rows(request.clone().with_limit(25))
            .map_ok(|r| r.key)
            .try_collect()
            .await
            .unwrap();
        let last = page.last().cloned().unwrap();
        got.extend(page);
        request = all.after(&last);
    }
    assert_eq!(got, want[..1_000].to_vec(), "pages through two gateways");
    assert!(proxy.connections() >= 2, "both servers used");
}

/// A write held by the network past the client's timeout, retried, and
/// delivered late after a newer write of the same row: the newer write
/// stays. Likewise a late delete after a newer put.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_copy_of_a_retried_write_never_wins() {
    let direct = client().await;
    let table = fresh_table(&direct, &["d"]).await;
    let proxy = FaultProxy::start(&address());
    let client = HBaseClient::connect_with(&proxy.addr, ClientOptions::default().connections(1))
        .await
        .unwrap();
    let policy = RetryPolicy::default()
        .attempts(3)
        .backoff_between(Duration::from_millis(10), Duration::from_millis(50))
        .idle_timeout(Duration::from_secs(1));
    let store = client.table(&table).with_retry(policy);
    let cell = |v: &str| vec![Cell::new("d", "v", v)];
    let value = |key: &'static str| {
        let store = direct.table(&table);
        async move {
            let rows: Vec<Row> = store
                .read_rows(ReadRequest::row(key.as_bytes()))
                .try_collect()
                .await
                .unwrap();
            rows.first()
                .and_then(|r| r.value("d", "v").map(<[u8]>::to_vec))
        }
    };

    proxy.hold_next_request(b"mutateRowsTs");
    store
        .write_rows(vec![Row::new("k", cell("v1"))])
        .await
        .unwrap();
    store
        .write_rows(vec![Row::new("k", cell("v2"))])
        .await
        .unwrap();
    assert_eq!(proxy.deliver_held(), 1, "the held put was delivered late");
    assert_eq!(
        value("k").await.as_deref(),
        Some(&b"v2"[..]),
        "a late put lost to the newer"
    );

    store
        .write_rows(vec![Row::new("j", cell("v0"))])
        .await
        .unwrap();
    proxy.hold_next_request(b"mutateRowsTs");
    store.delete_rows(vec![b"j".to_vec()]).await.unwrap();
    store
        .write_rows(vec![Row::new("j", cell("v3"))])
        .await
        .unwrap();
    assert_eq!(
        proxy.deliver_held(),
        1,
        "the held delete was delivered late"
    );
    assert_eq!(
        value("j").await.as_deref(),
        Some(&b"v3"[..]),
        "a late delete lost to the put"
    );
}

/// A gateway frozen by SIGSTOP: a read and a write each fail within what
/// the policy allows (every wait its idle timeout), and say that no answer
/// came within it; thawed, the store reads exactly again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_gateway_fails_within_the_policy_and_says_so() {
    let (table, ranges) = salted().await;
    let gateway = gateway();
    let idle = Duration::from_secs(1);
    let policy = RetryPolicy::default()
        .attempts(3)
        .backoff_between(Duration::from_millis(50), Duration::from_millis(100))
        .idle_timeout(idle);
    let client = HBaseClient::connect(&gateway.address).await.unwrap();
    let store = client.table(&table).with_retry(policy);
    // The pool's connections are open before the freeze.
    let _ = store
        .read_rows(ReadRequest::new(ranges.clone()).with_limit(1))
        .count()
        .await;
    // Each attempt waits at most twice the idle timeout (a new
    // connection's first call, then the call itself), and the backoffs
    // between; a second of slack for the pool's thread to pick it up.
    let bound = idle * 2 * policy.attempts
        + (1..policy.attempts)
            .map(|n| policy.backoff(n))
            .sum::<Duration>()
        + Duration::from_secs(1);
    gateway.signal(Signal::Stop);
    let started = Instant::now();
    let read: Result<Vec<Row>, _> = store
        .read_rows(ReadRequest::new(ranges.clone()))
        .try_collect()
        .await;
    let read_took = started.elapsed();
    let started = Instant::now();
    let wrote = store
        .write_rows(vec![Row::new("zz", vec![Cell::new("d", "v", "x")])])
        .await;
    let write_took = started.elapsed();
    gateway.signal(Signal::Cont);
    for (what, took, e) in [
        ("read", read_took, read.err()),
        ("write", write_took, wrote.err()),
    ] {
        let e = e.unwrap_or_else(|| panic!("a {what} from a frozen gateway must fail"));
        let text = format!(
            "{e}: {}",
            e.backend_source()
                .map(|s| s.to_string())
                .unwrap_or_default()
        );
        eprintln!("frozen gateway, {what}: {took:?} (bound {bound:?}): {text}");
        assert!(
            took <= bound,
            "{what} took {took:?}, over the policy's {bound:?}"
        );
        assert!(text.contains("no answer within 1 s"), "{what}: {text}");
        assert!(!text.contains("closed the connection"), "{what}: {text}");
    }
    let got: Vec<Vec<u8>> = store
        .read_rows(ReadRequest::new(ranges))
        .map_ok(|r| r.key)
        .try_collect()
        .await
        .unwrap();
    assert!(got == all_keys(), "thawed: exact again");
}

/// A page parked before the client deletes and creates its table again
/// reads the new table, not the parked scanner's rows of the old one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_calls_drop_parked_scanners() {
    let client = client().await;
    let table = fresh_table(&client, &["d"]).await;
    let store = client.table(&table);
    let rows = |n: u32| -> Vec<Row> {
        (0..n)
            .map(|i| Row::new(format!("r{i:03}"), vec![Cell::new("d", "v", "x")]))
            .collect()
    };
    store.write_rows(rows(100)).await.unwrap();
    let all = ReadRequest::new([KeyRange::new([], None)]);
    let first: Vec<Row> = store
        .read_rows(all.clone().with_limit(20))
        .try_collect()
        .await
        .unwrap();
    let admin = client.admin();
    admin.delete_table(&table).await.unwrap();
    admin
        .create_table(&rowkey::store::admin::TableSpec::new(&table, &["d"]))
        .await
        .unwrap();
    // Written by another client: this one's writes drop parked scanners
    // anyway.
    let other = HBaseClient::connect(&address()).await.unwrap();
    other.table(&table).write_rows(rows(2)).await.unwrap();
    let next: Vec<Vec<u8>> = store
        .read_rows(all.after(&first.last().unwrap().key).with_limit(20))
        .map_ok(|r| r.key)
        .try_collect()
        .await
        .unwrap();
    assert!(
        next.is_empty(),
        "the new table has no row after r019: {next:?}"
    );
}
