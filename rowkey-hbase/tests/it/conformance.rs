//! The Store conformance suite (`rowkey_fixtures::conformance`) on
//! HBaseStore against a real HBase 2.6.1 and its Thrift 1 server
//! (`rowkey_fixtures::hbase`, one server for this test binary): a fresh
//! table per check; also boxed in a `DynStore` reading 7 rows a round
//! trip (every range's scanner advanced many times, filters kept).

use crate::server::{client, fresh_table};
use rowkey::store::DynStore;
use rowkey_fixtures::conformance::{run_under_faults, run_with, Config};
use rowkey_hbase::HBaseStore;

/// Empty tables with families `d` and `i`.
fn tables() -> impl Fn() -> std::pin::Pin<Box<dyn std::future::Future<Output = HBaseStore>>> {
    || {
        Box::pin(async {
            let client = client().await;
            let name = fresh_table(&client, &["d", "i"]).await;
            client.table(&name)
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hbase_store() {
    // Fewer rounds than on the emulator: each check makes a table, and
    // HBase takes about a second to create one.
    run_with(
        tables(),
        Config {
            rounds: 3,
            seed: 0x5EED,
        },
    )
    .await;
}

#[tokio::test(flavor = "current_thread")]
async fn boxed_hbase_store_in_small_read_pages() {
    let tables = tables();
    let small_pages = || {
        let table = tables();
        async move { DynStore::new(table.await.with_read_page_rows(7)) }
    };
    run_with(small_pages, Config { rounds: 1, seed: 3 }).await;
}

/// The whole suite again through a proxy that cuts every open connection
/// every 300 ms: reads resume, writes are retried (stamped once, so a
/// retry is the same write), and every check still holds (but those of
/// conditional writes and counters, which are never sent twice).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hbase_store_with_connections_cut_on_a_schedule() {
    use rowkey::store::RetryPolicy;
    use rowkey_fixtures::proxy::FaultProxy;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    let proxy = Arc::new(FaultProxy::start(&crate::server::address()));
    let stop = Arc::new(AtomicBool::new(false));
    let cutter = {
        let (proxy, stop) = (proxy.clone(), stop.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(300));
                proxy.cut_all();
            }
        })
    };
    let through = rowkey_hbase::HBaseClient::connect(&proxy.addr)
        .await
        .unwrap();
    let policy = RetryPolicy::default()
        .attempts(20)
        .backoff_between(Duration::from_millis(10), Duration::from_millis(200));
    let tables = || {
        let through = through.clone();
        async move {
            let direct = client().await;
            let name = fresh_table(&direct, &["d", "i"]).await;
            through
                .table(&name)
                .with_retry(policy)
                .with_read_page_rows(50)
        }
    };
    // Conditional writes and counters are sent once: a cut one is
    // OutcomeUnknown by contract, so they are left out.
    run_under_faults(
        tables,
        Config {
            rounds: 1,
            seed: 0xC07,
        },
    )
    .await;
    stop.store(true, Ordering::SeqCst);
    cutter.join().unwrap();
    eprintln!(
        "conformance under cuts: {} connections, {} cut",
        proxy.connections(),
        proxy.cuts()
    );
    assert!(proxy.cuts() > 10, "the schedule cut connections");
}

/// Ranges after a free field alone, in more rounds than the whole suite
/// gives them: over Thrift 1 the range is kept in the client.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ranges_after_a_free_field() {
    let config = Config {
        rounds: 4,
        seed: 41,
    };
    rowkey_fixtures::conformance::free_ranges::check(&tables(), config).await;
}

/// Batched point reads alone: `read_keys` is Thrift 1 `getRowsWithColumns`
/// here, checked against brute force as on every store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batched_point_reads() {
    let config = Config {
        rounds: 4,
        seed: 41,
    };
    rowkey_fixtures::conformance::get_many::check(&tables(), config).await;
}
