//! An index join on HBase against its parts
//! (`rowkey_fixtures::join_bench`): 100,000 trips, a sparse index of
//! 5,000 of them; the index read, the same main rows by one batched read
//! (`getRowsWithColumns`, 1,000 keys a call) and the join.
//!
//! Run: `cargo run --release -p rowkey-hbase --example hbase_index_join`
//! (`-- --trips N --batch B --runs R`); uses the Thrift server at
//! `HBASE_THRIFT` when set, else starts a standalone HBase.

use rowkey::store::admin::TableSpec;
use rowkey::store::DEFAULT_JOIN_BATCH;
use rowkey_fixtures::bench::arg;
use rowkey_hbase::HBaseClient;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let trips = arg("--trips", 100_000);
    let batch = arg("--batch", DEFAULT_JOIN_BATCH);
    let runs = arg("--runs", 7);
    let (address, _server) = match std::env::var("HBASE_THRIFT") {
        Ok(address) => (address, None),
        Err(_) => {
            let server = rowkey_fixtures::hbase::HBase::start();
            (server.thrift.clone(), Some(server))
        }
    };
    let client = HBaseClient::connect(&address).await?;
    let suffix = std::process::id();
    let (trips_table, index_table) = (format!("trips_{suffix}"), format!("disputed_{suffix}"));
    client
        .admin()
        .create_table(&TableSpec::new(&trips_table, &["d"]))
        .await?;
    client
        .admin()
        .create_table(&TableSpec::new(&index_table, &["i"]))
        .await?;
    println!(
        "{trips} trips, every 20th disputed, on HBase; join batches of {batch}; median of {runs}"
    );
    let cost = rowkey_fixtures::join_bench::join(
        client.table(&trips_table),
        client.table(&index_table),
        trips,
        batch,
        runs,
    )
    .await?;
    cost.print();
    client.admin().delete_table(&trips_table).await?;
    client.admin().delete_table(&index_table).await?;
    Ok(())
}
