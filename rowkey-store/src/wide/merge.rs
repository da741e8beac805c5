//! [`CellQuery`]: the cells of every row a plan selects, as one stream in
//! an order of the caller's ([`CellOrder`]: a point's time, say, from the
//! hour in the key and the offset in the qualifier), merged across the
//! plan's ranges (salt buckets, IN-lists); and pages of it counted in
//! cells ([`CellPage`], resumed inside a row by a [`CellCursor`]).
//!
//! Each range is read in key order (backwards for a reversed plan). The
//! rows of a range whose order's row part is equal (one hour of every
//! series of a metric) are a group: a group's cells are sorted, and the
//! ranges' heads merged, so what is held is one group a range, never
//! more. A range whose rows come out of the order's row order is an
//! error that says so, never a stream out of order.

use super::range_rows::RangeRows;
use super::{Qualifier, WideColumn};
use crate::cell::CellValue;
use crate::{CellSlice, KeyRange, Row, Store, StoreError};
use core::cmp::Ordering;
use futures_core::Stream;
use rowkey_core::scan::{CellCursor, FuzzyFilter, InvalidCursor, RangeResume, ScanPlan};
use rowkey_core::DecodeKeyOwned;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// How the cells of many rows are ordered: `row` gives a row's part of
/// the order (the hour) and `cell` a cell's whole order (the point's
/// time), which must agree (a row of a smaller `row` has only cells of a
/// smaller `cell`); oldest (smallest) or newest first.
///
/// The plan's rows must come in the order's row order within each range:
/// forwards for oldest first over a key whose time field ascends,
/// reversed (`.plan()?.reversed()`) for newest first over one.
pub struct CellOrder<K, Q, R, C> {
    row: fn(&K) -> R,
    cell: fn(&K, &Q) -> C,
    newest_first: bool,
}

impl<K, Q, R, C> CellOrder<K, Q, R, C> {
    /// Smallest first.
    pub const fn oldest_first(row: fn(&K) -> R, cell: fn(&K, &Q) -> C) -> Self {
        CellOrder {
            row,
            cell,
            newest_first: false,
        }
    }

    /// Largest first.
    pub const fn newest_first(row: fn(&K) -> R, cell: fn(&K, &Q) -> C) -> Self {
        CellOrder {
            row,
            cell,
            newest_first: true,
        }
    }

    /// Whether the largest come first.
    pub const fn is_newest_first(&self) -> bool {
        self.newest_first
    }
}

impl<K, Q, R, C> Clone for CellOrder<K, Q, R, C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K, Q, R, C> Copy for CellOrder<K, Q, R, C> {}

/// One cell of a cell query: its row's key, its qualifier and its value,
/// typed.
#[derive(Debug, Clone, PartialEq)]
pub struct RowCell<K, Q, V> {
    /// The row's key.
    pub key: K,
    /// The cell's qualifier.
    pub qualifier: Q,
    /// The cell's value.
    pub value: V,
}

/// A page of a cell query: at most the cells asked for, and the cursor
/// of the next page (`None`: the query is read).
#[derive(Debug, Clone, PartialEq)]
pub struct CellPage<K, Q, V> {
    /// The cells, in the query's order.
    pub cells: Vec<RowCell<K, Q, V>>,
    /// Where the next page starts.
    pub next: Option<CellCursor>,
}

/// A cell with what the merge orders it by.
struct Item<K, Q, V, C> {
    order: C,
    /// Shared by the row's cells.
    row: Arc<[u8]>,
    qualifier: Vec<u8>,
    cell: RowCell<K, Q, V>,
}

impl<K, Q, V, C: Ord> Item<K, Q, V, C> {
    /// The total order of cells: the caller's, then row key and
    /// qualifier (no two cells tie).
    fn cmp_key(&self, order: &C, row: &[u8], qualifier: &[u8]) -> Ordering {
        (&self.order, &*self.row, self.qualifier.as_slice()).cmp(&(order, row, qualifier))
    }
}

/// One range being merged.
struct Source<S, K, Q, V, R, C> {
    rows: RangeRows<S>,
    /// A row read ahead, of the next group.
    pending: Option<(Row, K)>,
    /// The sorted cells of the group in progress.
    buffer: VecDeque<Item<K, Q, V, C>>,
    /// The first key of the group in progress (where it resumes).
    group_start: Option<Vec<u8>>,
    /// The last group's row part, to check the rows' order.
    last_group: Option<R>,
}

/// The shared state of a cell query, moved into each refill.
struct Merge<S, K, Q, V, R, C> {
    sources: Vec<Source<S, K, Q, V, R, C>>,
    column: WideColumn<Q, V>,
    order: CellOrder<K, Q, R, C>,
    /// Cells at or before this one in the order were delivered before.
    after: Option<(C, Vec<u8>, Vec<u8>)>,
    delivered: u64,
    last: Option<(Vec<u8>, Vec<u8>)>,
    fingerprint: u64,
}

/// The merge, moved whole between refills.
type Boxed<S, K, Q, V, R, C> = Box<Merge<S, K, Q, V, R, C>>;

/// A source's refill, borrowing it.
type SourceRefill<'a> = Pin<Box<dyn Future<Output = Result<(), StoreError>> + Send + 'a>>;

/// A refill of the sources with empty buffers, owning the merge.
type Refill<S, K, Q, V, R, C> =
    Pin<Box<dyn Future<Output = (Box<Merge<S, K, Q, V, R, C>>, Result<(), StoreError>)> + Send>>;

/// The cells of a plan's rows, merged in a [`CellOrder`]: what
/// [`CellQueryExt::query_cells`](super::CellQueryExt::query_cells)
/// returns. It ends after its first error; dropping it cancels the read.
pub struct CellQuery<S, K, Q, V, R, C> {
    merge: Option<Boxed<S, K, Q, V, R, C>>,
    refill: Option<Refill<S, K, Q, V, R, C>>,
    failed: Option<StoreError>,
}

// Nothing of it is pinned in place: the merge moves between refills.
impl<S, K, Q, V, R, C> Unpin for CellQuery<S, K, Q, V, R, C> {}

impl<S, K, Q, V, R, C> CellQuery<S, K, Q, V, R, C>
where
    S: Store,
    K: DecodeKeyOwned + Clone + Send + 'static,
    Q: Qualifier + Send + 'static,
    V: CellValue + Send + 'static,
    R: Ord + Clone + Send + 'static,
    C: Ord + Clone + Send + Sync + 'static,
{
    /// The query of `plan`'s rows, from `cursor` when given (checked).
    pub(super) fn new<const N: usize>(
        store: S,
        plan: &ScanPlan<N>,
        column: WideColumn<Q, V>,
        slice: CellSlice,
        order: CellOrder<K, Q, R, C>,
        cursor: Option<&CellCursor>,
    ) -> Self {
        match Self::build(store, plan, column, slice, order, cursor) {
            Ok(merge) => CellQuery {
                merge: Some(Box::new(merge)),
                refill: None,
                failed: None,
            },
            Err(e) => CellQuery {
                merge: None,
                refill: None,
                failed: Some(e),
            },
        }
    }

    fn build<const N: usize>(
        store: S,
        plan: &ScanPlan<N>,
        column: WideColumn<Q, V>,
        slice: CellSlice,
        order: CellOrder<K, Q, R, C>,
        cursor: Option<&CellCursor>,
    ) -> Result<Merge<S, K, Q, V, R, C>, StoreError> {
        if plan.limit().is_some() {
            return Err(StoreError::InvalidRequest {
                op: "query cells",
                key: Vec::new(),
                why: "a plan with a row limit: a cell query counts cells (take n of the \
                      stream, or pages of n)"
                    .into(),
            });
        }
        let fingerprint = query_fingerprint(plan, &slice, order.newest_first);
        let ranges: Vec<KeyRange> = plan.ranges().map(KeyRange::from).collect();
        if ranges.len() > CellCursor::MAX_RANGES {
            return Err(StoreError::InvalidRequest {
                op: "query cells",
                key: Vec::new(),
                why: format!(
                    "a plan of {} ranges: a cell query resumes at most {} (fewer IN-list values)",
                    ranges.len(),
                    CellCursor::MAX_RANGES
                ),
            });
        }
        let fuzzy = plan.fuzzy().map(FuzzyFilter::from);
        let mut after = None;
        let mut delivered = 0;
        let mut last = None;
        let resumes = match cursor {
            None => vec![RangeResume::Start; ranges.len()],
            Some(c) => {
                check_cursor(c, plan, fingerprint, &ranges)?;
                let (row, q) = c.last();
                let key = K::decode(row)
                    .map_err(|_| invalid(InvalidCursor::KeyOutsidePlan { key: row.to_vec() }))?;
                let qualifier = Q::from_qualifier(q).map_err(|_| {
                    invalid(InvalidCursor::Malformed {
                        why: "its last qualifier is not one of the column's",
                    })
                })?;
                after = Some(((order.cell)(&key, &qualifier), row.to_vec(), q.to_vec()));
                delivered = c.delivered();
                last = Some((row.to_vec(), q.to_vec()));
                c.ranges().to_vec()
            }
        };
        let sources = ranges
            .into_iter()
            .zip(&resumes)
            .map(|(range, resume)| Source {
                rows: RangeRows::new(
                    store.clone(),
                    range,
                    plan.is_reversed(),
                    fuzzy.clone(),
                    resume,
                    slice.clone(),
                    column.cells_per_page(),
                ),
                pending: None,
                buffer: VecDeque::new(),
                group_start: None,
                last_group: None,
            })
            .collect();
        Ok(Merge {
            sources,
            column,
            order,
            after,
            delivered,
            last,
            fingerprint,
        })
    }

    /// The cursor of what is delivered so far, if anything is left.
    fn cursor(merge: &Merge<S, K, Q, V, R, C>) -> Option<CellCursor> {
        let (row, q) = merge.last.clone()?;
        let ranges: Vec<RangeResume> = merge
            .sources
            .iter()
            .map(|s| {
                if !s.buffer.is_empty() {
                    RangeResume::From(s.group_start.clone().unwrap_or_default())
                } else if let Some((row, _)) = &s.pending {
                    RangeResume::From(row.key.clone())
                } else if s.rows.done {
                    RangeResume::Done
                } else {
                    match &s.rows.last {
                        Some(k) => RangeResume::After(k.clone()),
                        None => RangeResume::Start,
                    }
                }
            })
            .collect();
        if ranges.iter().all(|r| *r == RangeResume::Done) {
            return None;
        }
        Some(CellCursor::new(
            merge.fingerprint,
            merge.delivered,
            row,
            q,
            ranges,
        ))
    }
}

/// What every source's refill reads but does not change.
struct Shared<'a, Q, V, K, R, C> {
    column: &'a WideColumn<Q, V>,
    order: &'a CellOrder<K, Q, R, C>,
    after: Option<&'a (C, Vec<u8>, Vec<u8>)>,
}

impl<S, K, Q, V, R, C> Source<S, K, Q, V, R, C>
where
    S: Store,
    K: DecodeKeyOwned + Clone + Send + 'static,
    Q: Qualifier + Send + 'static,
    V: CellValue + Send + 'static,
    R: Ord + Clone + Send + 'static,
    C: Ord + Clone + Send + Sync + 'static,
{
    fn exhausted(&self) -> bool {
        self.buffer.is_empty() && self.pending.is_none() && self.rows.done
    }

    /// Reads groups until one has cells not delivered before, or the
    /// range ends.
    async fn refill(&mut self, shared: &Shared<'_, Q, V, K, R, C>) -> Result<(), StoreError> {
        while self.buffer.is_empty() && !self.exhausted() {
            self.next_group(shared).await?;
        }
        Ok(())
    }

    /// Reads the next group of rows into the buffer, sorted (empty when
    /// every cell of the group was delivered before).
    async fn next_group(&mut self, shared: &Shared<'_, Q, V, K, R, C>) -> Result<(), StoreError> {
        let newest_first = shared.order.newest_first;
        let row_of = shared.order.row;
        let first = match self.pending.take() {
            Some(p) => Some(p),
            None => match self.rows.next_row().await? {
                Some(row) => Some(decoded(row)?),
                None => None,
            },
        };
        let Some(first) = first else { return Ok(()) };
        let group = row_of(&first.1);
        if let Some(last) = &self.last_group {
            let backwards = if newest_first {
                group > *last
            } else {
                group < *last
            };
            if backwards {
                return Err(out_of_order(first.0.key.clone(), newest_first));
            }
        }
        self.group_start = Some(first.0.key.clone());
        let mut rows = vec![first];
        while let Some(row) = self.rows.next_row().await? {
            let row = decoded(row)?;
            if row_of(&row.1) == group {
                rows.push(row);
            } else {
                self.pending = Some(row);
                break;
            }
        }
        self.last_group = Some(group);
        let mut items = Vec::with_capacity(rows.iter().map(|(r, _)| r.cells.len()).sum());
        for (row, key) in rows {
            let row_key: Arc<[u8]> = row.key.into();
            for cell in row.cells {
                let (qualifier, value) = shared.column.decode(&row_key, &cell)?;
                let order = (shared.order.cell)(&key, &qualifier);
                // Delivered by an earlier page.
                if let Some((o, r, q)) = shared.after {
                    let done = match (&order, &*row_key, cell.qualifier.as_slice()).cmp(&(o, r, q))
                    {
                        Ordering::Less => !newest_first,
                        Ordering::Greater => newest_first,
                        Ordering::Equal => true,
                    };
                    if done {
                        continue;
                    }
                }
                items.push(Item {
                    order,
                    row: row_key.clone(),
                    qualifier: cell.qualifier,
                    cell: RowCell {
                        key: key.clone(),
                        qualifier,
                        value,
                    },
                });
            }
        }
        items.sort_by(|a, b| {
            let ord = a.cmp_key(&b.order, &b.row, &b.qualifier);
            if newest_first {
                ord.reverse()
            } else {
                ord
            }
        });
        self.buffer = items.into();
        Ok(())
    }
}

/// A range whose rows come out of the order's row order.
fn out_of_order(key: Vec<u8>, newest_first: bool) -> StoreError {
    StoreError::InvalidRequest {
        op: "query cells",
        key,
        why: format!(
            "the plan's rows come out of the cell order's row order at this row: read the \
             plan {} to merge {}",
            if newest_first { "reversed" } else { "forwards" },
            if newest_first {
                "newest first"
            } else {
                "oldest first"
            },
        ),
    }
}

impl<S, K, Q, V, R, C> Merge<S, K, Q, V, R, C>
where
    S: Store,
    K: DecodeKeyOwned + Clone + Send + 'static,
    Q: Qualifier + Send + 'static,
    V: CellValue + Send + 'static,
    R: Ord + Clone + Send + 'static,
    C: Ord + Clone + Send + Sync + 'static,
{
    /// Fills every source whose buffer is empty with its next group, the
    /// sources' reads in flight together (one round trip for all, not
    /// one a source).
    async fn refill(&mut self) -> Result<(), StoreError> {
        let shared = Shared {
            column: &self.column,
            order: &self.order,
            after: self.after.as_ref(),
        };
        let shared = &shared;
        let refills: Vec<SourceRefill<'_>> = self
            .sources
            .iter_mut()
            .filter(|s| s.buffer.is_empty() && !s.exhausted())
            .map(|s| Box::pin(s.refill(shared)) as SourceRefill<'_>)
            .collect();
        join_all(refills).await
    }

    fn exhausted(&self, i: usize) -> bool {
        self.sources[i].exhausted()
    }

    /// The next cell in the order, when every source with cells left has
    /// its buffer filled; `None` when none has.
    fn pop(&mut self) -> Option<RowCell<K, Q, V>> {
        let newest_first = self.order.newest_first;
        // The source of the best head so far.
        let mut best: Option<usize> = None;
        for (i, s) in self.sources.iter().enumerate() {
            let Some(head) = s.buffer.front() else {
                continue;
            };
            let better = match best.and_then(|b| self.sources[b].buffer.front()) {
                None => true,
                Some(h) => {
                    let ord = head.cmp_key(&h.order, &h.row, &h.qualifier);
                    if newest_first {
                        ord == Ordering::Greater
                    } else {
                        ord == Ordering::Less
                    }
                }
            };
            if better {
                best = Some(i);
            }
        }
        let i = best?;
        let item = self.sources[i].buffer.pop_front()?;
        self.delivered += 1;
        self.last = Some((item.row.to_vec(), item.qualifier));
        Some(item.cell)
    }

    /// Whether every source that has cells left has some buffered.
    fn ready(&self) -> bool {
        self.sources
            .iter()
            .all(|s| !s.buffer.is_empty() || s.exhausted())
    }
}

/// Runs `futures` together; the first error, once all have ended.
async fn join_all(mut futures: Vec<SourceRefill<'_>>) -> Result<(), StoreError> {
    let mut first = None;
    std::future::poll_fn(|cx| {
        futures.retain_mut(|f| match f.as_mut().poll(cx) {
            Poll::Pending => true,
            Poll::Ready(r) => {
                if let Err(e) = r {
                    first.get_or_insert(e);
                }
                false
            }
        });
        if futures.is_empty() {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await;
    first.map_or(Ok(()), Err)
}

/// A row read, with its key decoded.
fn decoded<K: DecodeKeyOwned>(row: Row) -> Result<(Row, K), StoreError> {
    let key = K::decode(&row.key).map_err(|e| StoreError::BadRecord {
        op: "query cells",
        key: row.key.clone(),
        source: Box::new(e),
    })?;
    Ok((row, key))
}

impl<S, K, Q, V, R, C> Stream for CellQuery<S, K, Q, V, R, C>
where
    S: Store,
    K: DecodeKeyOwned + Clone + Send + 'static,
    Q: Qualifier + Send + 'static,
    V: CellValue + Send + 'static,
    R: Ord + Clone + Send + 'static,
    C: Ord + Clone + Send + Sync + 'static,
{
    type Item = Result<RowCell<K, Q, V>, StoreError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if let Some(e) = this.failed.take() {
            return Poll::Ready(Some(Err(e)));
        }
        loop {
            if let Some(refill) = this.refill.as_mut() {
                let Poll::Ready((merge, done)) = refill.as_mut().poll(cx) else {
                    return Poll::Pending;
                };
                this.refill = None;
                if let Err(e) = done {
                    return Poll::Ready(Some(Err(e)));
                }
                this.merge = Some(merge);
            }
            let Some(merge) = this.merge.as_mut() else {
                return Poll::Ready(None);
            };
            if merge.ready() {
                return Poll::Ready(merge.pop().map(Ok));
            }
            let mut merge = this.merge.take().expect("the merge");
            this.refill = Some(Box::pin(async move {
                let done = merge.refill().await;
                (merge, done)
            }));
        }
    }
}

/// A page of `n` cells of `query`, and the cursor after it.
pub(super) async fn page<S, K, Q, V, R, C>(
    mut query: CellQuery<S, K, Q, V, R, C>,
    n: usize,
) -> Result<CellPage<K, Q, V>, StoreError>
where
    S: Store,
    K: DecodeKeyOwned + Clone + Send + 'static,
    Q: Qualifier + Send + 'static,
    V: CellValue + Send + 'static,
    R: Ord + Clone + Send + 'static,
    C: Ord + Clone + Send + Sync + 'static,
{
    if n == 0 {
        return Err(StoreError::InvalidRequest {
            op: "query cells",
            key: Vec::new(),
            why: "a page of 0 cells: ask for at least one".into(),
        });
    }
    let mut cells = Vec::with_capacity(n.min(4096));
    while cells.len() < n {
        match super::next(&mut query).await {
            Some(cell) => cells.push(cell?),
            None => return Ok(CellPage { cells, next: None }),
        }
    }
    // Whether anything is left: the sources are filled up to their next
    // cell before the cursor is taken, so a page that ends the query
    // says so.
    let Some(mut merge) = query.merge.take() else {
        return Ok(CellPage { cells, next: None });
    };
    merge.refill().await?;
    let next = if (0..merge.sources.len()).all(|i| merge.exhausted(i)) {
        None
    } else {
        CellQuery::cursor(&merge)
    };
    Ok(CellPage { cells, next })
}

/// What a cell cursor is checked against: the plan's pages, the slice and
/// the direction.
fn query_fingerprint<const N: usize>(plan: &ScanPlan<N>, slice: &CellSlice, newest: bool) -> u64 {
    let text = format!("cells {:016x} {slice:?} {newest}", plan.page_fingerprint());
    rowkey_core::layout::fnv1a_64(text.as_bytes())
}

fn invalid(e: InvalidCursor) -> StoreError {
    StoreError::InvalidCursor(e)
}

/// A cursor is this query's: its fingerprint, a resume for each range,
/// each key in its range, a count some page gives, a last cell the plan
/// selects.
fn check_cursor<const N: usize>(
    c: &CellCursor,
    plan: &ScanPlan<N>,
    fingerprint: u64,
    ranges: &[KeyRange],
) -> Result<(), StoreError> {
    if c.query_fingerprint() != fingerprint {
        return Err(invalid(InvalidCursor::OtherPlan {
            cursor: c.query_fingerprint(),
            plan: fingerprint,
        }));
    }
    if c.ranges().len() != ranges.len() {
        return Err(invalid(InvalidCursor::Malformed {
            why: "it resumes another number of ranges than the plan has",
        }));
    }
    for (r, range) in c.ranges().iter().zip(ranges) {
        if let Some(k) = r.key().filter(|k| !range.contains(k)) {
            return Err(invalid(InvalidCursor::KeyOutsidePlan { key: k.to_vec() }));
        }
    }
    if !plan.contains(c.last().0) {
        return Err(invalid(InvalidCursor::KeyOutsidePlan {
            key: c.last().0.to_vec(),
        }));
    }
    if c.delivered() == 0 {
        return Err(invalid(InvalidCursor::ImpossibleCount {
            delivered: 0,
            limit: None,
        }));
    }
    Ok(())
}
