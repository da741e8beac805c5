//! Pagination over a [`ScanPlan`]: keyset pages that resume after the last
//! row returned, so no row is read twice however many pages there are.

use super::merge::merge_in;
use super::{MergeSorted, ScanPlan, ScanRange, ScanRow};

/// One page of rows and where the next page starts, if more rows may
/// follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T> {
    /// The rows, in logical key order.
    pub rows: Vec<T>,
    /// Pass it back as `resume` for the next page; `None` on the last page.
    pub next: Option<Cursor>,
}

/// Where the next page of a plan starts: after the last row returned,
/// with the rows returned so far counted against the plan's limit (a plan
/// limited to 25 rows gives 25 rows over all its pages, not 25 a page).
///
/// A service that pages for its clients hands out [`to_bytes`] and takes
/// it back with [`from_bytes`].
///
/// [`to_bytes`]: Cursor::to_bytes
/// [`from_bytes`]: Cursor::from_bytes
///
/// ```
/// use rowkey::scan::Cursor;
/// let c = Cursor::new(b"k\x00".to_vec(), 7);
/// assert_eq!(Cursor::from_bytes(&c.to_bytes()), Some(c));
/// assert_eq!(Cursor::from_bytes(b"short"), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cursor {
    after: Vec<u8>,
    delivered: u64,
}

impl Cursor {
    /// The next page starts after row key `after`, `delivered` rows having
    /// been returned before it.
    pub fn new(after: Vec<u8>, delivered: u64) -> Self {
        Cursor { after, delivered }
    }

    /// The last row key returned.
    pub fn after(&self) -> &[u8] {
        &self.after
    }

    /// Rows returned by the pages before.
    pub fn delivered(&self) -> u64 {
        self.delivered
    }

    /// The cursor as bytes: the count (8 bytes, big-endian), then the key.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 + self.after.len());
        out.extend_from_slice(&self.delivered.to_be_bytes());
        out.extend_from_slice(&self.after);
        out
    }

    /// A cursor from [`to_bytes`](Self::to_bytes); `None` for fewer than 8
    /// bytes.
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let (count, key) = bytes.split_first_chunk::<8>()?;
        Some(Cursor::new(key.to_vec(), u64::from_be_bytes(*count)))
    }
}

/// The plan after `resume`, the rows its limit still allows (`None`: no
/// limit) and the rows already delivered.
pub(crate) fn resume_plan<const N: usize>(
    plan: &ScanPlan<N>,
    resume: Option<&Cursor>,
) -> (ScanPlan<N>, Option<usize>, u64) {
    let delivered = resume.map_or(0, Cursor::delivered);
    let plan = match resume {
        Some(c) => plan.after(c.after()),
        None => plan.clone(),
    };
    let left = plan
        .limit()
        .map(|l| usize::try_from((l as u64).saturating_sub(delivered)).unwrap_or(usize::MAX));
    (plan, left, delivered)
}

/// Reads up to `size` rows of `plan` after `resume` (the previous page's
/// [`Page::next`]; `None` for the first page). `scan` reads one range of
/// the store, at most `limit` rows of it, in key order; for a
/// [reversed](ScanPlan::reversed) plan, last key first (as a reversed
/// store read returns them), and the pages then run from the last key
/// down.
///
/// A `size` of 0 reads pages of one row. A plan's own row limit
/// (`latest(n)` sets `n`) caps the rows of all its pages together: the
/// cursor counts them.
///
/// ```
/// use rowkey::scan::{page, ScanRange};
/// use rowkey::RowKey;
/// use std::collections::BTreeMap;
///
/// #[derive(RowKey)]
/// struct Op {
///     #[salt(buckets = 4, binary)]
///     user: u32,
///     seq: u32,
/// }
///
/// let mut table = BTreeMap::new();
/// for user in 0..5 {
///     for seq in 0..3 {
///         table.insert(Op { user, seq }.to_vec()?, ());
///     }
/// }
/// let plan = Op::scan().plan()?;
/// let read = |r: ScanRange<{ Op::MAX_LEN + 1 }>, limit: usize| -> Vec<Vec<u8>> {
///     table
///         .range(r.start().to_vec()..)
///         .take_while(|(k, _)| r.contains(k))
///         .take(limit)
///         .map(|(k, _)| k.clone())
///         .collect()
/// };
/// let (mut resume, mut seen) = (None, 0);
/// loop {
///     let p = page(&plan, resume.as_ref(), 4, read);
///     seen += p.rows.len();
///     match p.next {
///         Some(next) => resume = Some(next),
///         None => break,
///     }
/// }
/// assert_eq!(seen, 15);
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
pub fn page<const N: usize, I, F>(
    plan: &ScanPlan<N>,
    resume: Option<&Cursor>,
    size: usize,
    scan: F,
) -> Page<I::Item>
where
    F: FnMut(ScanRange<N>, usize) -> I,
    I: IntoIterator,
    I::Item: ScanRow,
{
    let (plan, left, delivered) = resume_plan(plan, resume);
    // A page holds at least one row, or paging would never advance.
    let size = size.max(1);
    if left == Some(0) {
        return Page {
            rows: Vec::new(),
            next: None,
        };
    }
    let want = left.map_or(size, |l| l.min(size));
    // One row more than the page tells whether another page follows.
    let probe = want.saturating_add(1);
    let mut merged = read_merged(&plan, probe, scan);
    let rows: Vec<I::Item> = merged.by_ref().take(want).collect();
    let more = merged.next().is_some() && left.is_none_or(|l| l > want);
    let next = match rows.last() {
        Some(last) if more => Some(Cursor::new(
            last.row_key().to_vec(),
            delivered + rows.len() as u64,
        )),
        _ => None,
    };
    Page { rows, next }
}

/// Offset/limit paging, as the seeds do it: skip `offset` rows of the
/// merged result, return the next `limit`. Simple, but every page re-reads
/// the rows it skips; prefer [`page`] for deep paging. `scan` reads as for
/// [`page`] (last key first for a reversed plan).
///
/// ```
/// use rowkey::scan::{offset_limit, ScanRange};
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Op {
///     uid: u32,
///     seq: u32,
/// }
///
/// let table: Vec<Vec<u8>> = (0..10).map(|seq| Op { uid: 1, seq }.to_vec().unwrap()).collect();
/// let plan = Op::scan().uid.eq(1).plan()?;
/// let read = |r: ScanRange<{ Op::MAX_LEN + 1 }>, limit: usize| -> Vec<Vec<u8>> {
///     table.iter().filter(|k| r.contains(k)).take(limit).cloned().collect()
/// };
/// let rows = offset_limit(&plan, 4, 3, read);
/// assert_eq!(rows, table[4..7]);
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
pub fn offset_limit<const N: usize, I, F>(
    plan: &ScanPlan<N>,
    offset: usize,
    limit: usize,
    scan: F,
) -> Vec<I::Item>
where
    F: FnMut(ScanRange<N>, usize) -> I,
    I: IntoIterator,
    I::Item: ScanRow,
{
    let want = offset.saturating_add(limit);
    let want = plan.limit().map_or(want, |l| l.min(want));
    read_merged(plan, want, scan).skip(offset).collect()
}

/// Every range of `plan` read (at most `limit` rows each) and merged into
/// logical key order (or the order after its IN-lists), at most `limit`
/// rows in all.
fn read_merged<const N: usize, I, F>(
    plan: &ScanPlan<N>,
    limit: usize,
    mut scan: F,
) -> MergeSorted<I::IntoIter>
where
    F: FnMut(ScanRange<N>, usize) -> I,
    I: IntoIterator,
    I::Item: ScanRow,
{
    let sources: Vec<I> = plan.ranges().map(|r| scan(r, limit)).collect();
    merge_in(
        sources,
        plan.prefix_len(),
        plan.merge_offset(),
        Some(limit),
        plan.is_reversed(),
    )
}
