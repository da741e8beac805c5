//! [`QueryStream`]: the rows of a [`ScanPlan`] read from a store, range by
//! range, and merged back into logical key order (salt prefix ignored)
//! with bounded memory and a bounded number of reads in flight.

use crate::{ReadRequest, Row, RowStream, Store, StoreError};
use futures_core::Stream;
use rowkey_core::scan::{prefix_successor, MergeHeads, MergeOrder, ReadCost, ScanPlan};
use std::collections::VecDeque;
use std::fmt;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Wake, Waker};

/// How a query reads the ranges of a plan.
///
/// Each range (one per salt bucket) is read in pages, each resuming after
/// the last key of the one before, with at most `concurrency` reads in
/// flight over all ranges. A page is drained into its range's buffer as
/// it arrives. The query holds at most about `buffer_rows` rows, buffered
/// or asked for, whatever the size of its result:
/// - a range the merge waits on (nothing buffered) always gets a read,
///   for its share of the free budget, between 1 and `page_rows` rows;
/// - a range running low (under a quarter page) is read ahead a full page
///   while the budget has room for it.
///
/// So a plan of 120 buckets starts with pages of `buffer_rows / 120` rows
/// and reads larger pages as the merge drains them.
///
/// **Ranges one after another.** In a plan merged in key order, a range
/// that starts after the end of the range whose rows come out first (an
/// IN-list's values in key order: one range each, none overlapping) is
/// not waited on: the merge gives every row before its start without
/// it. Such ranges are read in the merge's order, as many at once as
/// `concurrency` allows, each for the budget's share per read in flight
/// (a limited query: the rows it still wants, while fewer than that are
/// buffered). A page over 400 such ranges then reads the few it needs,
/// and a walk of it reads each once.
///
/// **A query with a limit** (a plan's `with_limit`, `latest(n)`, a
/// [`page`](crate::StoreExt::page)) reads about what it returns: each
/// range is first asked for its share of the limit (`n / ranges + 1`
/// rows, over the ranges the merge waits on), and a range the merge runs dry on while it still wants rows is
/// asked again for as many rows as it has delivered so far (never more
/// than the query still wants), and nothing is read ahead. A limit of `n`
/// over `B` ranges reads at most about `2n + 2B` rows, however the rows
/// fall over the ranges, where asking every range for `n` rows read up to
/// `n * B`. A query without a limit reads each row once. (A
/// [`page`](crate::StoreExt::page) is such a limited query; on a store
/// with [`parked_walks`](crate::Store::parked_walks) the next page goes
/// on with it, reading ahead within a budget that grows with the walk.)
///
/// Bounding the rows asked for matters to gRPC clients too: h2 (under
/// tonic) counts the small DATA frames it holds unread and closes the
/// connection (`ENHANCE_YOUR_CALM`) past a budget of half its window, so
/// large reads left unread by a slow consumer would break it. The
/// defaults (32 reads in flight, 10,000 rows, pages of at most 1,000) stay
/// under it, and rowkey-bigtable retries such a close as transient.
///
/// ```
/// use rowkey::store::QueryOptions;
/// let o = QueryOptions::default().concurrency(16).page_rows(500).buffer_rows(4_000);
/// assert_eq!((o.concurrency, o.page_rows, o.buffer_rows), (16, 500, 4_000));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct QueryOptions {
    /// The most reads in flight at once (at least 1).
    pub concurrency: usize,
    /// The most rows one read asks for (at least 1).
    pub page_rows: usize,
    /// About how many rows a query may hold or have asked for at once,
    /// over all its ranges (at least one per range).
    pub buffer_rows: usize,
}

impl Default for QueryOptions {
    fn default() -> Self {
        QueryOptions {
            concurrency: 32,
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

    /// About `n` rows held or asked for at once, over all ranges.
    pub fn buffer_rows(mut self, n: usize) -> Self {
        self.buffer_rows = n;
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
    /// Wakes the query for this range's read, and says which range woke.
    waker: Waker,
    /// Whether the range is on the query's list of ranges that may be
    /// starved, or of those that may be running low.
    maybe_starved: bool,
    maybe_low: bool,
    /// Rows asked of this range so far: a limited query's next read of
    /// it asks as many again.
    asked_total: u64,
    /// Its last read was a window (up to the other ranges' heads) that
    /// ended short: the next one reads past it.
    window_spent: bool,
    /// Where the range's rows end in the merge's order (its stop; its
    /// start when reversed), when that is a key of the merge's order; see
    /// [`Extent`].
    end: Option<Vec<u8>>,
}

impl Range {
    fn idle(&self) -> bool {
        !self.done && self.fetch.is_none()
    }
}

/// The ranges whose reads woke since the query last polled them, and the
/// task to wake when one does while the query waits.
///
/// A query polls only the reads that woke it (and those it just started),
/// not every read in flight for every row it yields.
struct Woken {
    ranges: Vec<usize>,
    /// Whether each range is in `ranges`.
    queued: Vec<bool>,
    /// The task waiting on the query (taken by the first wake).
    task: Option<Waker>,
}

/// A range's waker: queues its range, then wakes the query's task.
struct RangeWaker {
    woken: Arc<Mutex<Woken>>,
    range: usize,
}

impl Wake for RangeWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        let task = {
            let mut woken = self.woken.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(queued @ false) = woken.queued.get_mut(self.range) {
                *queued = true;
                woken.ranges.push(self.range);
            }
            woken.task.take()
        };
        if let Some(task) = task {
            task.wake();
        }
    }
}

/// A read in flight: its stream, the rows asked for and delivered so far.
struct Fetch {
    rows: RowStream,
    asked: u64,
    got: u64,
    /// It asked for every row the query still wanted when it started: once
    /// it delivers them all, no later row of its range can be needed.
    covers_limit: bool,
    /// It reads a window of the range (up to the other ranges' heads):
    /// ending short, it leaves the range open past the window.
    windowed: bool,
}

/// The rows of a plan in logical key order; made by [`StoreExt::query`](crate::StoreExt::query).
/// Ends after the first error, which it yields.
///
/// Dropping it cancels every read in flight.
pub struct QueryStream<S> {
    /// `None` only while a page's query is parked ([`detach`](Self::detach)):
    /// a parked walk must not hold its store, which holds the walks.
    store: Option<S>,
    ranges: Vec<Range>,
    /// The merge of the ranges' next rows, in the plan's order (logical
    /// key order, or after its IN-lists; reversed with it).
    heads: MergeHeads<Row>,
    remaining: Option<u64>,
    /// Reads started ahead of the merge in a limited query: each may hold
    /// a row the query wants, so no more of them in all than rows wanted
    /// (reads ahead that find nothing do not make room for more).
    read_ahead: u64,
    options: QueryOptions,
    in_flight: usize,
    /// Rows buffered, plus rows asked for and not yet delivered.
    held: u64,
    finished: bool,
    /// Which ranges' reads woke, shared with the ranges' wakers.
    woken: Arc<Mutex<Woken>>,
    /// The ranges being polled (the woken list, swapped out).
    polling: Vec<usize>,
    /// Ranges that may be starved: the merge waits on them and nothing of
    /// them is buffered or being read. Checked when a read may start.
    maybe_starved: Vec<usize>,
    /// Ranges that may be running low: idle, under a quarter page
    /// buffered. Read ahead while the budget has room (not when the query
    /// has a limit).
    maybe_low: Vec<usize>,
    /// The ranges not read yet that stand in the merge at their start
    /// (a plan merged in key order), in the merge's order of their starts.
    /// See [`start_reads`](Self::start_reads).
    unread: VecDeque<usize>,
    /// The range, not done, whose rows end first in the merge's order
    /// (every range starting after that end is read ahead, not waited
    /// on); `None` to be found again (a range ended).
    first_end: Option<Option<usize>>,
    /// A page's query, kept for the pages after it: reaching its limit
    /// does not close its reads, and no read ends a range for covering
    /// the limit.
    walk: bool,
    /// Rows the store sent and reads started, so far.
    cost: ReadCost,
}

impl<S: Store> QueryStream<S> {
    pub(crate) fn new<const N: usize>(store: S, plan: &ScanPlan<N>, options: QueryOptions) -> Self {
        let ranges = plan
            .ranges()
            .map(|r| {
                let mut request = ReadRequest::range(&r);
                if plan.is_reversed() {
                    request = request.reversed();
                }
                if let Some(fuzzy) = plan.fuzzy() {
                    request = request.with_fuzzy(fuzzy);
                }
                request
            })
            .collect::<Vec<_>>();
        let n = ranges.len();
        let woken = Arc::new(Mutex::new(Woken {
            ranges: Vec::new(),
            queued: vec![false; n],
            task: None,
        }));
        let ranges: Vec<Range> = ranges
            .into_iter()
            .enumerate()
            .map(|(i, request)| Range {
                request,
                last: None,
                buffer: VecDeque::new(),
                fetch: None,
                done: false,
                waker: Waker::from(Arc::new(RangeWaker {
                    woken: Arc::clone(&woken),
                    range: i,
                })),
                // At first every range is starved.
                maybe_starved: true,
                maybe_low: true,
                asked_total: 0,
                window_spent: false,
                end: None,
            })
            .collect();
        let order = MergeOrder {
            skip: plan.prefix_len(),
            from: plan.merge_offset(),
            reversed: plan.is_reversed(),
        };
        let mut ranges = ranges;
        let mut heads = MergeHeads::new(ranges.len(), order);
        let mut unread = Vec::new();
        if order.from == order.skip {
            for (i, range) in ranges.iter_mut().enumerate() {
                let extent = Extent::of(&range.request, order);
                if let Some(start) = extent.start {
                    heads.set_bound(i, start);
                    unread.push(i);
                }
                range.end = extent.end.map(<[u8]>::to_vec);
            }
            unread.sort_by(|&a, &b| match (heads.bound(a), heads.bound(b)) {
                _ if a == b => std::cmp::Ordering::Equal,
                (Some(x), Some(y)) if order.before(x, a, y, b) => std::cmp::Ordering::Less,
                _ => std::cmp::Ordering::Greater,
            });
        }
        let maybe_starved = (0..n).filter(|&i| heads.bound(i).is_none()).collect();
        QueryStream {
            store: Some(store),
            heads,
            ranges,
            remaining: plan.limit().map(|l| l as u64),
            read_ahead: 0,
            options,
            in_flight: 0,
            held: 0,
            finished: false,
            woken,
            polling: Vec::new(),
            maybe_starved,
            maybe_low: (0..n).collect(),
            unread: unread.into(),
            first_end: None,
            walk: false,
            cost: ReadCost::default(),
        }
    }

    /// What this query has read so far: rows the store sent and reads
    /// started (each range's request, and each read after it when the
    /// range needs more rows). Log it when the stream ends, or read it
    /// between rows.
    ///
    /// ```
    /// use futures::StreamExt;
    /// use rowkey::scan::ScanPlan;
    /// use rowkey::store::{MemStore, Row, Store, StoreExt};
    /// # futures::executor::block_on(async {
    /// let store = MemStore::new();
    /// let rows: Vec<Row> = (0..10u8).map(|i| Row::new(vec![b'a', i], vec![rowkey::store::Cell::new("d", "v", "x")])).collect();
    /// store.write_rows(rows).await?;
    /// let plan = ScanPlan::<4>::from_bounds(b"a", Some(b"b")).unwrap();
    /// let mut query = store.query(&plan);
    /// let mut returned = 0;
    /// while let Some(row) = query.next().await {
    ///     row?;
    ///     returned += 1;
    /// }
    /// assert_eq!(returned, 10);
    /// assert_eq!(query.cost().rows_read, 10);
    /// assert!(query.cost().reads_started >= 1);
    /// # Ok::<(), rowkey::store::StoreError>(())
    /// # }).unwrap();
    /// ```
    pub fn cost(&self) -> ReadCost {
        self.cost
    }

    /// A page's query (its plan limited to the page and its look-ahead
    /// row), kept open at its limit so a later page can go on with it
    /// ([`continue_walk`](Self::continue_walk)).
    pub(crate) fn walk<const N: usize>(store: S, plan: &ScanPlan<N>) -> Self {
        let mut query = QueryStream::new(store, plan, QueryOptions::default());
        query.walk = true;
        query
    }

    /// Goes on with a walk's query for another page: unlimited from now
    /// on, holding or asking for at most `budget` rows (at least one per
    /// range the merge waits on), reading ahead within it as a query
    /// without a limit does.
    pub(crate) fn continue_walk(&mut self, budget: usize) {
        self.remaining = None;
        self.options.buffer_rows = budget;
        for (i, range) in self.ranges.iter_mut().enumerate() {
            if range.idle() && !range.maybe_low {
                range.maybe_low = true;
                self.maybe_low.push(i);
            }
        }
    }

    /// Lets go of the store, for parking: a parked walk is held by the
    /// store's [`ParkedWalks`](crate::ParkedWalks), so holding the store
    /// back would keep both alive for ever.
    pub(crate) fn detach(&mut self) {
        self.store = None;
    }

    /// Takes a store again, to go on after parking.
    pub(crate) fn attach(&mut self, store: S) {
        self.store = Some(store);
    }

    /// Waits for every read in flight to deliver what it asked for (into
    /// its range's buffer), starting none: a parked walk then holds rows,
    /// not open reads (no stream left unread in a connection's window, no
    /// deadline running between pages). An error ends the walk: the next
    /// page reads afresh and meets it there.
    pub(crate) fn settle(
        &mut self,
    ) -> impl std::future::Future<Output = Result<(), StoreError>> + '_ {
        std::future::poll_fn(move |cx| loop {
            let freed = self.poll_reads()?;
            if self.in_flight == 0 {
                return Poll::Ready(Ok(()));
            }
            if !freed {
                self.wait(cx);
                return Poll::Pending;
            }
        })
    }

    /// Starts a read of range `i` for `asked` rows (fewer when the query
    /// wants fewer), only up to `window` when given.
    fn start(&mut self, i: usize, asked: u64, window: Option<Vec<u8>>) {
        // Never polled while detached: nothing to read with.
        let Some(store) = &self.store else {
            return;
        };
        let asked = asked.min(self.remaining.unwrap_or(u64::MAX)).max(1);
        let range = &mut self.ranges[i];
        let mut request = match &range.last {
            Some(last) => range.request.after(last),
            None => range.request.clone(),
        }
        .with_limit(asked);
        if request.is_empty() {
            range.done = true;
            return;
        }
        let windowed = window.is_some();
        if let Some(stop) = window {
            request = request.until(&stop);
            if request.is_empty() {
                // Nothing of the range before the other heads: the caller
                // reads past them.
                range.window_spent = true;
                return;
            }
        }
        range.window_spent = false;
        range.asked_total += asked;
        self.cost.reads_started += 1;
        range.fetch = Some(Fetch {
            rows: store.read_rows(request),
            asked,
            got: 0,
            covers_limit: !self.walk && self.remaining.is_some_and(|r| asked >= r),
            windowed,
        });
        self.in_flight += 1;
        self.held += asked;
        // A new read is polled at once (nothing has woken for it yet).
        self.polling.push(i);
    }

    /// Where a limited query's read of range `i` may stop: the first of
    /// the other ranges' heads in merge order, as a key of range `i`. Every
    /// row of range `i` before it comes out of the merge before any other
    /// range's, so a read up to it wastes nothing. Only once the range has
    /// been read (its share came first), when every other range's head is
    /// known (buffered, or the range is done), and for plans merged in
    /// logical key order (an IN-list's order after its list is not a key
    /// range's).
    fn window_for(&self, i: usize) -> Option<Vec<u8>> {
        let order = self.heads.order();
        let range = &self.ranges[i];
        if self.remaining.is_none()
            || range.asked_total == 0
            || range.window_spent
            || order.from != order.skip
        {
            return None;
        }
        let mut first: Option<(&[u8], usize)> = None;
        for (j, other) in self.ranges.iter().enumerate() {
            if j == i || other.done {
                continue;
            }
            let head = other.buffer.front()?;
            let better = first.is_none_or(|(key, source)| order.before(&head.key, j, key, source));
            if better {
                first = Some((&head.key, j));
            }
        }
        let (head, _) = first?;
        // The bucket's own prefix, then the head's logical key.
        let prefix = range.request.ranges().first()?.start.get(..order.skip)?;
        let mut stop = Vec::with_capacity(head.len());
        stop.extend_from_slice(prefix);
        stop.extend_from_slice(head.get(order.skip..)?);
        Some(stop)
    }

    /// Whether the merge waits on range `i` and nothing of it is buffered
    /// or being read.
    fn starved(&self, i: usize) -> bool {
        let range = &self.ranges[i];
        range.idle() && range.buffer.is_empty() && self.heads.awaits(i)
    }

    /// Starts reads while reads may start: first for the ranges the merge
    /// waits on, each for its share of the free budget; then ranges the
    /// merge reaches later, ahead of it; then ahead, a full page, for
    /// ranges running low while the budget has room.
    ///
    /// Only the ranges on the `maybe_starved` and `maybe_low` lists are
    /// looked at (a range joins them when the merge takes its head, a read
    /// of it ends, or its buffer runs low), not all of them for every row.
    ///
    /// **Ranges one after another.** In a plan merged in key order, a
    /// range not read yet stands in the merge at its start
    /// ([`MergeHeads::set_bound`]), and one that starts where the first
    /// range to end (in the merge's order) has ended is not waited on:
    /// none of its rows can come out before that end. An IN-list's 400
    /// drivers in key order are 400 such ranges; a page of 50 rows needs
    /// the first few. Those later ranges are read ahead in the merge's
    /// order, as many at once as reads may be in flight, each for its share
    /// of the free budget over the reads that may start: a page's walk
    /// then reads each small range once, where asking all 400 for their
    /// share of one page read each of them a row at a time.
    fn start_reads(&mut self) {
        let concurrency = self.options.concurrency.max(1);
        let page = self.options.page_rows.max(1) as u64;
        let budget = self.options.buffer_rows as u64;
        if self.in_flight >= concurrency {
            return;
        }
        let unread_waited = self.unread_waited();
        if !self.maybe_starved.is_empty() {
            let mut list = std::mem::take(&mut self.maybe_starved);
            list.retain(|&i| {
                let starved = self.starved(i);
                self.ranges[i].maybe_starved = starved;
                starved
            });
            // In range order, as a scan of every range would start them.
            list.sort_unstable();
            let waited_total = (list.len() + unread_waited) as u64;
            let mut started = 0;
            for &i in &list {
                if self.in_flight >= concurrency {
                    break;
                }
                if let Some(window) = self.window_for(i) {
                    // Every row of the window comes out next: ask for all
                    // the query still wants, none is wasted.
                    self.start(i, page, Some(window));
                }
                if self.ranges[i].fetch.is_none() && !self.ranges[i].done {
                    let waited = (list.len() - started + unread_waited) as u64;
                    let ask = self.waited_ask(i, waited, waited_total);
                    self.start(i, ask.clamp(1, page), None);
                }
                self.ranges[i].maybe_starved = false;
                started += 1;
            }
            // The rest wait for a read to end.
            list.drain(..started);
            self.maybe_starved = list;
        }
        self.start_unread(unread_waited);
        // A limited query reads no range ahead: what it reads ahead of the
        // merge's need is what it may never return.
        if self.maybe_low.is_empty() || self.remaining.is_some() {
            return;
        }
        let mut list = std::mem::take(&mut self.maybe_low);
        let mut seen = 0;
        for &i in &list {
            if self.in_flight >= concurrency || self.held + page > budget {
                break;
            }
            let r = &self.ranges[i];
            // A range not read yet is read in its turn (`start_unread`).
            if r.idle() && r.asked_total > 0 && (r.buffer.len() as u64) < (page / 4).max(1) {
                self.start(i, page, None);
            }
            // Read ahead, or not low (any more): off the list until it is.
            self.ranges[i].maybe_low = false;
            seen += 1;
        }
        list.drain(..seen);
        self.maybe_low = list;
    }

    /// What a read of range `i`, which the merge waits on, asks for, with
    /// `waited` ranges (this one among them) still waiting for a read, of
    /// `waited_total` when reads began to start: its share of the free
    /// budget among them (or among the reads that may start, when those
    /// are more); in a limited query, its share of the limit among all.
    fn waited_ask(&self, i: usize, waited: u64, waited_total: u64) -> u64 {
        let slots = (self.options.concurrency.max(1) - self.in_flight) as u64;
        let sharers = waited
            .max(self.unread.len().min(slots as usize) as u64)
            .max(1);
        let share = (self.options.buffer_rows as u64).saturating_sub(self.held) / sharers;
        match self.remaining {
            None => share,
            // What the range has delivered again (its share of the limit
            // among the ranges waited on, at first): a range that keeps
            // running dry is asked for doubling totals, and what a read
            // wastes is at most what the range already gave.
            Some(remaining) => match self.ranges[i].asked_total {
                0 => remaining / waited_total.max(1) + 1,
                total => total,
            }
            .min(share.max(1)),
        }
    }

    /// What a read ahead of a range not read yet would ask for now; 0
    /// when it should not start. Without a limit: the budget's share per
    /// read in flight, while the budget has room for it. With one (`n`
    /// rows still wanted): `n` rows (the ranges before it may yield fewer
    /// than `n`), while fewer than `n` rows are buffered and fewer than
    /// `n` reads have been started ahead, within the `2n + 2B` rows such a
    /// query may read.
    fn ahead_ask(&self) -> u64 {
        let page = self.options.page_rows.max(1) as u64;
        match self.remaining {
            None => {
                let budget = self.options.buffer_rows as u64;
                let ask = (budget / self.options.concurrency.max(1) as u64).clamp(1, page);
                if self.held + ask <= budget {
                    ask
                } else {
                    0
                }
            }
            Some(remaining) => {
                let cap = 2 * remaining + 2 * self.ranges.len() as u64;
                let ask = remaining.clamp(1, page);
                let pending: u64 = self
                    .ranges
                    .iter()
                    .filter_map(|r| r.fetch.as_ref())
                    .map(|f| f.asked - f.got)
                    .sum();
                // Each read ahead may hold a row the query wants: no more
                // of them in flight than rows still wanted.
                if self.held - pending < remaining
                    && self.read_ahead < remaining
                    && self.held + ask <= cap
                {
                    ask
                } else {
                    0
                }
            }
        }
    }

    /// How many of the ranges not read yet the merge waits on: those that
    /// start before the first range to end has ended (in the merge's
    /// order), at the front of `unread`.
    fn unread_waited(&mut self) -> usize {
        if self.unread.is_empty() {
            return 0;
        }
        let first_end = self.first_end();
        let (ranges, heads) = (&self.ranges, &self.heads);
        let end = first_end.and_then(|f| ranges[f].end.as_deref().map(|end| (f, end)));
        let Some((f, end)) = end else {
            return self.unread.len();
        };
        // Ties come after: the end is not a row of range `f`. Range `f`
        // itself is waited on, wherever it starts.
        self.unread.partition_point(|&i| {
            i == f
                || heads
                    .bound(i)
                    .is_none_or(|start| heads.order().before(start, 1, end, 0))
        })
    }

    /// Starts reads of the ranges not read yet, in the merge's order: the
    /// `waited` first ones (the merge waits on them) each for its share,
    /// then ahead of the merge while the budget has room.
    fn start_unread(&mut self, mut waited: usize) {
        let page = self.options.page_rows.max(1) as u64;
        let waited_total = (waited + self.maybe_starved.len()) as u64;
        while let Some(&i) = self.unread.front() {
            if self.in_flight >= self.options.concurrency.max(1) {
                return;
            }
            let range = &self.ranges[i];
            if range.asked_total > 0 || range.done || range.fetch.is_some() {
                // Read already (the merge waited on it as a starved range).
                self.unread.pop_front();
                waited = waited.saturating_sub(1);
                continue;
            }
            let ask = if waited > 0 {
                self.waited_ask(i, waited as u64, waited_total)
                    .clamp(1, page)
            } else {
                match self.ahead_ask() {
                    0 => return,
                    ask => {
                        self.read_ahead += u64::from(self.remaining.is_some());
                        ask
                    }
                }
            };
            self.start(i, ask, None);
            if self.ranges[i].fetch.is_none() && !self.ranges[i].done {
                // Not started (a parked walk has no store to read with).
                return;
            }
            self.ranges[i].maybe_starved = false;
            self.unread.pop_front();
            waited = waited.saturating_sub(1);
        }
    }

    /// Whether every row of range `i` has come out of the merge.
    fn finished(&self, i: usize) -> bool {
        let range = &self.ranges[i];
        range.done && range.buffer.is_empty() && !self.heads.holds_row(i)
    }

    /// The range with rows still to come out whose rows end first in the
    /// merge's order; `None` when that is not known (a range with no
    /// such end).
    fn first_end(&mut self) -> Option<usize> {
        if let Some(found) = self.first_end {
            if found.is_none_or(|i| !self.finished(i)) {
                return found;
            }
        }
        let order = self.heads.order();
        let mut first: Option<usize> = None;
        for (i, range) in self.ranges.iter().enumerate() {
            if self.finished(i) {
                continue;
            }
            let Some(end) = &range.end else {
                // Its rows may go on past every other end.
                continue;
            };
            let earlier = first.is_none_or(|f| {
                let other = self.ranges[f].end.as_deref().unwrap_or_default();
                order.before(end, i, other, f)
            });
            if earlier {
                first = Some(i);
            }
        }
        self.first_end = Some(first);
        first
    }

    /// Puts range `i` on the lists of ranges to look at when reads may
    /// start.
    fn look_at(&mut self, i: usize) {
        let range = &mut self.ranges[i];
        if !range.idle() {
            return;
        }
        if !range.maybe_starved {
            range.maybe_starved = true;
            self.maybe_starved.push(i);
        }
        if !range.maybe_low {
            range.maybe_low = true;
            self.maybe_low.push(i);
        }
    }

    /// Drains the reads that woke (or just started) into their ranges'
    /// buffers. Returns whether a read ended (freeing its place for
    /// another).
    fn poll_reads(&mut self) -> Result<bool, StoreError> {
        {
            let mut guard = self.woken.lock().unwrap_or_else(PoisonError::into_inner);
            let woken = &mut *guard;
            for &i in &woken.ranges {
                woken.queued[i] = false;
            }
            let woken = &mut woken.ranges;
            if self.polling.is_empty() {
                std::mem::swap(&mut self.polling, woken);
            } else {
                self.polling.append(woken);
            }
        }
        let mut freed = false;
        let mut polling = std::mem::take(&mut self.polling);
        for &i in &polling {
            let range = &mut self.ranges[i];
            let Some(fetch) = &mut range.fetch else {
                continue;
            };
            let mut cx = Context::from_waker(&range.waker);
            loop {
                // A read that delivered all it asked for ends here (a store
                // that would send more breaks no budget): its range is done
                // only if it covered the whole query's limit.
                let ended = if fetch.got >= fetch.asked {
                    Some(fetch.covers_limit)
                } else {
                    match fetch.rows.as_mut().poll_next(&mut cx) {
                        Poll::Pending => None,
                        Poll::Ready(Some(Ok(row))) => {
                            fetch.got += 1;
                            self.cost.rows_read += 1;
                            // The last key's buffer is reused: no
                            // allocation per row.
                            match &mut range.last {
                                Some(last) => {
                                    last.clear();
                                    last.extend_from_slice(&row.key);
                                }
                                None => range.last = Some(row.key.clone()),
                            }
                            range.buffer.push_back(row);
                            continue;
                        }
                        Poll::Ready(Some(Err(e))) => return Err(e),
                        // Fewer rows than asked: the range is read to its
                        // end (a window, only to the window's end).
                        Poll::Ready(None) => {
                            Some(!fetch.windowed && (fetch.got < fetch.asked || fetch.covers_limit))
                        }
                    }
                };
                if let Some(done) = ended {
                    range.done = done;
                    // A window that ended short: the next read goes past it.
                    range.window_spent = fetch.windowed && fetch.got < fetch.asked;
                    self.held -= fetch.asked - fetch.got;
                    range.fetch = None;
                    self.in_flight -= 1;
                    freed = true;
                    self.look_at(i);
                }
                break;
            }
        }
        polling.clear();
        self.polling = polling;
        Ok(freed)
    }

    /// Whether a read could start now for a range on the lists.
    fn may_start(&self) -> bool {
        let page = self.options.page_rows.max(1) as u64;
        self.in_flight < self.options.concurrency.max(1)
            && (!self.maybe_starved.is_empty()
                || (!self.maybe_low.is_empty()
                    && self.remaining.is_none()
                    && self.held + page <= self.options.buffer_rows as u64))
    }

    /// Before the query waits: registers its task to be woken by the
    /// next read that wakes.
    ///
    /// When one woke while the query was busy, its task is woken at once:
    /// the query yields rather than polling again in this call, because a
    /// read may have woken only to yield (tokio's cooperative budget: a
    /// task that spent it gets `Pending` and an immediate wake from every
    /// resource until it returns to the scheduler).
    fn wait(&mut self, cx: &Context<'_>) {
        let mut woken = self.woken.lock().unwrap_or_else(PoisonError::into_inner);
        if !woken.ranges.is_empty() {
            drop(woken);
            cx.waker().wake_by_ref();
            return;
        }
        match &woken.task {
            Some(task) if task.will_wake(cx.waker()) => {}
            _ => woken.task = Some(cx.waker().clone()),
        }
    }

    /// Gives the merge each awaited range's next buffered row (or its
    /// end); `true` when every range's head is known.
    fn fill_heads(&mut self) -> bool {
        let low = (self.options.page_rows.max(1) / 4).max(1);
        let (ranges, held) = (&mut self.ranges, &mut self.held);
        let (maybe_starved, maybe_low) = (&mut self.maybe_starved, &mut self.maybe_low);
        self.heads.fill(|i| {
            let range = &mut ranges[i];
            let head = match range.buffer.pop_front() {
                Some(row) => {
                    *held -= 1;
                    // A drained buffer gives its room back: kept, 120
                    // buffers that once held a page each would hold
                    // memory the budget no longer counts.
                    if range.buffer.is_empty() && range.buffer.capacity() > 64 {
                        range.buffer = VecDeque::new();
                    }
                    Some(Some(row))
                }
                None if range.done => return Some(None),
                None => None,
            };
            // Awaited, or running low: worth a look when reads may start.
            if range.idle() {
                if head.is_none() && !range.maybe_starved {
                    range.maybe_starved = true;
                    maybe_starved.push(i);
                }
                if range.buffer.len() < low && !range.maybe_low {
                    range.maybe_low = true;
                    maybe_low.push(i);
                }
            }
            head
        })
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
            let freed = match this.poll_reads() {
                Ok(freed) => freed,
                Err(e) => {
                    this.finish();
                    return Poll::Ready(Some(Err(e)));
                }
            };
            if this.fill_heads() {
                let Some((i, row)) = this.heads.pop() else {
                    this.finish();
                    return Poll::Ready(None);
                };
                // The merge now waits on range `i`.
                if this.ranges[i].buffer.is_empty() {
                    this.look_at(i);
                }
                if let Some(n) = &mut this.remaining {
                    *n -= 1;
                    if *n == 0 && !this.walk {
                        // The last row: close the reads still open now,
                        // not when the stream is dropped.
                        this.finish();
                    }
                }
                return Poll::Ready(Some(Ok(row)));
            }
            // A read ended: another may start, or a range is now done.
            // Otherwise every read in flight is pending and will wake us.
            if !freed && !this.may_start() {
                this.wait(cx);
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
        self.maybe_starved.clear();
        self.maybe_low.clear();
        self.heads = MergeHeads::new(0, self.heads.order());
    }
}

impl<S> Unpin for QueryStream<S> {}

/// Where the query is: its ranges (read, in flight, done), rows held and
/// still wanted. The store is left out: it need not be `Debug`.
impl<S> fmt::Debug for QueryStream<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let done = self.ranges.iter().filter(|r| r.done).count();
        f.debug_struct("QueryStream")
            .field("ranges", &self.ranges.len())
            .field("ranges_done", &done)
            .field("in_flight", &self.in_flight)
            .field("rows_held", &self.held)
            .field("rows_remaining", &self.remaining)
            .field("options", &self.options)
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

/// Where a range's rows lie in a merge in key order (salt prefix
/// ignored): `start` comes no later than any of its rows in the merge's
/// order, and `end` comes after all of them (its stop; reversed, its
/// start and stop swap). Each is a key of the range's own bucket, or
/// `None` where the range has no such key (a range to the end of its
/// bucket has no end a key of the bucket can give; one over several
/// buckets has neither).
struct Extent<'a> {
    start: Option<&'a [u8]>,
    end: Option<&'a [u8]>,
}

impl<'a> Extent<'a> {
    fn of(request: &'a ReadRequest, order: MergeOrder) -> Self {
        let none = Extent {
            start: None,
            end: None,
        };
        let [range] = request.ranges() else {
            return none;
        };
        let Some(bucket) = range.start.get(..order.skip) else {
            return none;
        };
        // A stop inside the bucket is a key of it; a stop at the bucket's
        // end (the first key of the next) is not, but keeps the range in
        // the bucket.
        let stop = range.stop.as_deref();
        let stop_inside = stop.filter(|s| s.len() > bucket.len() && s.starts_with(bucket));
        if stop_inside.is_none() && stop != prefix_successor(bucket).as_deref() {
            return none;
        }
        let low = Some(range.start.as_slice());
        if order.reversed {
            Extent {
                start: stop_inside,
                end: low,
            }
        } else {
            Extent {
                start: low,
                end: stop_inside,
            }
        }
    }
}
