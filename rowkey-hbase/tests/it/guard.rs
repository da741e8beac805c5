//! Table guards on HBaseStore against the real HBase
//! (`rowkey_fixtures::conformance::guard`): the registry is a table of
//! its own with family `l`; a key of another layout is refused with the
//! diff before a row is read or written, a rename passes.

use crate::server::{client, fresh_table};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guards_on_hbase() {
    let client = client().await;
    let make = |families: &'static [&'static str]| {
        let client = client.clone();
        move |_name: &str| {
            let client = client.clone();
            async move {
                let table = fresh_table(&client, families).await;
                client.table(&table)
            }
        }
    };
    let tables = make(&["d", "i"]);
    let registries = make(&["l"]);
    rowkey_fixtures::conformance::guard::run(tables, || registries("rowkey_layouts")).await;
}
