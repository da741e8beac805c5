//! One contended counter on a real HBase (2.6.1 standalone, its Thrift 1
//! server): how many increments a second it takes from 1 task and from 8
//! tasks at once (each `StoreExt::increment` one `atomicIncrement` call),
//! the median of several runs, each on a fresh counter (every count
//! checked).
//!
//! Run: `cargo run --release -p rowkey-hbase --example hbase_counter_contention`
//! (`-- --each N --runs R`). It starts a server of its own, or uses the
//! Thrift 1 server at `HBASE_THRIFT` when set.

use rowkey_fixtures::bench::{arg, median};
use rowkey_fixtures::conformance::contention::time_increments;
use rowkey_hbase::{ClientOptions, HBaseClient};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (each, runs) = (arg("--each", 1000) as u64, arg("--runs", 5).max(1));
    let (address, _own) = match std::env::var("HBASE_THRIFT") {
        Ok(address) => (address, None),
        Err(_) => {
            let hbase = rowkey_fixtures::hbase::HBase::start();
            println!("HBase started in {:.1?}", hbase.startup);
            (hbase.thrift.clone(), Some(hbase))
        }
    };
    let client = HBaseClient::connect_with(&address, ClientOptions::default()).await?;
    let admin = client.admin();
    let table = format!("counters_{}", std::process::id());
    admin
        .create_table(&rowkey::store::admin::TableSpec::new(&table, &["d"]))
        .await?;
    let store = client.table(&table);
    println!("| store | tasks | increments | median time | increments/s |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for tasks in [1u64, 8] {
        let mut times = Vec::new();
        for run in 0..runs {
            let name = format!("c-{tasks}-{run}");
            times.push(time_increments(&store, &name, tasks, each).await);
        }
        let m = median(&times);
        let n = tasks * each;
        println!(
            "| HBase (Thrift 1) | {tasks} | {n} | {m:.2?} | {:.0} |",
            n as f64 / m.as_secs_f64()
        );
    }
    admin.delete_table(&table).await?;
    Ok(())
}
