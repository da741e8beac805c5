//! [`merge_sorted`]: rows of several bucket scans, merged back into key
//! order with the salt prefix ignored (as HBaseWD's distributed scanner
//! does), with an optional limit.

use super::merge_heads::{MergeHeads, MergeOrder};
use super::scan_row::ScanRow;

/// Rows of sorted sources in logical key order; see [`merge_sorted`]. The
/// merge itself is a [`MergeHeads`] (a loser tree), each winner's source
/// asked for its next row as soon as the winner is taken.
pub struct MergeSorted<I: Iterator> {
    sources: Vec<I>,
    heads: MergeHeads<I::Item>,
    remaining: Option<usize>,
}

/// Merges `sources` (each sorted by key, as one bucket's scan returns
/// rows) into one stream sorted by key without its first `skip` bytes (the
/// salt prefix: [`ScanPlan::prefix_len`](super::ScanPlan::prefix_len)),
/// stopping after `limit` rows. Sources must be ascending; sources read
/// last key first merge with [`MergeSorted::reversed`].
///
/// ```
/// use rowkey::scan::merge_sorted;
/// let bucket0 = vec![b"0_a".to_vec(), b"0_d".to_vec()];
/// let bucket1 = vec![b"1_b".to_vec(), b"1_c".to_vec()];
/// let rows: Vec<Vec<u8>> = merge_sorted([bucket0.into_iter(), bucket1.into_iter()], 2, None).collect();
/// assert_eq!(rows, [b"0_a".to_vec(), b"1_b".to_vec(), b"1_c".to_vec(), b"0_d".to_vec()]);
/// ```
pub fn merge_sorted<S>(
    sources: impl IntoIterator<Item = S>,
    skip: usize,
    limit: Option<usize>,
) -> MergeSorted<S::IntoIter>
where
    S: IntoIterator,
    S::Item: ScanRow,
{
    merge_sorted_by_offset(sources, skip, skip, limit)
}

/// [`merge_sorted`] ordering rows by their key bytes from `offset` on,
/// then by the key without its first `skip` bytes: the order of a plan
/// [ordered after its IN-lists](super::ScanPlan::ordered_after_in_lists)
/// (`offset`: its [`merge_offset`](super::ScanPlan::merge_offset)), whose
/// sources are its [ranges](super::ScanPlan::ranges), each read in key
/// order. Each source must be sorted that way (one IN-list combination's
/// range is: its keys agree up to `offset`).
///
/// ```
/// use rowkey::scan::merge_sorted_by_offset;
/// // Two metrics' readings (`m3`, `m5`), then a time: merged by the time.
/// let m3 = vec![b"m3:10".to_vec(), b"m3:40".to_vec()];
/// let m5 = vec![b"m5:20".to_vec(), b"m5:40".to_vec()];
/// let rows: Vec<Vec<u8>> = merge_sorted_by_offset([m3, m5], 0, 3, None).collect();
/// assert_eq!(rows, [&b"m3:10"[..], b"m5:20", b"m3:40", b"m5:40"]);
/// ```
pub fn merge_sorted_by_offset<S>(
    sources: impl IntoIterator<Item = S>,
    skip: usize,
    offset: usize,
    limit: Option<usize>,
) -> MergeSorted<S::IntoIter>
where
    S: IntoIterator,
    S::Item: ScanRow,
{
    merge_in(sources, skip, offset, limit, false)
}

/// [`merge_sorted_by_offset`], largest first when `reversed` (each source
/// then read last key first, as a reversed plan's ranges are).
pub(crate) fn merge_in<S>(
    sources: impl IntoIterator<Item = S>,
    skip: usize,
    offset: usize,
    limit: Option<usize>,
    reversed: bool,
) -> MergeSorted<S::IntoIter>
where
    S: IntoIterator,
    S::Item: ScanRow,
{
    let mut sources: Vec<S::IntoIter> = sources.into_iter().map(IntoIterator::into_iter).collect();
    let order = MergeOrder {
        skip,
        from: offset,
        reversed,
    };
    let mut heads = MergeHeads::new(sources.len(), order);
    heads.fill(|source| Some(sources[source].next()));
    MergeSorted {
        sources,
        heads,
        remaining: limit,
    }
}

impl<I> MergeSorted<I>
where
    I: Iterator,
    I::Item: ScanRow,
{
    /// The same merge, largest key first: for sources each read last key
    /// first (a reversed plan's ranges, a reversed store read).
    ///
    /// ```
    /// use rowkey::scan::merge_sorted;
    /// let bucket0 = vec![b"0_d".to_vec(), b"0_a".to_vec()];
    /// let bucket1 = vec![b"1_c".to_vec(), b"1_b".to_vec()];
    /// let rows: Vec<Vec<u8>> = merge_sorted([bucket0, bucket1], 1, None).reversed().collect();
    /// assert_eq!(rows, [b"0_d".to_vec(), b"1_c".to_vec(), b"1_b".to_vec(), b"0_a".to_vec()]);
    /// ```
    pub fn reversed(mut self) -> Self {
        self.heads.reverse();
        self
    }
}

impl<I> Iterator for MergeSorted<I>
where
    I: Iterator,
    I::Item: ScanRow,
{
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        if self.remaining == Some(0) {
            return None;
        }
        let sources = &mut self.sources;
        let row = self.heads.pop_with(|source| sources[source].next())?;
        if let Some(n) = &mut self.remaining {
            *n -= 1;
        }
        Some(row)
    }
}
