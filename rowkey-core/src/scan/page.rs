//! Pagination over a [`ScanPlan`]: keyset pages that resume after the last
//! row returned, so no row is read twice however many pages there are.

use super::cursor::{fingerprint, Cursor, InvalidCursor};
use super::fit::{start_after, stop_below};
use super::merge::merge_in;
use super::{FuzzyKey, MergeSorted, ScanPlan, ScanRange, ScanRow};
use std::cell::RefCell;

/// One page of rows and where the next page starts, if more rows may
/// follow, and what reading it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T> {
    /// The rows, in logical key order.
    pub rows: Vec<T>,
    /// Pass it back as `resume` for the next page; `None` on the last page.
    pub next: Option<Cursor>,
    /// What the store read for this page (zero where nothing counts it,
    /// as in [`page`] over a synchronous read).
    pub cost: ReadCost,
}

/// What a page or a query read from its store: rows the store sent and
/// reads started (one request of one range: a Bigtable `ReadRows`, an
/// HBase scanner). A page of a parked walk counts what its query read
/// while the page was read, read-ahead included; a page read afresh
/// counts its own reads. Rows read over rows returned is the cost of a
/// page: about 1 for a walk that reads what it returns.
///
/// ```
/// use rowkey::scan::ReadCost;
/// let a = ReadCost { rows_read: 60, reads_started: 4 };
/// let b = ReadCost { rows_read: 40, reads_started: 1 };
/// assert_eq!(a - b, ReadCost { rows_read: 20, reads_started: 3 });
/// assert_eq!(a.to_string(), "60 rows read in 4 reads");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ReadCost {
    /// Rows the store sent.
    pub rows_read: u64,
    /// Reads started.
    pub reads_started: u64,
}

impl core::ops::Sub for ReadCost {
    type Output = ReadCost;
    /// What was read between two counts of one query (saturating).
    fn sub(self, earlier: ReadCost) -> ReadCost {
        ReadCost {
            rows_read: self.rows_read.saturating_sub(earlier.rows_read),
            reads_started: self.reads_started.saturating_sub(earlier.reads_started),
        }
    }
}

impl core::fmt::Display for ReadCost {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} rows read in {} reads",
            self.rows_read, self.reads_started
        )
    }
}

/// A page's read, worked out before anything is read: the plan resumed
/// after a cursor (the cursor checked against it), how many rows the page
/// takes, and what the next cursor is made of. [`page`] pages a plan over
/// a synchronous read with it; an async store pages the same way: read up
/// to [`want`](Self::want)` + 1` rows of [`plan`](Self::plan), then
/// [`page`](Self::page) them.
///
/// ```
/// use rowkey::scan::{ScanPlan, Resume};
/// let plan = ScanPlan::<8>::from_bounds(b"a", Some(b"c")).unwrap();
/// let first = Resume::new(&plan, None, 2)?;
/// assert_eq!(first.want(), 2);
/// // Three rows read: the third only says that more follow.
/// let page = first.page(vec![b"a1".to_vec(), b"a2".to_vec()], true)?;
/// let second = Resume::new(&plan, page.next.as_ref(), 2)?;
/// assert!(!second.plan().contains(b"a2") && second.plan().contains(b"a3"));
/// # Ok::<(), rowkey::scan::InvalidCursor>(())
/// ```
#[derive(Debug, Clone)]
pub struct Resume<const N: usize> {
    /// The plan after the cursor's key.
    plan: ScanPlan<N>,
    /// Rows of this page: the size asked for (at least 1), within what the
    /// plan's limit leaves; 0 only for a plan limited to no rows.
    want: usize,
    /// The limit leaves rows for a page after this one.
    more_allowed: bool,
    delivered: u64,
    fingerprint: u64,
}

impl<const N: usize> Resume<N> {
    /// `plan` after `resume` (checked against it), for a page of `size`.
    ///
    /// # Errors
    ///
    /// A cursor this plan did not give out, or one changed on the way
    /// back (see [`Cursor`]).
    pub fn new(
        plan: &ScanPlan<N>,
        resume: Option<&Cursor>,
        size: usize,
    ) -> Result<Self, InvalidCursor> {
        let fingerprint = fingerprint(plan);
        let (rest, delivered) = match resume {
            Some(c) => {
                c.check(plan, fingerprint)?;
                (plan.after(c.after()), c.delivered())
            }
            None => (plan.clone(), 0),
        };
        let left = plan
            .limit()
            .map(|l| usize::try_from((l as u64).saturating_sub(delivered)).unwrap_or(usize::MAX));
        // A page holds at least one row, or paging would never advance.
        let size = size.max(1);
        let want = left.map_or(size, |l| l.min(size));
        // The next cursor counts this page too: refused now if it cannot.
        if delivered.checked_add(want as u64).is_none() {
            return Err(InvalidCursor::ImpossibleCount {
                delivered,
                limit: None,
            });
        }
        Ok(Resume {
            plan: rest,
            want,
            more_allowed: left.is_none_or(|l| l > want),
            delivered,
            fingerprint,
        })
    }

    /// The rows still to read: the plan after the cursor's key.
    pub fn plan(&self) -> &ScanPlan<N> {
        &self.plan
    }

    /// How many rows this page takes: the size asked for (at least 1),
    /// within what the plan's limit leaves; 0 only when the limit leaves
    /// none.
    pub fn want(&self) -> usize {
        self.want
    }

    /// The page of `rows`, with a cursor after the last when `more` rows
    /// follow and the limit allows them.
    ///
    /// # Errors
    ///
    /// A count that overflows the cursor's (never for rows read).
    pub fn page<T: ScanRow>(&self, rows: Vec<T>, more: bool) -> Result<Page<T>, InvalidCursor> {
        let next = match rows.last() {
            Some(last) if more && self.more_allowed => Some(Cursor::following(
                self.fingerprint,
                last.row_key(),
                self.delivered,
                rows.len(),
            )?),
            _ => None,
        };
        Ok(Page {
            rows,
            next,
            cost: ReadCost::default(),
        })
    }
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
/// A plan with a [fuzzy key](ScanPlan::with_fuzzy) (`.field.any()`) is
/// filtered here: `scan` reads its ranges as for any plan, and the pager
/// keeps the rows that match, reading a range again after its last row
/// while a batch of `limit` rows held rows that did not. Filter nothing in
/// `scan` yourself (a filter after taking `limit` rows would lose rows);
/// a server-side filter (`ScanPlan::fuzzy`) only saves the reading.
///
/// # Errors
///
/// A cursor this plan did not give out, or one changed on the way back
/// (see [`Cursor`]): an [`InvalidCursor`] that says what is wrong, never
/// another page.
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
///     let p = page(&plan, resume.as_ref(), 4, read)?;
///     seen += p.rows.len();
///     match p.next {
///         Some(next) => resume = Some(next),
///         None => break,
///     }
/// }
/// assert_eq!(seen, 15);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn page<const N: usize, I, F>(
    plan: &ScanPlan<N>,
    resume: Option<&Cursor>,
    size: usize,
    scan: F,
) -> Result<Page<I::Item>, InvalidCursor>
where
    F: FnMut(ScanRange<N>, usize) -> I,
    I: IntoIterator,
    I::Item: ScanRow,
{
    let resumed = Resume::new(plan, resume, size)?;
    if resumed.want == 0 {
        return resumed.page(Vec::new(), false);
    }
    // One row more than the page tells whether another page follows.
    let scan = RefCell::new(scan);
    let mut merged = read_merged(&resumed.plan, resumed.want.saturating_add(1), &scan);
    let rows: Vec<I::Item> = merged.by_ref().take(resumed.want).collect();
    let more = merged.next().is_some();
    resumed.page(rows, more)
}

/// Offset/limit paging, as the seeds do it: skip `offset` rows of the
/// merged result, return the next `limit`. Simple, but every page re-reads
/// the rows it skips; prefer [`page`] for deep paging. `scan` reads as for
/// [`page`] (last key first for a reversed plan), and a fuzzy plan is
/// filtered here as there.
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
    let scan = RefCell::new(scan);
    read_merged(plan, want, &scan).skip(offset).collect()
}

/// Every range of `plan` read (at most `limit` rows each) and merged into
/// logical key order (or the order after its IN-lists), at most `limit`
/// rows in all.
fn read_merged<'s, const N: usize, I, F>(
    plan: &ScanPlan<N>,
    limit: usize,
    scan: &'s RefCell<F>,
) -> MergeSorted<RangeRows<'s, N, I, F>>
where
    F: FnMut(ScanRange<N>, usize) -> I,
    I: IntoIterator,
    I::Item: ScanRow,
{
    let sources = plan.ranges().map(|range| RangeRows {
        scan,
        range,
        fuzzy: plan.fuzzy().copied(),
        reversed: plan.is_reversed(),
        limit,
        batch: None,
        read: 0,
        yielded: 0,
        last: Vec::new(),
    });
    merge_in(
        sources,
        plan.prefix_len(),
        plan.merge_offset(),
        Some(limit),
        plan.is_reversed(),
    )
}

/// The rows of one range, read with `scan` when first asked for. With a
/// fuzzy key, only the rows that match it: a batch of `limit` rows that
/// held rows that did not is followed by a read of the rest of the range,
/// after its last row, until `limit` rows match or the range ends.
struct RangeRows<'s, const N: usize, I: IntoIterator, F> {
    scan: &'s RefCell<F>,
    range: ScanRange<N>,
    fuzzy: Option<FuzzyKey<N>>,
    reversed: bool,
    /// Rows asked of each read, and the most this range gives the merge.
    limit: usize,
    batch: Option<I::IntoIter>,
    /// Rows taken from the current batch, matching or not.
    read: usize,
    /// Rows given to the merge.
    yielded: usize,
    /// The key of the last row taken: where a further read resumes.
    last: Vec<u8>,
}

impl<const N: usize, I, F> RangeRows<'_, N, I, F>
where
    F: FnMut(ScanRange<N>, usize) -> I,
    I: IntoIterator,
    I::Item: ScanRow,
{
    fn read(&mut self, range: ScanRange<N>) -> I::IntoIter {
        self.range = range;
        self.read = 0;
        (self.scan.borrow_mut())(range, self.limit).into_iter()
    }

    /// What the range holds after `last` in read order; `None`: nothing.
    fn rest(&self) -> Option<ScanRange<N>> {
        let room = N.saturating_sub(1);
        let r = if self.reversed {
            let below = stop_below::<N>(&self.last, room)?;
            let stop = match self.range.stop() {
                Some(s) if s <= below.as_bytes() => s,
                _ => below.as_bytes(),
            };
            ScanRange::from_bounds(self.range.start(), Some(stop))?
        } else {
            let start = start_after::<N>(&self.last, room)?;
            ScanRange::from_bounds(self.range.start().max(start.as_bytes()), self.range.stop())?
        };
        (!r.is_empty()).then_some(r)
    }
}

impl<const N: usize, I, F> Iterator for RangeRows<'_, N, I, F>
where
    F: FnMut(ScanRange<N>, usize) -> I,
    I: IntoIterator,
    I::Item: ScanRow,
{
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        let batch = match &mut self.batch {
            Some(batch) => batch,
            None => {
                let first = self.read(self.range);
                self.batch.insert(first)
            }
        };
        let Some(fuzzy) = self.fuzzy else {
            return batch.next();
        };
        if self.yielded >= self.limit {
            return None;
        }
        loop {
            let batch = self.batch.as_mut()?;
            match batch.next() {
                Some(row) => {
                    self.read += 1;
                    self.last.clear();
                    self.last.extend_from_slice(row.row_key());
                    if fuzzy.matches(row.row_key()) {
                        self.yielded += 1;
                        return Some(row);
                    }
                }
                // A batch shorter than asked for ends the range.
                None if self.read < self.limit => return None,
                None => {
                    let rest = self.rest()?;
                    let next = self.read(rest);
                    self.batch = Some(next);
                }
            }
        }
    }
}
