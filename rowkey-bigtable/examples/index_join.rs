//! An index join on the emulator against its parts
//! (`rowkey_fixtures::join_bench`): 100,000 trips, a sparse index of
//! 5,000 of them; the index read, the same main rows by one batched read
//! (one `ReadRows` with a row set of keys) and the join.
//!
//! Run: `cargo run --release -p rowkey-bigtable --example index_join`
//! (`-- --trips N --batch B --runs R`).

use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::bench::arg;
use rowkey_fixtures::emulator::Emulator;
use rowkey_store::DEFAULT_JOIN_BATCH;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let trips = arg("--trips", 100_000);
    let batch = arg("--batch", DEFAULT_JOIN_BATCH);
    let runs = arg("--runs", 7);
    let emu = Emulator::start();
    let admin = BigtableAdmin::connect_emulator(&emu.host, "p", "i")?;
    admin.create_table(&TableSpec::new("trips", &["d"])).await?;
    admin
        .create_table(&TableSpec::new("disputed", &["i"]))
        .await?;
    let main = BigtableStore::connect_emulator(&emu.host, "p", "i", "trips").await?;
    let index = BigtableStore::connect_emulator(&emu.host, "p", "i", "disputed").await?;
    println!("{trips} trips, every 20th disputed, on the emulator; join batches of {batch}; median of {runs}");
    let cost = rowkey_fixtures::join_bench::join(main, index, trips, batch, runs).await?;
    cost.print();
    Ok(())
}
