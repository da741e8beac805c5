//! Bounded memory, proven with a counting allocator: the peak heap while
//! a 120-bucket query streams 20,000 rows and while it streams 200,000 is
//! the same, on the emulator and on MemStore.

use futures::StreamExt;
use rowkey::store::{Cell, MemStore, Row, Store};
use rowkey::RowKey;
use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::alloc::{live_bytes, peak_bytes, reset_peak, Counting};
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::layouts::Ledger;

#[global_allocator]
static HEAP: Counting = Counting;

/// `n` distinct ledger rows.
fn rows(n: usize) -> Vec<Row> {
    let mut keys: Vec<Vec<u8>> = Ledger::rows(n * 11 / 10)
        .iter()
        .map(|r| r.to_vec().unwrap())
        .collect();
    keys.sort();
    keys.dedup();
    keys.truncate(n);
    assert_eq!(keys.len(), n, "the generator gives enough distinct keys");
    keys.into_iter()
        .map(|k| Row::new(k, vec![Cell::new("d", "amount", "12.50")]))
        .collect()
}

/// Streams every row of the all-bucket query: (rows, peak heap bytes above
/// what was live before).
async fn stream_all(store: &impl Store) -> (usize, usize) {
    let plan = Ledger::scan().plan().unwrap();
    reset_peak();
    let before = live_bytes();
    let mut rows = store.query(&plan);
    let mut n = 0;
    while let Some(row) = rows.next().await {
        row.unwrap();
        n += 1;
    }
    drop(rows);
    (n, peak_bytes().saturating_sub(before))
}

fn check(store: &str, small: (usize, usize), large: (usize, usize)) {
    eprintln!(
        "{store}: peak heap while streaming {} rows: {} KiB; {} rows: {} KiB",
        small.0,
        small.1 / 1024,
        large.0,
        large.1 / 1024
    );
    assert_eq!((small.0, large.0), (20_000, 200_000));
    // Ten times the rows, not more memory: at most a quarter more, or
    // 256 KiB, whichever is larger (allocator and buffer noise).
    let allowed = small.1 + (small.1 / 4).max(256 << 10);
    assert!(
        large.1 <= allowed,
        "{store}: the peak grew with the row count: {} vs {} bytes",
        large.1,
        small.1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streaming_a_query_holds_bounded_memory() {
    let emu = Emulator::start();
    let admin = BigtableAdmin::connect_emulator(&emu.host, "p", "i").unwrap();
    let mut peaks = Vec::new();
    for n in [20_000, 200_000] {
        let name = format!("ledger{n}");
        admin
            .create_table(&TableSpec::new(&name, &["d"]).splits(&Ledger::split_keys()))
            .await
            .unwrap();
        let store = BigtableStore::connect_emulator(&emu.host, "p", "i", &name)
            .await
            .unwrap();
        store.write_rows(rows(n)).await.unwrap();
        peaks.push(stream_all(&store).await);
    }
    check("BigtableStore (emulator)", peaks[0], peaks[1]);

    let mut peaks = Vec::new();
    for n in [20_000, 200_000] {
        let store = MemStore::new();
        store.write_rows(rows(n)).await.unwrap();
        peaks.push(stream_all(&store).await);
    }
    check("MemStore", peaks[0], peaks[1]);
}
