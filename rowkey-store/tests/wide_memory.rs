//! A wide row's cells read with bounded memory, proven with a counting
//! allocator: the peak heap while `read_cells` streams a 1,000,000-cell
//! row of a MemStore is the peak while it streams a 10,000-cell row, and
//! stays under a bound set by the page (4,096 cells), not by the row.
//! (The store's own copy of the row is live before the read starts and
//! not counted: only what the read adds is.)

use futures::executor::block_on;
use futures::StreamExt;
use rowkey::store::{MemStore, WideColumn, WideStoreExt};
use rowkey::RowKey;
use rowkey_fixtures::alloc::{live_bytes, peak_bytes, reset_peak, Counting};

// A test binary of its own: the peak measured is the whole process's.
#[global_allocator]
static HEAP: Counting = Counting;

#[derive(RowKey)]
struct Series {
    id: u32,
}

#[derive(RowKey, Debug, PartialEq)]
struct Point {
    at: u32,
}

const POINTS: WideColumn<Point, f64> = WideColumn::new("t");

/// Writes a row of `cells` points (in writes of 50,000), then streams it
/// holding one point at a time: the points read, and the peak heap above
/// what was live before the stream was made.
fn read_row(store: &MemStore, id: u32, cells: u32) -> (u32, usize) {
    let row = Series { id };
    for start in (0..cells).step_by(50_000) {
        let batch = (start..cells.min(start + 50_000)).map(|at| (Point { at }, f64::from(at)));
        block_on(store.put_cells(&row, &POINTS, batch)).expect("writing points");
    }
    reset_peak();
    let before = live_bytes();
    let mut read = 0u32;
    let mut points = store.read_cells(&row, &POINTS, POINTS.all());
    while let Some(point) = block_on(points.next()) {
        let (p, v) = point.expect("a point");
        assert_eq!((p.at, v), (read, f64::from(read)));
        read += 1;
    }
    drop(points);
    (read, peak_bytes().saturating_sub(before))
}

#[test]
fn a_million_cell_row_streams_in_the_memory_of_a_page() {
    let store = MemStore::new();
    let (small, small_peak) = read_row(&store, 1, 10_000);
    let (large, large_peak) = read_row(&store, 2, 1_000_000);
    assert_eq!((small, large), (10_000, 1_000_000));
    // A page of 4,096 cells: each a Cell (72 bytes) with its family,
    // qualifier and value on the heap, held by the read and its copy.
    const BOUND: usize = 4 << 20;
    eprintln!("peak above the start: 10,000 cells {small_peak} B, 1,000,000 cells {large_peak} B");
    assert!(
        small_peak < BOUND && large_peak < BOUND,
        "{small_peak} / {large_peak}"
    );
    // The same pages, whatever the row's size (a margin for the
    // allocator's rounding of the buffers).
    assert!(
        large_peak <= small_peak + small_peak / 4,
        "{small_peak} -> {large_peak}"
    );
}
