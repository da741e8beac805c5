//! A walk in pages on HBase: one workspace of a team-chat table, 80,000
//! messages over 32 salt buckets (the salt hashes workspace and channel),
//! walked in pages of 100 through `StoreExt::page` and its cursors,
//! against the same rows read as one query (`rowkey_fixtures::walk`).
//! HBase's scanners stop at the rows asked for, so a page costs about the
//! rows it reads: the comparison the emulator cannot give (it gathers a
//! request's whole ranges first; see rowkey-bigtable's `page_walk`).
//!
//! Run: `cargo run --release -p rowkey-hbase --example hbase_page_walk`
//! (`-- --rows N --page P --runs R`); uses the Thrift server at
//! `HBASE_THRIFT` when set, else starts a standalone HBase.

use rowkey::store::admin::TableSpec;
use rowkey_fixtures::bench::arg;
use rowkey_fixtures::walk;
use rowkey_hbase::HBaseClient;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = arg("--rows", 80_000);
    let page = arg("--page", 100).max(1);
    let runs = arg("--runs", 5).max(1);
    let (address, _server) = match std::env::var("HBASE_THRIFT") {
        Ok(address) => (address, None),
        Err(_) => {
            let server = rowkey_fixtures::hbase::HBase::start();
            (server.thrift.clone(), Some(server))
        }
    };
    let connections = arg("--connections", 8);
    let client = HBaseClient::connect_with(
        &address,
        rowkey_hbase::ClientOptions::default().connections(connections),
    )
    .await?;
    let table = format!("chat_walk_{}", std::process::id());
    client
        .admin()
        .create_table(&TableSpec::new(&table, &["d"]))
        .await?;
    println!("{rows} messages of one workspace over 32 buckets on HBase; pages of {page}; median of {runs}");
    let cost = walk::walk(client.table(&table), rows, page, runs).await?;
    cost.print(rows);
    client.admin().delete_table(&table).await?;
    Ok(())
}
