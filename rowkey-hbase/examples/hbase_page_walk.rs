//! Walks in pages on HBase, each against one query of the same plan:
//! - one workspace of a team-chat table, 80,000 messages over 32 salt
//!   buckets (the salt hashes workspace and channel), in pages of 100
//!   (`rowkey_fixtures::walk`);
//! - one city's trips over a day through an IN-list of its 400 drivers
//!   (400 ranges of a few rows each), in pages of 50
//!   (`rowkey_fixtures::walk_in_list`, issue 41's ride-hailing walk).
//!
//! Each runs over Thrift 1 and natively (`zk://`). HBase's scanners stop
//! at the rows asked for, so a page costs about the rows it reads: the
//! comparison the emulator cannot give (it gathers a request's whole
//! ranges first; see rowkey-bigtable's `page_walk`).
//!
//! Run: `cargo run --release -p rowkey-hbase --example hbase_page_walk`
//! (`-- --rows N --page P --in-list-page P --runs R`); starts a
//! standalone HBase.

use rowkey::store::admin::TableSpec;
use rowkey_fixtures::bench::arg;
use rowkey_fixtures::{walk, walk_in_list};
use rowkey_hbase::HBaseClient;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = arg("--rows", 80_000);
    let page = arg("--page", 100).max(1);
    let in_list_page = arg("--in-list-page", 50).max(1);
    let runs = arg("--runs", 5).max(1);
    let server = rowkey_fixtures::hbase::HBase::start();
    let connections = arg("--connections", 8);
    let thrift = HBaseClient::connect_with(
        &server.thrift,
        rowkey_hbase::ClientOptions::default().connections(connections),
    )
    .await?;
    let native = HBaseClient::connect(&server.zk_address()).await?;
    for (transport, client) in [("Thrift 1", &thrift), ("native", &native)] {
        let table = format!("chat_walk_{}_{}", std::process::id(), client.is_native());
        client
            .admin()
            .create_table(&TableSpec::new(&table, &["d"]))
            .await?;
        println!(
            "{transport}: {rows} messages of one workspace over 32 buckets; pages of {page}; median of {runs}"
        );
        let cost = walk::walk(client.table(&table), rows, page, runs).await?;
        cost.print(rows);
        client.admin().delete_table(&table).await?;

        let table = format!("trip_walk_{}_{}", std::process::id(), client.is_native());
        client
            .admin()
            .create_table(&TableSpec::new(&table, &["d"]))
            .await?;
        let (cost, walked) =
            walk_in_list::walk_in_list(client.table(&table), in_list_page, runs).await?;
        println!(
            "{transport}: one city's trips over a day, an IN-list of {} drivers ({} ranges, {walked} rows); pages of {in_list_page}; median of {runs}",
            walk_in_list::DRIVERS,
            walk_in_list::DRIVERS
        );
        cost.print(walked);
        client.admin().delete_table(&table).await?;
    }
    Ok(())
}
