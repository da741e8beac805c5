//! Bounded memory, proven with a counting allocator: the peak heap while
//! a 120-bucket query streams 20,000 rows and while it streams 200,000 is
//! the same once the query's row budget is reached, on the emulator and on
//! MemStore; with the default budget (10,000 rows) the peak stays under a
//! bound set by the budget, not by the rows.

use futures::StreamExt;
use rowkey::store::{MemStore, QueryOptions, Store, StoreExt};
use rowkey::RowKey;
use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::alloc::{live_bytes, peak_bytes, reset_peak, Counting};
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::layouts::Ledger;

// A test binary of its own, not a module of `tests/it/`: the peak heap
// measured here is the whole process's, and tests running on other
// threads of one shared binary would add their allocations to it.
#[global_allocator]
static HEAP: Counting = Counting;

/// A budget both tables reach: 2,000 rows.
fn small() -> QueryOptions {
    QueryOptions::default().buffer_rows(2_000)
}

/// Streams every row of the all-bucket query: (rows, peak heap bytes above
/// what was live before).
async fn stream_all(store: &impl Store, options: QueryOptions) -> (usize, usize) {
    let plan = Ledger::scan().plan().unwrap();
    reset_peak();
    let before = live_bytes();
    let mut rows = store.query_with(&plan, options);
    let mut n = 0;
    while let Some(row) = rows.next().await {
        row.unwrap();
        n += 1;
    }
    drop(rows);
    (n, peak_bytes().saturating_sub(before))
}

/// `peaks`: (rows, peak) for 20,000 and 200,000 rows with a 2,000-row
/// budget, then with the default budget.
fn check(store: &str, peaks: &[(usize, usize)]) {
    let [small, large, default_small, default_large] = peaks else {
        panic!("four measurements");
    };
    eprintln!(
        "{store}, budget 2,000 rows: peak heap while streaming {} rows: {} KiB; {} rows: {} KiB",
        small.0,
        small.1 / 1024,
        large.0,
        large.1 / 1024
    );
    eprintln!(
        "{store}, default budget (10,000 rows): {} rows: {} KiB; {} rows: {} KiB",
        default_small.0,
        default_small.1 / 1024,
        default_large.0,
        default_large.1 / 1024
    );
    // With the defaults the bound is the budget's: about a KiB per row
    // (a row, its cells, their share of transport buffers), plus 4 MiB.
    let bound = 10_000 * 1024 + (4 << 20);
    assert!(
        default_large.1 <= bound,
        "{store}: {} bytes, over the default budget's bound of {bound}",
        default_large.1
    );
    assert_eq!((small.0, large.0), (20_000, 200_000));
    assert_eq!((default_small.0, default_large.0), (20_000, 200_000));
    // Ten times the rows, not ten times the memory: at most half as much
    // again, or 1 MiB, whichever is larger (what HTTP/2 holds in flight
    // depends on timing; growing with the rows would be ~10x).
    let allowed = small.1 + (small.1 / 2).max(1 << 20);
    assert!(
        large.1 <= allowed,
        "{store}: the peak grew with the row count: {} vs {} bytes",
        large.1,
        small.1
    );
}

/// Loads 20,000 and 200,000 ledger rows into the stores `table` makes,
/// then streams each with the small and the default budget.
async fn measure<S: Store, F: std::future::Future<Output = S>>(
    store: &str,
    mut table: impl FnMut(usize) -> F,
) {
    let mut tables = Vec::new();
    for n in [20_000, 200_000] {
        let t = table(n).await;
        t.write_rows(Ledger::distinct_rows(n)).await.unwrap();
        tables.push(t);
    }
    let mut peaks = Vec::new();
    for options in [small(), QueryOptions::default()] {
        for t in &tables {
            peaks.push(stream_all(t, options).await);
        }
    }
    check(store, &peaks);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streaming_a_query_holds_bounded_memory() {
    measure("MemStore", |_| async { MemStore::new() }).await;

    let emu = Emulator::start();
    let admin = BigtableAdmin::connect_emulator(&emu.host, "p", "i").unwrap();
    let (admin, host) = (&admin, &emu.host);
    measure("BigtableStore (emulator)", |n| async move {
        let name = format!("ledger{n}");
        admin
            .create_table(&TableSpec::new(&name, &["d"]).splits(&Ledger::split_keys()))
            .await
            .unwrap();
        BigtableStore::connect_emulator(host, "p", "i", &name)
            .await
            .unwrap()
    })
    .await;
}
