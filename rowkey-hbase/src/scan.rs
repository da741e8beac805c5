//! [`ToTScan`]: a range as the Thrift1 `TScan` that reads exactly its rows.

use crate::bounds::{tscan, Bounds};
use crate::reversed::ReversedTScan;
use hbase_thrift::hbase::TScan;
use rowkey_core::scan::ScanRange;
use rowkey_store::KeyRange;

/// A key range as hbase-thrift `TScan`s for `scannerOpenWithScan`.
///
/// The scans set only what they mean: `start_row`, `stop_row` when the
/// range has an end, and `reversed` for a backwards read. Every other
/// field is `None`, because HBase's Thrift handler applies every field
/// that is set, and hbase-thrift's `TScan::default()` sets them all
/// (`timestamp: Some(0)` alone limits the scan to cells written at time
/// `[0, 0)`: none). Build your own `TScan`s the same way, never with
/// `..Default::default()`.
///
/// A range that can hold no HBase row (empty, or holding only the empty
/// key) has no scan: `None`. Do not open a scanner for it: a `TScan`
/// whose start and stop rows are equal reads that one row on HBase 1.x
/// (`Scan.isGetScan`), and one without rows reads the whole table.
///
/// Bounds longer than HBase's 32767-byte key limit (which HBase's `Scan`
/// refuses) are replaced by shorter ones that hold the same keys.
///
/// ```
/// use rowkey::scan::ScanRange;
/// use rowkey_hbase::ToTScan;
///
/// let range = ScanRange::<8>::with_prefix(b"u7\xFF").unwrap();
/// let scan = range.to_tscan().expect("the range has rows");
/// assert_eq!(scan.start_row.as_deref(), Some(&b"u7\xFF"[..]));
/// assert_eq!(scan.stop_row.as_deref(), Some(&b"u8"[..]));
/// assert_eq!((scan.timestamp, scan.caching, scan.reversed), (None, None, None));
/// ```
pub trait ToTScan {
    /// The forward scan of exactly the range's rows, in key order;
    /// `None` when no HBase row can be in the range.
    ///
    /// ```
    /// use rowkey::store::KeyRange;
    /// use rowkey_hbase::ToTScan;
    ///
    /// // To the end of the table: no stop row.
    /// let scan = KeyRange::new(b"\x00\xFF".to_vec(), None).to_tscan().unwrap();
    /// assert_eq!(scan.start_row, Some(b"\x00\xFF".to_vec()));
    /// assert_eq!(scan.stop_row, None);
    /// // An empty range has no scan.
    /// assert!(KeyRange::new(b"b".to_vec(), Some(b"b".to_vec())).to_tscan().is_none());
    /// ```
    fn to_tscan(&self) -> Option<TScan>;

    /// The backwards read of the range's rows, in descending key order;
    /// `None` when no HBase row can be in the range. A Thrift1 `TScan`
    /// cannot bound a backwards scan exactly, so the read is a `TScan`
    /// plus a step to apply to every row it returns: see
    /// [`ReversedTScan`].
    ///
    /// ```
    /// use rowkey::store::KeyRange;
    /// use rowkey_hbase::{ReverseStep, ToTScan};
    ///
    /// let read = KeyRange::new(b"a".to_vec(), Some(b"c".to_vec())).to_reversed_tscan().unwrap();
    /// assert_eq!(read.tscan().reversed, Some(true));
    /// assert_eq!(read.step(b"c"), ReverseStep::Skip);
    /// assert_eq!(read.step(b"b\xFF"), ReverseStep::Take);
    /// assert_eq!(read.step(b"`"), ReverseStep::Stop);
    /// ```
    fn to_reversed_tscan(&self) -> Option<ReversedTScan>;
}

impl<const N: usize> ToTScan for ScanRange<N> {
    fn to_tscan(&self) -> Option<TScan> {
        Bounds::hbase(self.start(), self.stop()).map(|b| forward(&b))
    }

    fn to_reversed_tscan(&self) -> Option<ReversedTScan> {
        Bounds::hbase(self.start(), self.stop()).map(ReversedTScan::new)
    }
}

impl ToTScan for KeyRange {
    fn to_tscan(&self) -> Option<TScan> {
        Bounds::hbase(&self.start, self.stop.as_deref()).map(|b| forward(&b))
    }

    fn to_reversed_tscan(&self) -> Option<ReversedTScan> {
        Bounds::hbase(&self.start, self.stop.as_deref()).map(ReversedTScan::new)
    }
}

/// `[start, stop)` forwards: HBase's start row is inclusive and its stop
/// row exclusive, exactly the range's bounds. An empty start row means
/// the first row of the table, as an empty start bound does here.
fn forward(b: &Bounds) -> TScan {
    tscan(Some(b.start.clone()), b.stop.clone(), None)
}
