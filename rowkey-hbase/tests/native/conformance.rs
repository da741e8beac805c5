//! The Store conformance suite (`rowkey_fixtures::conformance`) on the
//! native transport, each check on a fresh table pre-split into eight
//! regions over three region servers; also boxed in a `DynStore` reading
//! 7 rows a round trip.

use crate::cluster::{client, fresh_table};
use rowkey::store::DynStore;
use rowkey_fixtures::conformance::{run_with, Config};
use rowkey_hbase::HBaseStore;

/// Empty pre-split tables with families `d` and `i`.
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
async fn native_store() {
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
async fn boxed_native_store_in_small_read_pages() {
    let tables = tables();
    let small_pages = || {
        let table = tables();
        async move { DynStore::new(table.await.with_read_page_rows(7)) }
    };
    run_with(small_pages, Config { rounds: 1, seed: 3 }).await;
}
