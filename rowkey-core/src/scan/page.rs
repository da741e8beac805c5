//! Pagination over a [`ScanPlan`]: keyset pages that resume after the last
//! row returned, so no row is read twice however many pages there are.

use super::{merge_sorted, MergeSorted, ScanPlan, ScanRange, ScanRow};

/// One page of rows and the key to resume after, if more rows may follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T> {
    /// The rows, in logical key order.
    pub rows: Vec<T>,
    /// Pass it back as `resume` for the next page; `None` on the last page.
    pub next: Option<Vec<u8>>,
}

/// Reads up to `size` rows of `plan` after `resume` (the previous page's
/// [`Page::next`]; `None` for the first page). `scan` reads one range of
/// the store, in key order, at most `limit` rows of it.
///
/// It reads forward: `scan` returns a range's rows in key order, and a
/// [reversed](ScanPlan::reversed) plan is paged as if it were not (a
/// store's `Store::page` reads a reversed plan backwards).
///
/// A `size` of 0 reads pages of one row. A plan's own row limit
/// (`latest()` sets 1) caps each page and ends
/// paging when a page reaches it; it is not counted across pages: to read
/// at most N rows in pages, stop after N.
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
///     let p = page(&plan, resume.as_deref(), 4, read);
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
    resume: Option<&[u8]>,
    size: usize,
    scan: F,
) -> Page<I::Item>
where
    F: FnMut(ScanRange<N>, usize) -> I,
    I: IntoIterator,
    I::Item: ScanRow,
{
    let plan = match resume {
        Some(key) => plan.after(key),
        None => plan.clone(),
    };
    // A page holds at least one row, or paging would never advance.
    let size = size.max(1);
    let want = plan.limit().map_or(size, |l| l.min(size));
    // One row more than the page tells whether another page follows.
    let probe = want.saturating_add(1);
    let mut merged = read_merged(&plan, probe, scan);
    let rows: Vec<I::Item> = merged.by_ref().take(want).collect();
    let more = merged.next().is_some() && plan.limit().is_none_or(|l| l > want);
    let next = match rows.last() {
        Some(last) if more => Some(last.row_key().to_vec()),
        _ => None,
    };
    Page { rows, next }
}

/// Offset/limit paging, as the seeds do it: skip `offset` rows of the
/// merged result, return the next `limit`. Simple, but every page re-reads
/// the rows it skips; prefer [`page`] for deep paging.
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
/// logical key order, at most `limit` rows in all.
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
    merge_sorted(sources, plan.prefix_len(), Some(limit))
}
