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
/// Each range (one per salt bucket) is read in pages, at most
/// `concurrency` pages in flight over all ranges. A page is drained into
/// its range's buffer as it arrives; the next page of a range resumes
/// after its last key and is fetched ahead while the range holds less
/// than a page. A page holds `buffer_rows / (2 * ranges)` rows, at least 1
/// and at most `page_rows`, so a query holds at most about `buffer_rows`
/// rows whatever the size of its result.
///
/// Bounding the rows in flight matters to gRPC clients too: h2 (under
/// tonic) counts the small DATA frames it holds unread and closes the
/// connection (`ENHANCE_YOUR_CALM`) past a budget of half its window, so
/// many large pages left unread at once would break a read. The defaults
/// (8 pages in flight, 10,000 rows buffered, pages of at most 1,000 rows)
/// stay well under it.
///
/// ```
/// use rowkey::store::QueryOptions;
/// let o = QueryOptions::default().concurrency(16).page_rows(500).buffer_rows(4_000);
/// assert_eq!((o.concurrency, o.page_rows, o.buffer_rows), (16, 500, 4_000));
/// // 120 buckets share 4,000 buffered rows: pages of 16.
/// assert_eq!(o.page_for(120), 16);
/// assert_eq!(o.page_for(1), 500);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct QueryOptions {
    /// The most reads in flight at once (at least 1).
    pub concurrency: usize,
    /// The most rows one read asks for (at least 1).
    pub page_rows: usize,
    /// About how many rows a query may hold at once, over all its ranges.
    pub buffer_rows: usize,
}

impl Default for QueryOptions {
    fn default() -> Self {
        QueryOptions {
            concurrency: 8,
            page_rows: 1000,
            buffer_rows: 10_000,
        }
    }
}

impl QueryOptions {
    /// At most `n` reads in flight (0 is taken as 1).
    pub fn concurrency(mut self, n: usize) -> Self {
        self.concurrency = n.max(1);
        self
    }

    /// Pages of at most `n` rows (0 is taken as 1).
    pub fn page_rows(mut self, n: usize) -> Self {
        self.page_rows = n.max(1);
        self
    }

    /// About `n` rows held at once, over all ranges.
    pub fn buffer_rows(mut self, n: usize) -> Self {
        self.buffer_rows = n;
        self
    }

    /// The rows a read asks for when a plan has `ranges` ranges.
    pub fn page_for(&self, ranges: usize) -> usize {
        (self.buffer_rows / ranges.max(1) / 2).clamp(1, self.page_rows.max(1))
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
        let page_rows = options.page_for(ranges.len()) as u64;
        QueryStream {
            store,
            heap: BinaryHeap::with_capacity(ranges.len()),
            ranges,
            skip: plan.prefix_len(),
            remaining: plan.limit().map(|l| l as u64),
            page_rows,
            concurrency,
            in_flight: 0,
            finished: false,
        }
    }

    /// Starts reads, while reads may start: first for ranges the merge
    /// waits on (nothing buffered), then ahead for ranges holding less
    /// than a page.
    fn start_reads(&mut self) {
        let page = self.page_rows;
        for waiting in [true, false] {
            for range in &mut self.ranges {
                if self.in_flight >= self.concurrency {
                    return;
                }
                let starved = !range.in_heap && range.buffer.is_empty();
                let wants = if waiting {
                    starved
                } else {
                    (range.buffer.len() as u64) < page
                };
                if range.done || range.fetch.is_some() || !wants {
                    continue;
                }
                let asked = self.remaining.unwrap_or(u64::MAX).min(page);
                let request = match &range.last {
                    Some(last) => range.request.after(last),
                    None => range.request.clone(),
                }
                .with_limit(asked);
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
    }

    /// Drains every read in flight into its range's buffer. Returns
    /// whether a read ended (freeing its place for another).
    fn poll_reads(&mut self, cx: &mut Context<'_>) -> Result<bool, StoreError> {
        let mut freed = false;
        for range in &mut self.ranges {
            let Some(fetch) = &mut range.fetch else {
                continue;
            };
            loop {
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
