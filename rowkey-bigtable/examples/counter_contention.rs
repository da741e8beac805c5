//! One contended counter: how many increments a second it takes on
//! MemStore and on the Bigtable emulator, from 1 task and from 8 tasks at
//! once (each `StoreExt::increment` one `ReadModifyWriteRow`), the median
//! of several runs, each on a fresh counter (every count checked).
//!
//! Run: `cargo run --release -p rowkey-bigtable --example counter_contention`
//! (`-- --each N --runs R`: increments per task, runs).

use rowkey::store::MemStore;
use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::bench::{arg, median};
use rowkey_fixtures::conformance::contention::time_increments;
use rowkey_fixtures::emulator::Emulator;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (each, runs) = (arg("--each", 1000) as u64, arg("--runs", 5).max(1));
    let emu = Emulator::start();
    BigtableAdmin::connect_emulator(&emu.host, "p", "i")?
        .create_table(&TableSpec::new("counters", &["d"]))
        .await?;
    let bigtable = BigtableStore::connect_emulator(&emu.host, "p", "i", "counters").await?;
    let memory = MemStore::new();
    println!("| store | tasks | increments | median time | increments/s |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for tasks in [1u64, 8] {
        let mut mem_times = Vec::new();
        let mut bt_times = Vec::new();
        for run in 0..runs {
            let name = format!("c-{tasks}-{run}");
            mem_times.push(time_increments(&memory, &name, tasks, each).await);
            bt_times.push(time_increments(&bigtable, &name, tasks, each).await);
        }
        for (store, times) in [("MemStore", &mem_times), ("Bigtable emulator", &bt_times)] {
            let m = median(times);
            let n = tasks * each;
            println!(
                "| {store} | {tasks} | {n} | {m:.2?} | {:.0} |",
                n as f64 / m.as_secs_f64()
            );
        }
    }
    Ok(())
}
