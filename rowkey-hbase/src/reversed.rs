//! [`ReversedTScan`]: a range read backwards through Thrift1, which cannot
//! bound a backwards scan exactly, as a `TScan` and a step per row.

use crate::bounds::{below, tscan, Bounds};
use hbase_thrift::hbase::TScan;
use rowkey_store::{KeyRange, Row};

/// The rows of `[start, stop)` in descending key order: a reversed `TScan`
/// and the [`step`](Self::step) to apply to each row it returns.
///
/// A reversed HBase scan starts at its start row (inclusive) and goes down
/// to its stop row (exclusive), and Thrift1's `TScan` has no flags to
/// change either. Reading `[start, stop)` backwards exactly would take
/// the largest key below `stop` as the start row and the largest key
/// below `start` as the stop row. Those are not short keys: below `p b`
/// (`b > 0`) it is `p (b - 1)` followed by `0xFF` bytes up to HBase's
/// 32767-byte limit, and a scan from a 32 KB row (whose region lookup
/// builds a still longer `hbase:meta` row) is nothing to send untested.
/// So the `TScan` reads a little more than the range, and the step drops
/// the rest, exactly:
///
/// - `reversed: Some(true)`; every field other than the rows is `None`.
/// - `start_row` is `stop` itself, or `None` (the last row of the table)
///   when the range has no stop. HBase may return the row whose key is
///   `stop`, first: its step is [`ReverseStep::Skip`].
/// - `stop_row` is `None` (down to the first row of the table) when
///   `start` is empty or `[0x00]`; `p` when `start` is `p 00` (no key lies
///   between, so nothing more is read); `p (b - 1)` when `start` is `p b`
///   with `b > 0`. Rows between `stop_row` and `start` come after every
///   row of the range: the first one's step is [`ReverseStep::Stop`];
///   close the scanner there.
///
/// So the client reads at most two rows that are not the range's (the
/// server may fetch more ahead, up to its scanner caching), and the steps
/// hold whether HBase's reversed start row is inclusive or exclusive and
/// its stop row exclusive or inclusive: the tests check all four. The
/// start and stop rows are never equal (HBase 1.x reads a scan whose
/// start and stop rows are equal as a get of that row).
///
/// ```
/// use rowkey::scan::ScanRange;
/// use rowkey::store::{Cell, Row};
/// use rowkey_hbase::ToTScan;
///
/// let range = ScanRange::<8>::with_prefix(b"u7").unwrap(); // [u7, u8)
/// let read = range.to_reversed_tscan().unwrap();
/// let scan = read.tscan();
/// assert_eq!(scan.start_row.as_deref(), Some(&b"u8"[..]));
/// assert_eq!(scan.stop_row.as_deref(), Some(&b"u6"[..]));
/// assert_eq!(scan.reversed, Some(true));
/// // What `scannerGetList` returned, as rows:
/// let row = |k: &[u8]| Row::new(k, vec![Cell::new("d", "v", "1")]);
/// let mut rows = vec![row(b"u8"), row(b"u7\x02"), row(b"u7"), row(b"u6\xFF"), row(b"u6\x01")];
/// let done = read.retain_rows(&mut rows);
/// assert!(done, "a row below the range was seen: close the scanner");
/// let keys: Vec<&[u8]> = rows.iter().map(|r| r.key.as_slice()).collect();
/// assert_eq!(keys, [&b"u7\x02"[..], b"u7"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReversedTScan {
    tscan: TScan,
    start: Vec<u8>,
    stop: Option<Vec<u8>>,
}

/// What to do with a row a [`ReversedTScan`] returned.
///
/// ```
/// use rowkey::store::KeyRange;
/// use rowkey_hbase::{ReverseStep, ToTScan};
///
/// let read = KeyRange::new(b"k\x00".to_vec(), None).to_reversed_tscan().unwrap();
/// assert_eq!(read.tscan().start_row, None); // from the last row of the table
/// assert_eq!(read.tscan().stop_row.as_deref(), Some(&b"k"[..]));
/// assert_eq!(read.step(b"\xFF"), ReverseStep::Take);
/// assert_eq!(read.step(b"k"), ReverseStep::Stop);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReverseStep {
    /// The row is in the range: keep it.
    Take,
    /// The row is the range's stop, which the scan starts at: drop it and
    /// read on.
    Skip,
    /// The row is below the range, and so is every row after it: drop it
    /// and close the scanner.
    Stop,
}

impl ReversedTScan {
    pub(crate) fn new(b: Bounds) -> Self {
        let tscan = tscan(b.stop.clone(), below(&b.start), Some(true));
        ReversedTScan {
            tscan,
            start: b.start,
            stop: b.stop,
        }
    }

    /// The scan to open (clone it for `scannerOpenWithScan`, which takes
    /// it by value).
    ///
    /// ```
    /// use rowkey::store::KeyRange;
    /// use rowkey_hbase::ToTScan;
    ///
    /// let read = KeyRange::new(b"a".to_vec(), Some(b"b\x00".to_vec())).to_reversed_tscan().unwrap();
    /// let scan = read.tscan().clone();
    /// assert_eq!(scan.start_row, Some(b"b\x00".to_vec()));
    /// assert_eq!(scan.stop_row, Some(b"`".to_vec())); // 'a' - 1
    /// ```
    pub fn tscan(&self) -> &TScan {
        &self.tscan
    }

    /// The range read. Bounds over HBase's 32767-byte key limit are
    /// replaced by shorter ones that hold the same keys.
    ///
    /// ```
    /// use rowkey::store::KeyRange;
    /// use rowkey_hbase::ToTScan;
    ///
    /// let range = KeyRange::new(b"a".to_vec(), Some(b"c".to_vec()));
    /// assert_eq!(range.to_reversed_tscan().unwrap().range(), range);
    /// ```
    pub fn range(&self) -> KeyRange {
        KeyRange::new(self.start.clone(), self.stop.clone())
    }

    /// What to do with a row of key `key` that the scan returned.
    ///
    /// ```
    /// use rowkey::store::KeyRange;
    /// use rowkey_hbase::{ReverseStep, ToTScan};
    ///
    /// let read = KeyRange::new(b"a".to_vec(), Some(b"b".to_vec())).to_reversed_tscan().unwrap();
    /// assert_eq!(read.step(b"b"), ReverseStep::Skip);
    /// assert_eq!(read.step(b"a\xFF\xFF"), ReverseStep::Take);
    /// assert_eq!(read.step(b"a"), ReverseStep::Take);
    /// assert_eq!(read.step(b"`\xFF"), ReverseStep::Stop);
    /// ```
    pub fn step(&self, key: &[u8]) -> ReverseStep {
        crate::bounds::reverse_step(&self.start, self.stop.as_deref(), key)
    }

    /// Applies [`step`](Self::step) to a batch of rows the scan returned
    /// (a `scannerGetList` answer, converted): keeps the rows to take, in
    /// their order, and drops the rest, with every row after the first
    /// one to stop at. `true` when the read is over: a row below the range
    /// was seen, so close the scanner (it is also over when the scanner
    /// returns no more rows).
    ///
    /// ```
    /// use rowkey::store::{Cell, KeyRange, Row};
    /// use rowkey_hbase::ToTScan;
    ///
    /// let read = KeyRange::new(b"a".to_vec(), Some(b"b".to_vec())).to_reversed_tscan().unwrap();
    /// let row = |k: &[u8]| Row::new(k, vec![Cell::new("d", "v", "")]);
    /// let mut rows = vec![row(b"b"), row(b"a\x01")];
    /// assert!(!read.retain_rows(&mut rows), "the range may go on: read more");
    /// assert_eq!(rows, [row(b"a\x01")]);
    /// ```
    pub fn retain_rows(&self, rows: &mut Vec<Row>) -> bool {
        let end = rows
            .iter()
            .position(|r| self.step(&r.key) == ReverseStep::Stop);
        if let Some(end) = end {
            rows.truncate(end);
        }
        rows.retain(|r| self.step(&r.key) == ReverseStep::Take);
        end.is_some()
    }
}
