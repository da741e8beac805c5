//! A walk in pages on the emulator: one workspace of a team-chat table,
//! 80,000 messages over 32 salt buckets (the salt hashes workspace and
//! channel, so a workspace spans every bucket), walked in pages of 100
//! through `StoreExt::page` with its cursors, against the same rows read
//! as one query (`rowkey_fixtures::walk`). Prints each way's median wall
//! time, the ratio (goal: the walk at most 1.5x the query), the rows the
//! reads yielded (a counting store), and a probe of what one read costs
//! the emulator: it gathers every row of a request's ranges before it
//! applies the request's limit, so a read of 4 rows from the start of a
//! bucket of 2,500 costs about what reading the bucket would.
//!
//! Then issue 41's ride-hailing walk: one city's trips over a day
//! through an IN-list of its 400 drivers (400 ranges of a few rows), in
//! pages of 50, against one query (`rowkey_fixtures::walk_in_list`).
//!
//! Run: `cargo run --release -p rowkey-bigtable --example page_walk`
//! (`-- --rows N --page P --in-list-page P --runs R`).

use futures::TryStreamExt;
use rowkey::store::{Row, Store};
use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::bench::arg;
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::{walk, walk_in_list};
use std::time::Instant;

/// What one read of 4 rows costs the emulator, from the start of a
/// bucket of 2,500 rows to its end, and to its 10th row: the emulator
/// gathers every row of a request's ranges before it applies the limit,
/// so the first costs as much as reading the whole bucket would.
async fn probe<const N: usize>(
    store: &BigtableStore,
    plan: &rowkey::scan::ScanPlan<N>,
) -> Result<(), Box<dyn std::error::Error>> {
    use rowkey::store::{KeyRange, ReadRequest};
    let range = plan.ranges().next().expect("a bucket");
    let whole = KeyRange::from(&range);
    let keys: Vec<Row> = store
        .read_rows(ReadRequest::new([whole.clone()]).with_limit(11))
        .try_collect()
        .await?;
    let short = KeyRange::new(whole.start.clone(), Some(keys[10].key.clone()));
    for (name, range) in [("to its end", whole), ("to its 10th row", short)] {
        let started = Instant::now();
        for _ in 0..50 {
            let _: Vec<Row> = store
                .read_rows(ReadRequest::new([range.clone()]).with_limit(4))
                .try_collect()
                .await?;
        }
        println!(
            "  a read of 4 rows from a bucket {name}: {:>8.2?}",
            started.elapsed() / 50
        );
    }
    Ok(())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = arg("--rows", 80_000);
    let page = arg("--page", 100).max(1);
    let runs = arg("--runs", 5).max(1);
    let emulator = Emulator::start();
    BigtableAdmin::connect_emulator(&emulator.host, "p", "i")?
        .create_table(&TableSpec::new("chat", &["d"]))
        .await?;
    let store = BigtableStore::connect_emulator(&emulator.host, "p", "i", "chat").await?;
    let plan = walk::Message::scan().workspace.eq(7).plan()?;
    println!(
        "{rows} messages of one workspace over {} buckets on the emulator; pages of {page}; median of {runs}",
        plan.len()
    );
    let cost = walk::walk(store.clone(), rows, page, runs).await?;
    cost.print(rows);
    probe(&store, &plan).await?;
    // Issue 41's ride-hailing walk: an IN-list of 400 drivers, 400 ranges.
    BigtableAdmin::connect_emulator(&emulator.host, "p", "i")?
        .create_table(&TableSpec::new("trips", &["d"]))
        .await?;
    let trips = BigtableStore::connect_emulator(&emulator.host, "p", "i", "trips").await?;
    let in_list_page = arg("--in-list-page", 50).max(1);
    let (cost, walked) = walk_in_list::walk_in_list(trips, in_list_page, runs).await?;
    println!(
        "one city's trips over a day, an IN-list of {} drivers ({} ranges, {walked} rows); pages of {in_list_page}; median of {runs}",
        walk_in_list::DRIVERS,
        walk_in_list::DRIVERS
    );
    cost.print(walked);
    drop(emulator);
    Ok(())
}
