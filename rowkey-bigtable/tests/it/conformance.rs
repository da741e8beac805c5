//! The Store conformance suite (`rowkey_fixtures::conformance`) on
//! BigtableStore against the Cloud Bigtable emulator: a fresh table per
//! check; also boxed in a `DynStore`, and reading in `ReadRows` requests
//! of 7 rows (every long read resumed after its last row, filters kept).

use rowkey::store::DynStore;
use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::conformance::{run, run_with, Config};
use rowkey_fixtures::emulator::Emulator;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Empty tables of the emulator at `host`, with families `d` and `i`,
/// each named after a counter.
fn tables(
    host: &str,
) -> impl Fn() -> std::pin::Pin<Box<dyn std::future::Future<Output = BigtableStore>>> {
    let admin = BigtableAdmin::connect_emulator(host, "p", "i").expect("the admin client");
    let next = std::sync::Arc::new(AtomicUsize::new(0));
    let host = host.to_string();
    move || {
        let name = format!("t{}", next.fetch_add(1, Ordering::SeqCst));
        let (admin, host) = (admin.clone(), host.clone());
        Box::pin(async move {
            admin
                .create_table(&TableSpec::new(&name, &["d", "i"]))
                .await
                .expect("a new table");
            BigtableStore::connect_emulator(&host, "p", "i", &name)
                .await
                .expect("a store")
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bigtable_store() {
    let emu = Emulator::start();
    run(tables(&emu.host)).await;
}

#[tokio::test(flavor = "current_thread")]
async fn boxed_bigtable_store_in_small_read_pages() {
    let emu = Emulator::start();
    let tables = tables(&emu.host);
    let config = Config { rounds: 2, seed: 3 };
    let small_pages = || {
        let table = tables();
        async move { DynStore::new(table.await.with_read_page_rows(7)) }
    };
    run_with(small_pages, config).await;
}

/// Ranges after a free field alone, in more rounds than the whole suite
/// gives them: the range is in the `RowKeyRegexFilter` the emulator runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ranges_after_a_free_field() {
    let emu = Emulator::start();
    let config = Config {
        rounds: 10,
        seed: 41,
    };
    rowkey_fixtures::conformance::free_ranges::check(&tables(&emu.host), config).await;
}

/// Batched point reads alone: `read_keys` is one `ReadRows` with a row
/// set of keys here.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batched_point_reads() {
    let emu = Emulator::start();
    let config = Config {
        rounds: 6,
        seed: 41,
    };
    rowkey_fixtures::conformance::get_many::check(&tables(&emu.host), config).await;
}
