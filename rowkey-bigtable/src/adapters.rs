//! Adapters for code that keeps its own bigtable_rs client: rowkey's
//! ranges and plans as bigtable_rs request types, bigtable_rs's rows as
//! [`Row`]s, and rows as `MutateRows` entries.
//!
//! They are traits and functions rather than `From` impls because Rust's
//! orphan rule allows no `impl From<&ScanRange> for RowRange` outside the
//! crates that define one or the other.
//!
//! ```
//! use rowkey_bigtable::adapters::{ToRowRange, ToRowSet};
//! use rowkey::RowKey;
//! use bigtable_rs::google::bigtable::v2::row_range::{EndKey, StartKey};
//!
//! #[derive(RowKey)]
//! struct Op { #[salt(buckets = 4, binary)] user: u32, seq: u32 }
//!
//! let plan = Op::scan().plan()?;
//! let set = plan.to_row_set().expect("the plan has ranges");
//! // Four buckets whose ranges touch: one range in the set, [00, 04).
//! assert_eq!(set.row_ranges.len(), 1);
//! assert_eq!(set.row_ranges[0].start_key, Some(StartKey::StartKeyClosed(vec![0])));
//! assert_eq!(set.row_ranges[0].end_key, Some(EndKey::EndKeyOpen(vec![4])));
//! let range = plan.range(1).unwrap().to_row_range();
//! assert_eq!(range.start_key, Some(StartKey::StartKeyClosed(vec![1])));
//! assert_eq!(range.end_key, Some(EndKey::EndKeyOpen(vec![2])));
//! // An empty plan has no row set: an empty one would read the whole table.
//! assert!(rowkey::scan::ScanPlan::<8>::empty().to_row_set().is_none());
//! # Ok::<(), rowkey::EncodeError>(())
//! ```

use crate::rowset::{regex_filter, row_set};
use bigtable_rs::bigtable::RowCell;
use bigtable_rs::google::bigtable::v2::mutate_rows_request::Entry;
use bigtable_rs::google::bigtable::v2::row_range::{EndKey, StartKey};
use bigtable_rs::google::bigtable::v2::{RowFilter, RowRange, RowSet};
use rowkey_core::scan::{FuzzyFilter, FuzzyKey, ScanPlan, ScanRange};
use rowkey_store::{Cell, KeyLimit, KeyRange, ReadRequest, Row, StoreError};

/// A range as a bigtable_rs `RowRange`: start closed, end open (or
/// unbounded), exactly the range's bounds.
pub trait ToRowRange {
    /// The `RowRange`.
    fn to_row_range(&self) -> RowRange;
}

impl<const N: usize> ToRowRange for ScanRange<N> {
    fn to_row_range(&self) -> RowRange {
        KeyRange::from(self).to_row_range()
    }
}

impl ToRowRange for KeyRange {
    fn to_row_range(&self) -> RowRange {
        RowRange {
            start_key: Some(StartKey::StartKeyClosed(self.start.clone())),
            end_key: self.stop.clone().map(EndKey::EndKeyOpen),
        }
    }
}

/// Ranges as one bigtable_rs `RowSet`, for one multi-range `ReadRows`.
/// `None` when there are no ranges: Bigtable reads the whole table for an
/// empty row set, so there is none to send.
pub trait ToRowSet {
    /// The `RowSet`, or `None` for no ranges.
    fn to_row_set(&self) -> Option<RowSet>;
}

impl<const N: usize> ToRowSet for ScanPlan<N> {
    fn to_row_set(&self) -> Option<RowSet> {
        ReadRequest::plan(self).to_row_set()
    }
}

impl ToRowSet for ReadRequest {
    fn to_row_set(&self) -> Option<RowSet> {
        (!self.ranges().is_empty()).then(|| row_set(self))
    }
}

/// A fuzzy key as a bigtable_rs `RowFilter`: a `RowKeyRegexFilter` of
/// its [`bigtable_regex`](FuzzyKey::bigtable_regex), which the emulator
/// was checked to evaluate exactly as [`FuzzyKey::matches`] does. For a
/// plan, `None` when it has no fuzzy key; for a request, its fuzzy key
/// then its [columns](ReadRequest::with_columns) (one exact
/// `ColumnRangeFilter` each), chained, `None` when it has neither. Send
/// it with the plan's [`ToRowSet`]; `BigtableStore` does, on every page
/// and retry.
///
/// ```
/// use bigtable_rs::google::bigtable::v2::row_filter::Filter;
/// use rowkey::scan::FuzzyKey;
/// use rowkey_bigtable::adapters::ToRowFilter;
///
/// let mut fuzzy = FuzzyKey::<8>::new();
/// fuzzy.push_free(2)?;
/// fuzzy.push_fixed(b"\n")?;
/// let filter = fuzzy.to_row_filter().unwrap();
/// assert_eq!(filter.filter, Some(Filter::RowKeyRegexFilter(br"(?s)^\C\C\x0A\C*".to_vec())));
/// # Ok::<(), rowkey::scan::FuzzyKeyFull>(())
/// ```
pub trait ToRowFilter {
    /// The `RowFilter`, or `None` for nothing to filter.
    fn to_row_filter(&self) -> Option<RowFilter>;
}

impl<const N: usize> ToRowFilter for FuzzyKey<N> {
    fn to_row_filter(&self) -> Option<RowFilter> {
        Some(regex_filter(self.bigtable_regex()))
    }
}

impl ToRowFilter for FuzzyFilter {
    fn to_row_filter(&self) -> Option<RowFilter> {
        Some(regex_filter(self.bigtable_regex()))
    }
}

impl<const N: usize> ToRowFilter for ScanPlan<N> {
    fn to_row_filter(&self) -> Option<RowFilter> {
        self.fuzzy().and_then(ToRowFilter::to_row_filter)
    }
}

impl ToRowFilter for ReadRequest {
    fn to_row_filter(&self) -> Option<RowFilter> {
        // Every version of each cell: the caller reads as it chooses.
        crate::rowset::row_filter(self, false)
    }
}

/// A row as bigtable_rs's `read_rows` returns it, as a [`Row`] (labels
/// and timestamps dropped; the first cell of each column kept, which is
/// the newest).
pub fn row_from_bigtable(key: Vec<u8>, cells: Vec<RowCell>) -> Row {
    let mut row = Row::new(key, Vec::with_capacity(cells.len()));
    for c in cells {
        let older = row
            .cells
            .iter()
            .any(|x| x.family == c.family_name && x.qualifier == c.qualifier);
        if !older {
            row.cells.push(Cell {
                family: c.family_name,
                qualifier: c.qualifier,
                value: c.value,
            });
        }
    }
    row
}

/// bigtable_rs's `read_rows` result as [`Row`]s.
pub fn rows_from_bigtable(rows: Vec<(Vec<u8>, Vec<RowCell>)>) -> Vec<Row> {
    rows.into_iter()
        .map(|(key, cells)| row_from_bigtable(key, cells))
        .collect()
}

/// A row as a `MutateRows` entry that sets its cells (server timestamps),
/// after the checks every store makes: a non-empty key within 4 KiB, and
/// at least one cell.
pub fn to_entry(row: Row) -> Result<Entry, StoreError> {
    KeyLimit::BIGTABLE.check_rows(std::slice::from_ref(&row))?;
    Ok(crate::write::entry(row, None))
}
