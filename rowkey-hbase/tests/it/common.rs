//! A brute-force model of what HBase's Thrift1 handler does with a
//! `TScan` (`scannerOpenWithScan`) and a `BatchMutation` (`mutateRows`),
//! over a sorted set of keys, from HBase's source:
//!
//! - `Scan.withStartRow(start)` is inclusive and `withStopRow(stop)`
//!   exclusive; an empty start row is the first row of the table and an
//!   empty stop row its end. Both are refused over 32767 bytes
//!   (`IllegalArgumentException`).
//! - Reversed (`setReversed(true)`), the scan goes from the start row
//!   (inclusive; empty: the last row) down to the stop row (exclusive;
//!   empty: the first row).
//! - HBase 1.x reads a scan whose non-empty start and stop rows are equal
//!   as a get of that row (`Scan.isGetScan`).
//! - Every other `TScan` field that is set changes the scan; the model
//!   refuses them.
//! - `mutateRows` splits each column at its first `:` (`parseColumn`).
#![allow(dead_code)]

use hbase_thrift::hbase::{BatchMutation, Mutation, TScan};
use std::collections::BTreeSet;

/// The keys of a table, sorted as HBase sorts them.
pub type Table = BTreeSet<Vec<u8>>;

/// HBase's longest key.
pub const MAX_KEY: usize = 32767;

/// How a server reads a scan's bounds. HBase's is [`HBASE`]; the others
/// check that the reversed reads do not depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    pub start_inclusive: bool,
    pub stop_inclusive: bool,
}

/// HBase's: start row inclusive, stop row exclusive.
pub const HBASE: Reading = Reading {
    start_inclusive: true,
    stop_inclusive: false,
};

/// Every reading of the bounds.
pub const READINGS: [Reading; 4] = [
    HBASE,
    Reading {
        start_inclusive: false,
        stop_inclusive: false,
    },
    Reading {
        start_inclusive: true,
        stop_inclusive: true,
    },
    Reading {
        start_inclusive: false,
        stop_inclusive: true,
    },
];

/// Panics unless every field but the rows and the direction is `None`
/// (destructured in full: a new field fails to compile here).
pub fn assert_only_rows(scan: &TScan) {
    let TScan {
        start_row: _,
        stop_row: _,
        timestamp,
        columns,
        caching,
        filter_string,
        batch_size,
        sort_columns,
        reversed,
        cache_blocks,
    } = scan;
    assert_eq!(*timestamp, None, "{scan:?}");
    assert_eq!(*columns, None, "{scan:?}");
    assert_eq!(*caching, None, "{scan:?}");
    assert_eq!(*filter_string, None, "{scan:?}");
    assert_eq!(*batch_size, None, "{scan:?}");
    assert_eq!(*sort_columns, None, "{scan:?}");
    assert_eq!(*cache_blocks, None, "{scan:?}");
    assert!(matches!(reversed, None | Some(true)), "{scan:?}");
}

/// The keys HBase returns for `scan`, in the order it returns them.
pub fn scan(table: &Table, scan: &TScan, reading: Reading) -> Vec<Vec<u8>> {
    assert_only_rows(scan);
    let start = scan.start_row.as_deref().filter(|r| !r.is_empty());
    let stop = scan.stop_row.as_deref().filter(|r| !r.is_empty());
    for row in [start, stop].into_iter().flatten() {
        assert!(
            row.len() <= MAX_KEY,
            "Scan refuses a row of {} bytes",
            row.len()
        );
    }
    if let (Some(a), Some(b)) = (start, stop) {
        if a == b {
            // HBase 1.x's get scan.
            return table.get(a).into_iter().cloned().collect();
        }
    }
    let reversed = scan.reversed == Some(true);
    let after_start = |k: &[u8]| {
        start.is_none_or(|s| match (reversed, reading.start_inclusive) {
            (false, true) => k >= s,
            (false, false) => k > s,
            (true, true) => k <= s,
            (true, false) => k < s,
        })
    };
    let before_stop = |k: &[u8]| {
        stop.is_none_or(|s| match (reversed, reading.stop_inclusive) {
            (false, false) => k < s,
            (false, true) => k <= s,
            (true, false) => k > s,
            (true, true) => k >= s,
        })
    };
    let keep = |k: &&Vec<u8>| after_start(k) && before_stop(k);
    if reversed {
        table.iter().rev().filter(keep).cloned().collect()
    } else {
        table.iter().filter(keep).cloned().collect()
    }
}

/// One cell as `mutateRows` writes it: (family, qualifier, value), the
/// column split at its first `:` as `CellUtil.parseColumn` does.
pub fn written(m: &Mutation) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    assert_eq!(m.is_delete, Some(false));
    assert_eq!(m.write_to_w_a_l, Some(true));
    let column = m.column.as_ref().expect("a column");
    let colon = column
        .iter()
        .position(|&b| b == b':')
        .expect("a column without ':' writes nothing");
    (
        column[..colon].to_vec(),
        column[colon + 1..].to_vec(),
        m.value.clone().expect("a value"),
    )
}

/// The cells a `BatchMutation` writes, sorted as HBase stores them (by
/// family, then qualifier; the last write of a column wins).
pub fn written_cells(b: &BatchMutation) -> Vec<(Vec<u8>, Vec<u8>, Vec<u8>)> {
    let mut cells: Vec<_> = b.mutations.iter().flatten().map(written).collect();
    cells.reverse();
    cells.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    cells.dedup_by(|a, b| (&a.0, &a.1) == (&b.0, &b.1));
    cells
}
