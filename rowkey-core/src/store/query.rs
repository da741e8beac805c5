//! [`QueryStream`]: the rows of a [`ScanPlan`] read from a store, range by
//! range, and merged back into logical key order (salt prefix ignored)
//! with bounded memory and a bounded number of reads in flight.

use super::{ReadRequest, Row, RowStream, Store, StoreError};
use crate::scan::merge::Head;
use crate::scan::ScanPlan;
use futures_core::Stream;
use std::collections::{BinaryHeap, VecDeque};
use std::pin::Pin;
use std::task::{Context, Poll};

/// How a query reads the ranges of a plan.
///
/// A plan of `n` ranges (one per salt bucket) is read with up to
/// `concurrency` reads in flight:
/// - `n <= concurrency` (the default for plans up to 128 buckets): every
///   range is one streaming read, all open at once; a range is pulled only
///   when the merge needs its next row, so memory stays at about one row
///   per range plus the transport's flow-control window.
/// - `n > concurrency`: ranges are read in pages of `page_rows` rows, at
///   most `concurrency` pages in flight; a page is drained into its
///   range's buffer as it arrives and the next page resumes after its last
///   key. Memory is at most `n * page_rows` rows.
///
/// ```
/// use rowkey::store::QueryOptions;
/// let o = QueryOptions::default().concurrency(8).page_rows(500);
/// assert_eq!((o.concurrency, o.page_rows), (8, 500));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct QueryOptions {
    /// The most reads in flight at once (at least 1).
    pub concurrency: usize,
    /// Rows per read when a plan has more ranges than `concurrency`
    /// (at least 1).
    pub page_rows: usize,
}

impl Default for QueryOptions {
    fn default() -> Self {
        QueryOptions {
            concurrency: 128,
            page_rows: 1000,
        }
    }
}

impl QueryOptions {
    /// At most `n` reads in flight (0 is taken as 1).
    pub fn concurrency(mut self, n: usize) -> Self {
        self.concurrency = n.max(1);
        self
    }

    /// Pages of `n` rows when ranges outnumber the reads in flight (0 is
    /// taken as 1).
    pub fn page_rows(mut self, n: usize) -> Self {
        self.page_rows = n.max(1);
        self
    }
}

/// One range of the plan and how far it has been read.
struct Range {
    request: ReadRequest,
    /// The last key taken from this range's reads: the next read resumes
    /// after it.
    last: Option<Vec<u8>>,
    buffer: VecDeque<Row>,
    fetch: Option<Fetch>,
    /// No more rows will come from this range.
    done: bool,
    /// Its next row is in the heap.
    in_heap: bool,
}

/// A read in flight: its stream, the rows asked for and delivered so far.
struct Fetch {
    rows: RowStream,
    asked: u64,
    got: u64,
}

/// The rows of a plan in logical key order; made by [`Store::query`].
/// Ends after the first error, which it yields.
///
/// Dropping it cancels every read in flight.
pub struct QueryStream<S> {
    store: S,
    ranges: Vec<Range>,
    heap: BinaryHeap<Head<Row>>,
    skip: usize,
    remaining: Option<u64>,
    /// Drain reads eagerly in pages (more ranges than reads in flight).
    paged: bool,
    page_rows: u64,
    concurrency: usize,
    in_flight: usize,
    finished: bool,
}

impl<S: Store> QueryStream<S> {
    pub(crate) fn new<const N: usize>(store: S, plan: &ScanPlan<N>, options: QueryOptions) -> Self {
        let ranges: Vec<Range> = plan
            .ranges()
            .map(|r| Range {
                request: ReadRequest::range(&r),
                last: None,
                buffer: VecDeque::new(),
                fetch: None,
                done: false,
                in_heap: false,
            })
            .collect();
        let concurrency = options.concurrency.max(1);
        QueryStream {
            store,
            heap: BinaryHeap::with_capacity(ranges.len()),
            paged: ranges.len() > concurrency,
            ranges,
            skip: plan.prefix_len(),
            remaining: plan.limit().map(|l| l as u64),
            page_rows: options.page_rows.max(1) as u64,
            concurrency,
            in_flight: 0,
            finished: false,
        }
    }

    /// Starts reads for ranges that need rows, while reads may start.
    fn start_reads(&mut self) {
        for range in &mut self.ranges {
            if self.in_flight >= self.concurrency {
                return;
            }
            let needs =
                !range.done && range.fetch.is_none() && !range.in_heap && range.buffer.is_empty();
            if !needs {
                continue;
            }
            let mut asked = self.remaining.unwrap_or(u64::MAX);
            if self.paged {
                asked = asked.min(self.page_rows);
            }
            let request = match &range.last {
                Some(last) => range.request.after(last),
                None => range.request.clone(),
            };
            let request = if asked == u64::MAX {
                request
            } else {
                request.with_limit(asked)
            };
            if request.is_empty() {
                range.done = true;
                continue;
            }
            range.fetch = Some(Fetch {
                rows: self.store.read_rows(request),
                asked,
                got: 0,
            });
            self.in_flight += 1;
        }
    }

    /// Polls every read in flight: a paged read is drained; a streaming
    /// one gives at most the one row its range needs. Returns whether a
    /// read ended (freeing its place for another).
    fn poll_reads(&mut self, cx: &mut Context<'_>) -> Result<bool, StoreError> {
        let mut freed = false;
        for range in &mut self.ranges {
            let Some(fetch) = &mut range.fetch else {
                continue;
            };
            loop {
                if !self.paged && (range.in_heap || !range.buffer.is_empty()) {
                    break;
                }
                match fetch.rows.as_mut().poll_next(cx) {
                    Poll::Pending => break,
                    Poll::Ready(Some(Ok(row))) => {
                        fetch.got += 1;
                        range.last = Some(row.key.clone());
                        range.buffer.push_back(row);
                    }
                    Poll::Ready(Some(Err(e))) => return Err(e),
                    Poll::Ready(None) => {
                        // Fewer rows than asked: the range is read to its
                        // end. As many as the whole query still wants: no
                        // later row of it can be needed.
                        let limit = self.remaining.unwrap_or(u64::MAX);
                        range.done = fetch.got < fetch.asked || fetch.asked >= limit;
                        range.fetch = None;
                        self.in_flight -= 1;
                        freed = true;
                        break;
                    }
                }
            }
        }
        Ok(freed)
    }

    /// Moves each range's next buffered row into the heap; `true` when
    /// every range that is not done has a row there.
    fn fill_heap(&mut self) -> bool {
        let mut ready = true;
        for (i, range) in self.ranges.iter_mut().enumerate() {
            if range.in_heap {
                continue;
            }
            match range.buffer.pop_front() {
                Some(row) => {
                    self.heap.push(Head {
                        row,
                        source: i,
                        skip: self.skip,
                    });
                    range.in_heap = true;
                }
                None if range.done => {}
                None => ready = false,
            }
        }
        ready
    }
}

impl<S: Store> Stream for QueryStream<S> {
    type Item = Result<Row, StoreError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        // Every field is Unpin: the stream moves freely.
        let this = &mut *self;
        if this.finished || this.remaining == Some(0) {
            return Poll::Ready(None);
        }
        loop {
            this.start_reads();
            let freed = match this.poll_reads(cx) {
                Ok(freed) => freed,
                Err(e) => {
                    this.finish();
                    return Poll::Ready(Some(Err(e)));
                }
            };
            if this.fill_heap() {
                let Some(Head { row, source, .. }) = this.heap.pop() else {
                    this.finish();
                    return Poll::Ready(None);
                };
                this.ranges[source].in_heap = false;
                if let Some(n) = &mut this.remaining {
                    *n -= 1;
                }
                return Poll::Ready(Some(Ok(row)));
            }
            // A read ended: another may start, or a range is now done.
            // Otherwise every read in flight is pending and will wake us.
            if !freed {
                return Poll::Pending;
            }
        }
    }
}

impl<S> QueryStream<S> {
    /// Drops every read in flight and the buffers.
    fn finish(&mut self) {
        self.finished = true;
        self.ranges.clear();
        self.heap.clear();
    }
}

impl<S> Unpin for QueryStream<S> {}
