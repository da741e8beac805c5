//! Bounded memory on a real HBase, proven with a counting allocator (the
//! Bigtable tests' `memory.rs` and `load_memory.rs`, for `HBaseStore`):
//!
//! - reading: the peak heap while the 120-bucket ledger query streams
//!   20,000 rows and while it streams 200,000, one row held at a time, is
//!   the same once the query's row budget is reached, and stays under a
//!   bound set by the default budget, not by the rows; so is the peak of
//!   `read_rows` of the whole table (pages of 1,000 rows);
//! - loading: the peak heap while `put_records` loads 20,000 trades and
//!   while it loads 100,000 (made as the load asks for them) is the same
//!   in small batches, and stays under a bound set by the batching with
//!   the defaults. Natively, the small batches load 500,000 trades too:
//!   1,000,000 rows with their index rows, at the peak of 20,000.
//!
//! - a wide row: the peak heap while `read_cells` streams a row of
//!   1,000,000 cells natively, 4,096 a request, is the peak while it
//!   streams one of 100,000.
//!
//! Each on both transports: through the Thrift 1 server and natively. The
//! server is `rowkey_fixtures::hbase::shared()`, a JVM of its own: the
//! heap counted is this process's (the store, its pool's threads and
//! hbase-thrift's buffers, or the native client's runtime, connections
//! and pages).

use futures::StreamExt;
use rowkey::store::admin::TableSpec;
use rowkey::store::{
    IndexedStore, KeyRange, PutRecordsOptions, QueryOptions, ReadRequest, RowStream, Store,
    StoreExt,
};
use rowkey_fixtures::alloc::{live_bytes, peak_bytes, reset_peak, Counting};
use rowkey_fixtures::layouts::{BuyerTrade, Ledger, Trade, T0};
use rowkey_hbase::{HBaseClient, HBaseStore};
use std::sync::{Mutex, PoisonError};

// A test binary of its own, not a module of `tests/it/`: the peak heap
// measured is the whole process's, and tests running on other threads of
// one shared binary would add their allocations to it. The two tests
// here take turns for the same reason.
#[global_allocator]
static HEAP: Counting = Counting;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A client through the Thrift 1 server, or a native one.
async fn client(native: bool) -> HBaseClient {
    let address = if native {
        rowkey_fixtures::hbase::shared().zk_address()
    } else {
        std::env::var("ROWKEY_HBASE_DEV_THRIFT")
            .unwrap_or_else(|_| rowkey_fixtures::hbase::shared().thrift.clone())
    };
    HBaseClient::connect(&address)
        .await
        .expect("a client of the test HBase")
}

/// A new table of `families`, named after the process and `what`.
async fn table(client: &HBaseClient, what: &str, families: &[&str]) -> HBaseStore {
    let way = if client.is_native() { "n" } else { "t" };
    let name = format!("mem{}_{way}{what}", std::process::id());
    client
        .admin()
        .create_table(&TableSpec::new(&name, families))
        .await
        .unwrap_or_else(|e| panic!("creating table {name}: {e:?}"));
    client.table(&name)
}

/// Streams `rows`, holding one row at a time: (rows, peak heap bytes
/// above what was live before the stream was made).
async fn drain(make: impl FnOnce() -> RowStream) -> (usize, usize) {
    reset_peak();
    let before = live_bytes();
    let mut rows = make();
    let mut n = 0;
    while let Some(row) = rows.next().await {
        drop(row.expect("a row"));
        n += 1;
    }
    drop(rows);
    (n, peak_bytes().saturating_sub(before))
}

fn kib(bytes: usize) -> usize {
    bytes / 1024
}

/// Ten times the rows, not ten times the memory: at most half as much
/// again, or 1 MiB, whichever is larger (growing with the rows would be
/// about tenfold).
fn same_peak(what: &str, small: (usize, usize), large: (usize, usize)) {
    let unit = if what.contains("wide row") {
        "cells"
    } else {
        "rows"
    };
    eprintln!(
        "{what}: peak heap while streaming {} {unit}: {} KiB; {} {unit}: {} KiB",
        small.0,
        kib(small.1),
        large.0,
        kib(large.1)
    );
    let allowed = small.1 + (small.1 / 2).max(1 << 20);
    assert!(
        large.1 <= allowed,
        "{what}: the peak grew with the rows: {} vs {} bytes",
        large.1,
        small.1
    );
}

/// Runs `test` on a runtime of its own, never beside the other test.
fn one_at_a_time(test: impl std::future::Future<Output = ()>) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(test);
}

#[test]
fn reading_a_large_table_holds_bounded_memory() {
    one_at_a_time(reading(false));
}

#[test]
fn reading_a_large_table_natively_holds_bounded_memory() {
    one_at_a_time(reading(true));
}

#[test]
fn a_million_cell_row_streams_natively_in_the_memory_of_a_page() {
    one_at_a_time(wide_row());
}

/// A row of 100,000 cells and one of 1,000,000 (written 50,000 a put),
/// each streamed by `read_cells` 4,096 cells a request, one point held at
/// a time: the same peak.
async fn wide_row() {
    use rowkey::store::{WideColumn, WideStoreExt};
    use rowkey::RowKey;

    #[derive(RowKey)]
    struct Series {
        id: u32,
    }
    #[derive(RowKey)]
    struct Point {
        at: u32,
    }
    const POINTS: WideColumn<Point, u64> = WideColumn::new("t");

    let client = client(true).await;
    let store = table(&client, "wide", &["t"]).await;
    let mut peaks = Vec::new();
    for (id, cells) in [(1u32, 100_000u32), (2, 1_000_000)] {
        let row = Series { id };
        for start in (0..cells).step_by(50_000) {
            let batch = (start..cells.min(start + 50_000)).map(|at| (Point { at }, u64::from(at)));
            store
                .put_cells(&row, &POINTS, batch)
                .await
                .expect("writing points");
        }
        reset_peak();
        let before = live_bytes();
        let mut points = store.read_cells(&row, &POINTS, POINTS.all());
        let mut read = 0u32;
        while let Some(point) = points.next().await {
            let (p, v) = point.expect("a point");
            assert_eq!(
                (p.at, v),
                (read, u64::from(read)),
                "points in qualifier order"
            );
            read += 1;
        }
        drop(points);
        assert_eq!(read, cells);
        peaks.push((cells as usize, peak_bytes().saturating_sub(before)));
    }
    same_peak("a wide row, natively", peaks[0], peaks[1]);
}

async fn reading(native: bool) {
    let client = client(native).await;
    let sizes = [20_000, 200_000];
    let mut stores = Vec::new();
    for n in sizes {
        let store = table(&client, &format!("ledger{n}"), &["d"]).await;
        store.write_rows(Ledger::distinct_rows(n)).await.unwrap();
        stores.push(store);
    }
    let plan = Ledger::scan().plan().unwrap();
    // A budget both tables reach, 4,000 rows, in pages both reach: of at
    // most 100 rows (the 20,000-row table's 120 buckets hold 166 rows
    // each; with pages of 1,000 only the larger table would read ahead
    // whole pages, holding more rows at once within the same budget).
    let small_budget = QueryOptions::default().buffer_rows(4_000).page_rows(100);
    let mut peaks = Vec::new();
    for options in [small_budget, QueryOptions::default()] {
        for store in &stores {
            peaks.push(drain(|| Box::pin(store.query_with(&plan, options))).await);
        }
    }
    // The whole table in one read: pages of 1,000 rows, one at a time.
    for store in &stores {
        let whole = ReadRequest::new([KeyRange::new(Vec::new(), None)]);
        peaks.push(drain(|| store.read_rows(whole)).await);
    }
    for store in &stores {
        client
            .admin()
            .delete_table(store.table_name())
            .await
            .unwrap();
    }
    let [small, large, default_small, default_large, whole_small, whole_large] = peaks[..] else {
        unreachable!()
    };
    for (n, expected) in [
        small,
        large,
        default_small,
        default_large,
        whole_small,
        whole_large,
    ]
    .iter()
    .zip(sizes.iter().cycle())
    {
        assert_eq!(n.0, *expected);
    }
    same_peak("query, budget 4,000 rows, pages of 100", small, large);
    same_peak("read_rows of the whole table", whole_small, whole_large);
    eprintln!(
        "query, default budget (10,000 rows): {} rows: {} KiB; {} rows: {} KiB",
        default_small.0,
        kib(default_small.1),
        default_large.0,
        kib(default_large.1)
    );
    // With the defaults the bound is the budget's: about a KiB per row (a
    // row, its cells, hbase-thrift's copy of a page), plus 4 MiB.
    let bound = 10_000 * 1024 + (4 << 20);
    assert!(
        default_small.1 <= bound && default_large.1 <= bound,
        "query, default budget: {} and {} bytes, over the bound of {bound}",
        default_small.1,
        default_large.1
    );
}

/// `n` trades, each made when the load asks for it.
fn trades(n: u64) -> impl Iterator<Item = Trade> {
    (0..n).map(|i| Trade {
        seller_id: 1000 + (i % 50) as u32,
        buyer_id: 5000 + (i % 300) as u32,
        ts: T0 + i * 1_000,
        order_id: i,
    })
}

#[test]
fn a_bulk_load_holds_bounded_memory() {
    one_at_a_time(loading(false));
}

#[test]
fn a_bulk_load_natively_holds_bounded_memory() {
    one_at_a_time(loading(true));
}

async fn loading(native: bool) {
    let client = client(native).await;
    let small = PutRecordsOptions::default().batch_records(200).in_flight(2);
    for (options, name, bound, steady) in [
        (small, "batches of 200, 2 in flight", 2 << 20, true),
        // (4 + 2) batches of 1,000 trades, main and index rows, and the
        // calls' copies of 4 of them in flight.
        (PutRecordsOptions::default(), "the defaults", 8 << 20, false),
    ] {
        let mut peaks = Vec::new();
        // Natively, in small batches: a load of a million rows (500,000
        // trades and their index rows).
        let large_n = if native && steady { 500_000 } else { 100_000 };
        for n in [20_000, large_n] {
            let what = format!("{}_{n}", options.batch_records);
            let main = table(&client, &format!("trades{what}"), &["d"]).await;
            let index = table(&client, &format!("by_buyer{what}"), &["i"]).await;
            let store = IndexedStore::new(main.clone(), index.clone());
            reset_peak();
            let before = live_bytes();
            let done = store
                .put_records_with::<BuyerTrade, _>(trades(n), options, |_| {})
                .await
                .expect("the load");
            peaks.push((done.records, peak_bytes().saturating_sub(before)));
            for t in [&main, &index] {
                client.admin().delete_table(t.table_name()).await.unwrap();
            }
        }
        let [(n_small, small), (n_large, large)] = peaks[..] else {
            unreachable!()
        };
        eprintln!(
            "put_records, {name}: peak heap while loading {n_small} trades: {} KiB; {n_large} trades: {} KiB",
            kib(small),
            kib(large)
        );
        assert_eq!((n_small, n_large), (20_000, large_n));
        assert!(
            large <= bound && small <= bound,
            "put_records, {name}: {small} and {large} bytes, over the bound of {bound}"
        );
        // Five (or 25) times the records, not five times the memory.
        let allowed = small + (small / 2).max(1 << 20);
        assert!(
            !steady || large <= allowed,
            "put_records, {name}: the peak grew with the records: {large} vs {small} bytes"
        );
    }
}
