//! [`ReadRequest`]: the key ranges of one read, normalised, and where a
//! read resumes after the last row it delivered.

use core::fmt;
use rowkey_core::scan::{FuzzyFilter, ScanPlan, ScanRange};
use rowkey_core::KeyDisplay;

use crate::{CellSlice, Columns};

/// Keys from `start` (inclusive) to `stop` (exclusive; `None`: the end of
/// the table). An owned [`ScanRange`], as a client request carries it.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct KeyRange {
    /// The first key of the range.
    pub start: Vec<u8>,
    /// The first key after it; `None`: the end of the table.
    pub stop: Option<Vec<u8>>,
}

impl KeyRange {
    /// `[start, stop)`.
    pub fn new(start: impl Into<Vec<u8>>, stop: Option<Vec<u8>>) -> Self {
        KeyRange {
            start: start.into(),
            stop,
        }
    }

    /// The range holding exactly `key`: `[key, key 00)`.
    pub fn row(key: &[u8]) -> Self {
        KeyRange::new(key, Some(successor(key)))
    }

    /// Whether no key can be in the range.
    pub fn is_empty(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| *s <= self.start)
    }

    /// Whether `key` is in the range.
    pub fn contains(&self, key: &[u8]) -> bool {
        key >= self.start.as_slice() && self.stop.as_ref().is_none_or(|s| key < s.as_slice())
    }
}

impl<const N: usize> From<&ScanRange<N>> for KeyRange {
    fn from(r: &ScanRange<N>) -> Self {
        KeyRange::new(r.start(), r.stop().map(<[u8]>::to_vec))
    }
}

impl<const N: usize> From<ScanRange<N>> for KeyRange {
    fn from(r: ScanRange<N>) -> Self {
        KeyRange::from(&r)
    }
}

impl fmt::Debug for KeyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.stop {
            Some(stop) => write!(f, "[{}, {})", KeyDisplay(&self.start), KeyDisplay(stop)),
            None => write!(f, "[{}, end)", KeyDisplay(&self.start)),
        }
    }
}

/// `ranges` sorted and disjoint: empty ones dropped, overlapping and
/// touching ones joined.
pub(crate) fn normalise(ranges: Vec<KeyRange>) -> Vec<KeyRange> {
    let mut ranges: Vec<KeyRange> = ranges.into_iter().filter(|r| !r.is_empty()).collect();
    ranges.sort_by(|a, b| a.start.cmp(&b.start));
    let mut joined: Vec<KeyRange> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match joined.last_mut() {
            // Overlapping or touching: one range to the later stop.
            Some(last) if last.stop.as_ref().is_none_or(|s| r.start <= *s) => {
                last.stop = match (last.stop.take(), r.stop) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    _ => None,
                };
            }
            _ => joined.push(r),
        }
    }
    joined
}

/// The first key after `key`: `key` followed by `0x00`.
pub(crate) fn successor(key: &[u8]) -> Vec<u8> {
    let mut next = Vec::with_capacity(key.len() + 1);
    next.extend_from_slice(key);
    next.push(0);
    next
}

/// One read: sorted, disjoint key ranges (empty ones dropped, overlapping
/// and touching ones joined) and an optional row limit. Rows come back in
/// key order. A request with no ranges reads nothing: stores never send
/// it, because Bigtable reads the whole table for an empty row set.
///
/// ```
/// use rowkey::store::{KeyRange, ReadRequest};
/// let r = ReadRequest::new([
///     KeyRange::new("c", Some(b"d".to_vec())),
///     KeyRange::new("a", Some(b"b".to_vec())),
///     KeyRange::new("b", Some(b"c".to_vec())),
///     KeyRange::new("x", Some(b"x".to_vec())), // empty: dropped
/// ]);
/// assert_eq!(format!("{:?}", r.ranges()), "[[a, d)]");
/// // Resuming after "b\x01" reads the rest of the range only.
/// assert_eq!(format!("{:?}", r.after(b"b\x01").ranges()), r"[[b\x01\x00, d)]");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct ReadRequest {
    ranges: Vec<KeyRange>,
    limit: Option<u64>,
    reversed: bool,
    /// Only keys that match it (a store applies it before the limit).
    fuzzy: Option<FuzzyFilter>,
    /// Only these cells of each row, and only rows with one of them.
    columns: Option<Columns>,
    /// Only the cells of this slice of each row, and only rows with one.
    cells: Option<CellSlice>,
}

impl ReadRequest {
    /// A request for `ranges`, normalised.
    pub fn new(ranges: impl IntoIterator<Item = KeyRange>) -> Self {
        ReadRequest {
            ranges: normalise(ranges.into_iter().collect()),
            limit: None,
            reversed: false,
            fuzzy: None,
            columns: None,
            cells: None,
        }
    }

    /// The one row `key`.
    pub fn row(key: &[u8]) -> Self {
        ReadRequest::new([KeyRange::row(key)]).with_limit(1)
    }

    /// One range of a plan.
    pub fn range<const N: usize>(range: &ScanRange<N>) -> Self {
        ReadRequest::new([KeyRange::from(range)])
    }

    /// Every range of a plan in one request (rows in key order, bucket
    /// after bucket; backwards for a reversed plan), with the plan's limit
    /// and fuzzy key.
    pub fn plan<const N: usize>(plan: &ScanPlan<N>) -> Self {
        let mut r = ReadRequest::new(plan.ranges().map(KeyRange::from));
        r.reversed = plan.is_reversed();
        r.fuzzy = plan.fuzzy().map(FuzzyFilter::from);
        match plan.limit() {
            Some(l) => r.with_limit(l as u64),
            None => r,
        }
    }

    /// The same request read backwards: the same rows, last key first.
    /// Bigtable and HBase both read in reverse.
    ///
    /// ```
    /// use rowkey::store::{KeyRange, ReadRequest};
    /// let r = ReadRequest::new([KeyRange::new("a", Some(b"c".to_vec()))]).reversed();
    /// // After delivering "b\x01" backwards, what is left is below it.
    /// assert_eq!(format!("{:?}", r.after(b"b\x01").ranges()), r"[[a, b\x01)]");
    /// ```
    pub fn reversed(mut self) -> Self {
        self.reversed = !self.reversed;
        self
    }

    /// Whether rows come last key first.
    pub fn is_reversed(&self) -> bool {
        self.reversed
    }

    /// The same request, returning only the rows whose keys match `fuzzy`
    /// ([`FuzzyKey`](rowkey_core::scan::FuzzyKey) for how); the limit counts
    /// those rows. Resumed reads ([`after`](Self::after)) keep it.
    ///
    /// ```
    /// use rowkey::scan::FuzzyKey;
    /// use rowkey::store::{KeyRange, ReadRequest};
    ///
    /// let mut fuzzy = FuzzyKey::<4>::new();
    /// fuzzy.push_free(1)?;
    /// fuzzy.push_fixed(b"x")?;
    /// let r = ReadRequest::new([KeyRange::new("a", Some(b"c".to_vec()))]).with_fuzzy(fuzzy);
    /// assert!(r.contains(b"ax") && !r.contains(b"ay") && !r.contains(b"cx"));
    /// assert_eq!(r.after(b"ax").fuzzy(), r.fuzzy());
    /// # Ok::<(), rowkey::scan::FuzzyKeyFull>(())
    /// ```
    pub fn with_fuzzy(mut self, fuzzy: impl Into<FuzzyFilter>) -> Self {
        self.fuzzy = Some(fuzzy.into());
        self
    }

    /// The fuzzy key the rows must match, if any.
    pub fn fuzzy(&self) -> Option<&FuzzyFilter> {
        self.fuzzy.as_ref()
    }

    /// The same request, reading only `columns` of each row: a row's
    /// other cells are not returned, and a row with none of them is not
    /// returned at all (nor counted by the limit), as Bigtable's column
    /// filters and HBase's scan columns do. Resumed reads
    /// ([`after`](Self::after)) keep it. A record read asks for its own
    /// columns ([`Record::columns`](crate::Record::columns)).
    ///
    /// ```
    /// use rowkey::store::{Columns, KeyRange, ReadRequest};
    /// let r = ReadRequest::new([KeyRange::new("a", None)]).with_columns(Columns::new([("d", "v")]));
    /// assert!(r.columns().unwrap().contains("d", b"v"));
    /// assert_eq!(r.after(b"b").columns(), r.columns());
    /// ```
    pub fn with_columns(mut self, columns: Columns) -> Self {
        self.columns = Some(columns);
        self
    }

    /// The columns the read is restricted to; `None`: every cell.
    pub fn columns(&self) -> Option<&Columns> {
        self.columns.as_ref()
    }

    /// The same request, reading only the cells of `slice` in each row
    /// (one family, qualifier ranges, at most so many cells a row): a
    /// row's other cells are not returned, and a row with none of them is
    /// not returned at all (nor counted by the limit). With
    /// [`with_columns`](Self::with_columns) too, only the cells in both.
    /// Resumed reads ([`after`](Self::after)) keep it.
    ///
    /// ```
    /// use rowkey::store::{CellSlice, KeyRange, ReadRequest};
    /// let r = ReadRequest::new([KeyRange::new("a", None)])
    ///     .with_cells(CellSlice::family("t").prefix(b"\x01").per_row(10));
    /// assert!(r.wants_cell("t", b"\x01\x07") && !r.wants_cell("t", b"\x02"));
    /// assert_eq!(r.after(b"b").cells(), r.cells());
    /// ```
    pub fn with_cells(mut self, slice: CellSlice) -> Self {
        self.cells = Some(slice);
        self
    }

    /// The slice of each row's cells the read is restricted to, if any.
    pub fn cells(&self) -> Option<&CellSlice> {
        self.cells.as_ref()
    }

    /// Whether the request reads the cell `family:qualifier` of a row it
    /// reads: in its columns and its slice, when it has them (a slice's
    /// per-row cap aside).
    pub fn wants_cell(&self, family: &str, qualifier: &[u8]) -> bool {
        self.columns
            .as_ref()
            .is_none_or(|c| c.contains(family, qualifier))
            && self
                .cells
                .as_ref()
                .is_none_or(|s| s.contains(family, qualifier))
    }

    /// Whether no cell of any row can be read: no column asked for, or an
    /// empty slice.
    pub fn reads_no_cell(&self) -> bool {
        self.columns.as_ref().is_some_and(Columns::is_empty)
            || self.cells.as_ref().is_some_and(CellSlice::is_empty)
            || self.cells.as_ref().is_some_and(|s| {
                self.columns
                    .as_ref()
                    .is_some_and(|c| c.iter().all(|(f, q)| !s.contains(f, q)))
            })
    }

    /// The same request, with at most `limit` rows.
    pub fn with_limit(mut self, limit: u64) -> Self {
        self.limit = Some(limit);
        self
    }

    /// The ranges: sorted and disjoint.
    pub fn ranges(&self) -> &[KeyRange] {
        &self.ranges
    }

    /// The row limit, if any.
    pub fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// Whether the request can return no row: no ranges, or a limit of 0.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty() || self.limit == Some(0)
    }

    /// Whether the request selects `key`: it is in one of the ranges and
    /// matches the [fuzzy key](Self::with_fuzzy), if any.
    pub fn contains(&self, key: &[u8]) -> bool {
        self.fuzzy.as_ref().is_none_or(|f| f.matches(key))
            && self.ranges.iter().any(|r| r.contains(key))
    }

    /// The rest of the request once the rows up to `key` have been
    /// delivered: only keys strictly after `key` in reading order (below
    /// it, when reversed). A retried read resumes here, so no row is
    /// delivered twice and none is skipped. The limit is not changed: see
    /// [`ReadRequest::after_rows`].
    pub fn after(&self, key: &[u8]) -> Self {
        if self.reversed {
            return self.before(key);
        }
        self.above(key)
    }

    /// The rest of the request from `key` on, in reading order, `key`
    /// included: where a read resumes at a row it must read again.
    pub(crate) fn at_and_after(&self, key: &[u8]) -> Self {
        if self.reversed {
            return self.before(&successor(key));
        }
        let ranges = self
            .ranges
            .iter()
            .filter(|r| r.stop.as_ref().is_none_or(|s| s.as_slice() > key))
            .map(|r| KeyRange {
                start: r.start.clone().max(key.to_vec()),
                stop: r.stop.clone(),
            })
            .collect();
        self.with_ranges(ranges, self.limit)
    }

    /// Only the keys that come before `key` in reading order: strictly
    /// below it, or strictly above it when reversed. A read of a window of
    /// a range, up to a key known to come later.
    pub(crate) fn until(&self, key: &[u8]) -> Self {
        if self.reversed {
            return self.above(key);
        }
        self.before(key)
    }

    /// Only the keys strictly above `key`.
    fn above(&self, key: &[u8]) -> Self {
        let next = successor(key);
        let ranges = self
            .ranges
            .iter()
            .filter(|r| r.stop.as_ref().is_none_or(|s| *s > next))
            .map(|r| KeyRange {
                start: if r.start < next {
                    next.clone()
                } else {
                    r.start.clone()
                },
                stop: r.stop.clone(),
            })
            .collect();
        self.with_ranges(ranges, self.limit)
    }

    /// Only the keys strictly below `key`.
    fn before(&self, key: &[u8]) -> Self {
        let ranges = self
            .ranges
            .iter()
            .filter(|r| r.start.as_slice() < key)
            .map(|r| KeyRange {
                start: r.start.clone(),
                stop: match &r.stop {
                    Some(s) if s.as_slice() <= key => Some(s.clone()),
                    _ => Some(key.to_vec()),
                },
            })
            .collect();
        self.with_ranges(ranges, self.limit)
    }

    /// The first `n` ranges in reading order (the last `n` when reversed)
    /// and the ranges left, each read as this request is (direction, fuzzy
    /// key, columns) and with no limit: how a backend sends a request with
    /// many ranges a window of ranges at a time, setting each window's
    /// limit itself.
    ///
    /// ```
    /// use rowkey::store::{Columns, KeyRange, ReadRequest};
    /// let r = |a: &str, b: &str| KeyRange::new(a, Some(b.as_bytes().to_vec()));
    /// let request = ReadRequest::new([r("a", "b"), r("c", "d"), r("e", "f")])
    ///     .with_columns(Columns::new([("d", "v")]))
    ///     .with_limit(10);
    /// let (window, rest) = request.split_ranges(2);
    /// assert_eq!(format!("{:?}", window.ranges()), "[[a, b), [c, d)]");
    /// assert_eq!(format!("{:?}", rest.ranges()), "[[e, f)]");
    /// assert_eq!(window.columns(), request.columns());
    /// assert_eq!((window.limit(), rest.limit()), (None, None));
    /// let (window, rest) = request.reversed().split_ranges(1);
    /// assert_eq!(format!("{:?}", window.ranges()), "[[e, f)]");
    /// assert!(window.is_reversed() && rest.is_reversed());
    /// ```
    pub fn split_ranges(&self, n: usize) -> (Self, Self) {
        let n = n.min(self.ranges.len());
        let at = if self.reversed {
            self.ranges.len() - n
        } else {
            n
        };
        let (low, high) = self.ranges.split_at(at);
        let (low, high) = (
            self.with_ranges(low.to_vec(), None),
            self.with_ranges(high.to_vec(), None),
        );
        if self.reversed {
            (high, low)
        } else {
            (low, high)
        }
    }

    /// This request with other ranges (sorted and disjoint, as they come
    /// from this request's) and `limit`: everything else is kept, so a
    /// field added to the request is carried by every derived request.
    fn with_ranges(&self, ranges: Vec<KeyRange>, limit: Option<u64>) -> Self {
        ReadRequest {
            ranges,
            limit,
            reversed: self.reversed,
            fuzzy: self.fuzzy.clone(),
            columns: self.columns.clone(),
            cells: self.cells.clone(),
        }
    }

    /// [`after`](Self::after) `key`, with `delivered` rows taken off the
    /// limit.
    pub fn after_rows(&self, key: &[u8], delivered: u64) -> Self {
        let mut next = self.after(key);
        next.limit = self.limit.map(|l| l.saturating_sub(delivered));
        next
    }
}

impl fmt::Debug for ReadRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadRequest")
            .field("ranges", &self.ranges)
            .field("limit", &self.limit)
            .field("reversed", &self.reversed)
            .field("fuzzy", &self.fuzzy)
            .field("columns", &self.columns)
            .field("cells", &self.cells)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A backend's windows of a multi-range request (rowkey-bigtable's
    /// pages) are taken in reading order and read as the request does.
    #[test]
    fn windows_are_taken_in_reading_order() {
        let r = |a: &str, b: &str| KeyRange::new(a, Some(b.as_bytes().to_vec()));
        let request = ReadRequest::new([r("a", "b"), r("c", "d"), r("e", "f")]);
        let keys = |q: &ReadRequest| format!("{:?}", q.ranges());
        let first = |q: &ReadRequest, n| q.split_ranges(n).0;
        let without_first = |q: &ReadRequest, n| q.split_ranges(n).1;
        assert_eq!(keys(&first(&request, 2)), "[[a, b), [c, d)]");
        assert_eq!(keys(&without_first(&request, 2)), "[[e, f)]");
        let back = request.clone().reversed();
        assert_eq!(keys(&first(&back, 2)), "[[c, d), [e, f)]");
        assert_eq!(keys(&without_first(&back, 2)), "[[a, b)]");
        assert!(first(&back, 1).is_reversed() && without_first(&back, 1).is_reversed());
        assert_eq!(first(&request, 9).ranges().len(), 3);
        assert!(without_first(&request, 9).ranges().is_empty());
        // A window reads the same cells as the whole request.
        let only = request.with_columns(Columns::new([("d", "v")]));
        assert_eq!(first(&only, 1).columns(), only.columns());
        assert_eq!(without_first(&only, 1).columns(), only.columns());
    }

    fn key() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(
            prop_oneof![Just(0u8), Just(1), Just(0xFF), any::<u8>()],
            0..4,
        )
    }

    fn range() -> impl Strategy<Value = KeyRange> {
        (key(), proptest::option::of(key())).prop_map(|(s, e)| KeyRange::new(s, e))
    }

    proptest! {
        /// Normalising keeps exactly the keys of the union, in sorted,
        /// disjoint, non-empty ranges.
        #[test]
        fn normalised_ranges_hold_the_union(
            ranges in proptest::collection::vec(range(), 0..6),
            probes in proptest::collection::vec(key(), 0..24),
        ) {
            let r = ReadRequest::new(ranges.clone());
            for w in r.ranges().windows(2) {
                let stop = w[0].stop.as_ref().expect("only the last range is open");
                prop_assert!(*stop < w[1].start, "{:?}", r);
            }
            prop_assert!(r.ranges().iter().all(|x| !x.is_empty()));
            for p in probes {
                prop_assert_eq!(r.contains(&p), ranges.iter().any(|x| x.contains(&p)));
            }
        }

        /// `after(k)` keeps exactly the keys of the request after `k` in
        /// reading order: above it, or below it when reversed.
        #[test]
        fn after_keeps_exactly_the_later_keys(
            ranges in proptest::collection::vec(range(), 0..6),
            at in key(),
            probes in proptest::collection::vec(key(), 0..24),
            reversed: bool,
        ) {
            let mut r = ReadRequest::new(ranges);
            if reversed {
                r = r.reversed();
            }
            let rest = r.after(&at);
            prop_assert_eq!(rest.is_reversed(), reversed);
            prop_assert!(rest.ranges().iter().all(|x| !x.is_empty()));
            for p in probes {
                let later = if reversed { p < at } else { p > at };
                prop_assert_eq!(rest.contains(&p), r.contains(&p) && later);
            }
        }
    }

    proptest! {
        /// `at_and_after(k)` keeps exactly the keys of the request at or after
        /// `k` in reading order: where a cell query resumes a row.
        #[test]
        fn from_key_keeps_the_key_and_the_later_ones(
            ranges in proptest::collection::vec(range(), 0..6),
            at in key(),
            probes in proptest::collection::vec(key(), 0..24),
            reversed: bool,
        ) {
            let mut r = ReadRequest::new(ranges);
            if reversed {
                r = r.reversed();
            }
            let rest = r.at_and_after(&at);
            prop_assert!(rest.ranges().iter().all(|x| !x.is_empty()));
            for p in probes.into_iter().chain([at.clone()]) {
                let later = if reversed { p <= at } else { p >= at };
                prop_assert_eq!(rest.contains(&p), r.contains(&p) && later);
            }
        }
    }

    #[test]
    fn point_reads_and_limits() {
        let r = ReadRequest::row(b"k");
        assert!(r.contains(b"k") && !r.contains(b"k\x00") && !r.contains(b"j"));
        assert_eq!(r.after_rows(b"k", 1).limit(), Some(0));
        assert!(r.after(b"k").is_empty());
        assert!(ReadRequest::new([]).is_empty());
    }
}
