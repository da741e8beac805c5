//! A read as a stream of rows: one scanner per range, opened on a pooled
//! connection, advanced a page at a time (no more rows asked for than the
//! limit still wants), closed at the range's end, when the limit is met
//! or when the stream is dropped.
//!
//! What a gateway's scan cannot say, the loop does on the client: a
//! reversed scan's start row is inclusive, so a range read backwards is
//! scanned from its stop row and the steps of
//! [`ReverseStep`](crate::ReverseStep) drop what lies outside it; a fuzzy
//! key (Thrift 1's filter language has no `FuzzyRowFilter`) drops the
//! rows that do not match it before the limit counts them.
//!
//! After a transient failure, or a scanner the server forgot (its lease
//! expired while the reader was slow), the range is opened again strictly
//! after the last row the server returned, so no row comes twice and none
//! is missed.
//!
//! A scanner id is the server's for one connection: a scanner is advanced
//! and closed only on the connection that opened it (its page's job goes
//! to that connection's thread), and forgotten, never closed elsewhere,
//! once that connection is gone. Every row the server returns is checked
//! to lie in the range asked for, after the last row taken: one that does
//! not fails the read ([`GatewayError::Inconsistent`]), never joins it.

use super::parked::{OpenScanner, Parked, ScanKey};
use super::pool::{ConnectionId, Pool, Slot};
use super::retry::with_retries;
use super::{Connection, Connector, GatewayError, ServerScan, Target};
use crate::bounds::{below, reverse_step, Bounds};
use crate::reversed::ReverseStep;
use futures_core::Stream;
use rowkey_core::scan::FuzzyFilter;
use rowkey_store::{CellSlice, Columns, KeyRange, ReadRequest, Row, RowStream, StoreError};
use std::collections::{BTreeMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// The rows of `request`; a parked scanner older than `max_staleness`
/// is not gone on with (none is parked when it is zero).
pub(crate) fn read<C: Connector>(
    target: Target<C>,
    request: ReadRequest,
    max_staleness: std::time::Duration,
) -> RowStream {
    let nothing = request.is_empty() || request.limit() == Some(0) || request.reads_no_cell();
    if nothing {
        // A scan without rows or columns would read the whole table.
        return Box::pin(futures_util::stream::empty());
    }
    let mut ranges: VecDeque<KeyRange> = request.ranges().iter().cloned().collect();
    if request.is_reversed() {
        ranges = ranges.into_iter().rev().collect();
    }
    let cursor = Cursor {
        ranges,
        reversed: request.is_reversed(),
        fuzzy: request.fuzzy().cloned(),
        columns: request.columns().cloned(),
        cells: request.cells().cloned(),
        left: request.limit(),
        open: None,
        stale: None,
        finished: Vec::new(),
        page_rows: target.page_rows.max(1),
        table: target.table.clone(),
        at_limit_cleanly: false,
        park: None,
        parks: !max_staleness.is_zero(),
    };
    let mut cursor = cursor;
    // The next page of a read that stopped at its limit goes on with its
    // scanner.
    let (parked, expired) = target.parked.take(&cursor.key(), max_staleness);
    cursor.open = parked;
    close_scanners(&target.pool, None, expired);
    Box::pin(ReadStream {
        target,
        state: State::Idle(Box::new(cursor)),
        rows: VecDeque::new(),
    })
}

/// What is left of a read; it moves into each page's job and back.
struct Cursor {
    /// The ranges not yet read to their end, in reading order; the first
    /// is trimmed past each row the server returns.
    ranges: VecDeque<KeyRange>,
    reversed: bool,
    fuzzy: Option<FuzzyFilter>,
    columns: Option<Columns>,
    cells: Option<CellSlice>,
    /// Rows the limit still wants.
    left: Option<u64>,
    /// The scanner open on the first range.
    open: Option<OpenScanner>,
    /// A scanner a failed call left open, to close on its connection if
    /// that is still there.
    stale: Option<OpenScanner>,
    /// Scanners read to their end, closed once the rows are on their way.
    finished: Vec<OpenScanner>,
    table: Arc<str>,
    /// The open scanner stands just after the last row delivered: every
    /// row of its last batch was taken (so it can be parked at the limit).
    at_limit_cleanly: bool,
    /// The scanner to park once the rows are on their way, and its key.
    park: Option<(ScanKey, OpenScanner)>,
    /// Whether its scanner may be parked at all.
    parks: bool,
    page_rows: u32,
}

impl Cursor {
    fn is_done(&self) -> bool {
        self.ranges.is_empty() || self.left == Some(0)
    }

    /// Whether it still holds a scanner on the server.
    fn holds_scanners(&self) -> bool {
        self.open.is_some()
            || self.stale.is_some()
            || !self.finished.is_empty()
            || self.park.is_some()
    }

    /// Whether its open scanner may be parked: the read stopped at its
    /// limit with the scanner just after the last row it delivered.
    fn parkable(&self) -> bool {
        self.parks && self.left == Some(0) && self.at_limit_cleanly && !self.ranges.is_empty()
    }

    /// What is left of the read, as parked scanners are keyed.
    fn key(&self) -> ScanKey {
        let mut ranges: Vec<KeyRange> = self.ranges.iter().cloned().collect();
        ranges.sort_by(|a, b| a.start.cmp(&b.start));
        ScanKey {
            table: self.table.to_string(),
            ranges,
            reversed: self.reversed,
            fuzzy: self.fuzzy.clone(),
            columns: self.columns.clone(),
            cells: self.cells.clone(),
        }
    }

    /// The slot whose connection holds the open scanner, if any: the next
    /// page's job must run there.
    fn slot(&self) -> Option<usize> {
        self.open.map(|o| o.on.slot)
    }

    /// Whether the first range holds no HBase row (any more).
    fn front_is_empty(&self) -> bool {
        self.ranges
            .front()
            .is_some_and(|f| Bounds::hbase(&f.start, f.stop.as_deref()).is_none())
    }

    /// Drops the first range, read to its end (or empty): its scanner, if
    /// open, is done with.
    fn pop_front(&mut self) {
        self.ranges.pop_front();
        self.finished.extend(self.open.take());
    }

    /// The next rows (empty only when the read is done), opening,
    /// advancing and closing scanners as it goes, on the connection `on`.
    fn next_page(
        &mut self,
        conn: &mut impl Connection,
        on: ConnectionId,
        table: &str,
    ) -> Result<Vec<Row>, GatewayError> {
        if let Some(stale) = self.stale.take() {
            // Best effort, and only where its id means it: the server
            // expires it anyway.
            if stale.on == on {
                let _ = conn.close_scanner(stale.id);
            }
        }
        if self.open.is_some_and(|o| o.on != on) {
            // Opened on a connection that is gone (the server or the
            // network dropped it): so is the scanner. The range is read
            // again after the last row delivered.
            self.open = None;
        }
        loop {
            if self.is_done() {
                match self.open.take() {
                    Some(open) if self.parkable() => self.park = Some((self.key(), open)),
                    open => self.finished.extend(open),
                }
                self.ranges.clear();
                return Ok(Vec::new());
            }
            let front = &self.ranges[0];
            let Some(bounds) = Bounds::hbase(&front.start, front.stop.as_deref()) else {
                // No HBase row can be in it (any more: its last row was
                // the last delivered).
                self.pop_front();
                continue;
            };
            let want = match (&self.fuzzy, self.left) {
                // Rows the fuzzy key drops do not count: ask a whole page.
                (None, Some(left)) => left.min(u64::from(self.page_rows)) as u32,
                _ => self.page_rows,
            };
            if let Some(open) = self.open.filter(|o| o.caches_too_few_for(want)) {
                // A scanner opened for a tiny read (a parked one, a walk's
                // first page) caches a few rows per trip to the region
                // server: a large batch from it costs the server a trip
                // per few rows. One opened for this batch, where the old
                // one stands (the range is trimmed past every row it
                // returned), costs one.
                self.finished.push(open);
                self.open = None;
            }
            let scan = self.server_scan(&bounds, want);
            let open = match self.open {
                Some(open) => open,
                None => {
                    let id = conn.open_scanner(table, &scan)?;
                    let open = OpenScanner {
                        id,
                        on,
                        caching: scan.caching,
                    };
                    self.open = Some(open);
                    open
                }
            };
            // Rows of the range after the last delivered, in order, or
            // the read fails: never a row of another scan.
            let rows = conn
                .next_rows(open.id, want)
                .and_then(|rows| check_rows(&scan, &bounds, rows));
            let rows = match rows {
                Ok(rows) => rows,
                Err(e) => {
                    self.open = None;
                    if !matches!(e, GatewayError::ScannerLost(_)) && !e.breaks_connection() {
                        self.stale = Some(open);
                    }
                    return Err(e);
                }
            };
            let mut ended = rows.len() < want as usize;
            let mut page = Vec::with_capacity(rows.len());
            let mut last = None;
            let batch = rows.len();
            let mut taken = 0;
            for row in rows {
                taken += 1;
                if self.reversed {
                    match step(&bounds, &row.key) {
                        ReverseStep::Stop => {
                            ended = true;
                            break;
                        }
                        ReverseStep::Skip => continue,
                        ReverseStep::Take => {}
                    }
                }
                if self.left == Some(0) {
                    // This row and the rest of the batch were read and
                    // not delivered: the scanner is past them.
                    taken -= 1;
                    break;
                }
                last = Some(row.key.clone());
                let row = match &self.cells {
                    Some(slice) => cap_row(row, slice),
                    None => row,
                };
                let kept = !row.cells.is_empty();
                if kept && self.fuzzy.as_ref().is_none_or(|f| f.matches(&row.key)) {
                    if let Some(left) = &mut self.left {
                        *left -= 1;
                    }
                    page.push(row);
                }
            }
            self.at_limit_cleanly = !ended && taken == batch;
            if let Some(last) = last {
                self.resume_after(&last);
            }
            // A range whose last row was just delivered is read: its
            // scanner must not be taken for the next range's.
            if ended || self.front_is_empty() {
                self.pop_front();
            }
            if !page.is_empty() {
                return Ok(page);
            }
        }
    }

    /// The scan of the first range, whose bounds are `b`.
    fn server_scan(&self, b: &Bounds, want: u32) -> ServerScan {
        let (start_row, stop_row) = if self.reversed {
            // From the stop row down; the steps drop the stop row itself
            // and stop below the start row.
            (b.stop.clone().unwrap_or_default(), below(&b.start))
        } else {
            (b.start.clone(), b.stop.clone())
        };
        ServerScan {
            start_row,
            stop_row,
            reversed: self.reversed,
            columns: self.columns.clone(),
            cells: self.cells.clone(),
            // A page of the store's size, whatever this read wants: the
            // next page (a parked scanner's) is then in the server's cache.
            // Point reads and tiny pages keep theirs.
            caching: if want < 16 {
                want.max(1)
            } else {
                want.max(self.page_rows)
            },
        }
    }

    /// Trims the first range to what lies past `key` in reading order.
    fn resume_after(&mut self, key: &[u8]) {
        let Some(front) = self.ranges.front_mut() else {
            return;
        };
        if self.reversed {
            front.stop = Some(key.to_vec());
        } else {
            let mut next = Vec::with_capacity(key.len() + 1);
            next.extend_from_slice(key);
            next.push(0);
            front.start = next;
        }
    }

    /// Lets go of every scanner it holds: parks the open one if the read
    /// stopped cleanly at its limit, closes the rest (each on its own
    /// connection, if that is still there).
    fn release<C: Connector>(
        &mut self,
        pool: &Pool<C>,
        slot: Option<&mut Slot<C>>,
        parked: &Parked,
    ) {
        if let Some(open) = self.open {
            if self.parkable() {
                self.open = None;
                self.park = Some((self.key(), open));
            }
        }
        let mut close: Vec<OpenScanner> = Vec::new();
        if let Some((key, open)) = self.park.take() {
            close.extend(parked.park(key, open));
        }
        close.extend(self.stale.take());
        close.append(&mut self.finished);
        close.extend(self.open.take());
        close_scanners(pool, slot, close);
    }
}

/// Closes `scanners` (best effort: one the server no longer has is closed
/// already), each only on the connection that opened it and only while
/// that connection is open: one that is gone took its scanners with it,
/// and the same id elsewhere is somebody else's. Those of `here`'s
/// connection are closed now; the others by a job on their own slot.
pub(crate) fn close_scanners<C: Connector>(
    pool: &Pool<C>,
    mut here: Option<&mut Slot<C>>,
    scanners: Vec<OpenScanner>,
) {
    let mut elsewhere: BTreeMap<usize, Vec<OpenScanner>> = BTreeMap::new();
    for scanner in scanners {
        match here.as_deref_mut() {
            Some(slot) if slot.index() == scanner.on.slot => close_here(slot, scanner),
            _ => elsewhere.entry(scanner.on.slot).or_default().push(scanner),
        }
    }
    for (on, scanners) in elsewhere {
        pool.spawn_on(Some(on), move |slot| {
            for scanner in scanners {
                close_here(slot, scanner);
            }
        });
    }
}

fn close_here<C: Connector>(slot: &mut Slot<C>, scanner: OpenScanner) {
    if let Some(conn) = slot.existing(scanner.on) {
        let _ = conn.close_scanner(scanner.id);
    }
}

/// Drops the client's parked scanners (a write or an admin call went by)
/// and closes them.
pub(crate) fn unpark<C: Connector>(pool: &Pool<C>, parked: &Parked) {
    close_scanners(pool, None, parked.clear());
}

/// `rows`, the answer of a scanner opened as `scan` for a range of
/// `bounds`, if every row lies where that scanner can find one, in its
/// order: else the error that says which row did not.
fn check_rows(
    scan: &ServerScan,
    bounds: &Bounds,
    rows: Vec<Row>,
) -> Result<Vec<Row>, GatewayError> {
    let mut before: Option<&[u8]> = None;
    for (i, row) in rows.iter().enumerate() {
        let key = row.key.as_slice();
        let inside = if scan.reversed {
            // From the range's stop row (inclusive) down to below its
            // start (exclusive); the steps drop the stop row itself and
            // what lies below the start.
            scan.stop_row.as_deref().is_none_or(|floor| key > floor)
                && bounds.stop.as_deref().is_none_or(|stop| key <= stop)
        } else {
            key >= bounds.start.as_slice() && bounds.stop.as_deref().is_none_or(|stop| key < stop)
        };
        let in_order = before.is_none_or(|b| if scan.reversed { key < b } else { key > b });
        if !inside || !in_order {
            let why = if inside {
                "out of order"
            } else {
                "outside the scanner's range"
            };
            return Err(GatewayError::Inconsistent(format!(
                "HBase's Thrift server returned row {} (row {i} of a batch of {}) {why}: the \
                 scanner read from {} {} {}{}; the answer is dropped, not read as rows (a \
                 scanner id used on a server that did not open it reads another scan)",
                show(key),
                rows.len(),
                show(&scan.start_row),
                if scan.reversed { "down to" } else { "up to" },
                scan.stop_row
                    .as_deref()
                    .map_or_else(|| "the table's end".to_owned(), show),
                if scan.reversed { " (reversed)" } else { "" },
            )));
        }
        before = Some(key);
    }
    Ok(rows)
}

/// A key as text: printable ASCII as is, other bytes as `\xNN`.
fn show(key: &[u8]) -> String {
    format!("\"{}\"", key.escape_ascii())
}

/// Whether a row of a backwards scan of `b` is in it.
fn step(b: &Bounds, key: &[u8]) -> ReverseStep {
    reverse_step(&b.start, b.stop.as_deref(), key)
}

type Fetch = Pin<Box<dyn Future<Output = Result<Fetched, StoreError>> + Send>>;
type Fetched = (Box<Cursor>, Result<Vec<Row>, StoreError>);

enum State {
    Idle(Box<Cursor>),
    Fetching(Fetch),
    Done,
}

struct ReadStream<C: Connector> {
    target: Target<C>,
    state: State,
    rows: VecDeque<Row>,
}

impl<C: Connector> ReadStream<C> {
    fn fetch(&self, mut cursor: Box<Cursor>) -> Fetch {
        let table = self.target.table.clone();
        let retry = self.target.retry;
        let (parked, orphaned) = (self.target.parked.clone(), self.target.parked.clone());
        let (pool, orphan_pool) = (self.target.pool.clone(), self.target.pool.clone());
        Box::pin(self.target.pool.run_then_on(
            // An open scanner is read on its own connection.
            cursor.slot(),
            "read rows",
            move |slot: &mut Slot<C>| {
                let rows =
                    with_retries(slot, &retry, |conn, on| cursor.next_page(conn, on, &table))
                        .map_err(|(e, n)| e.into_store_error("read rows", &table, n));
                let finished = std::mem::take(&mut cursor.finished);
                let park = cursor.park.take();
                let after = move |slot: &mut Slot<C>| {
                    let mut close = finished;
                    if let Some((key, open)) = park {
                        close.extend(parked.park(key, open));
                    }
                    close_scanners(&pool, Some(slot), close);
                };
                ((cursor, rows), after)
            },
            move |(mut cursor, _): Fetched, slot: &mut Slot<C>| {
                cursor.release(&orphan_pool, Some(slot), &orphaned)
            },
        ))
    }
}

impl<C: Connector> Stream for ReadStream<C> {
    type Item = Result<Row, StoreError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(row) = this.rows.pop_front() {
                return Poll::Ready(Some(Ok(row)));
            }
            match std::mem::replace(&mut this.state, State::Done) {
                State::Done => return Poll::Ready(None),
                State::Idle(cursor) => {
                    if cursor.is_done() && !cursor.holds_scanners() {
                        return Poll::Ready(None);
                    }
                    this.state = State::Fetching(this.fetch(cursor));
                }
                State::Fetching(mut fetch) => match fetch.as_mut().poll(cx) {
                    Poll::Pending => {
                        this.state = State::Fetching(fetch);
                        return Poll::Pending;
                    }
                    Poll::Ready(Err(e)) => return Poll::Ready(Some(Err(e))),
                    Poll::Ready(Ok((cursor, Err(e)))) => {
                        this.drop_cursor(cursor);
                        return Poll::Ready(Some(Err(e)));
                    }
                    Poll::Ready(Ok((mut cursor, Ok(rows)))) => {
                        if rows.is_empty() {
                            this.drop_cursor(cursor);
                            return Poll::Ready(None);
                        }
                        // At its limit: the scanner waits for the next
                        // page before these rows are even taken.
                        if cursor.parkable() {
                            if let Some(open) = cursor.open.take() {
                                let evicted = this.target.parked.park(cursor.key(), open);
                                close_scanners(&this.target.pool, None, evicted);
                            }
                        }
                        this.rows.extend(rows);
                        this.state = State::Idle(cursor);
                    }
                },
            }
        }
    }
}

impl<C: Connector> ReadStream<C> {
    /// Lets go of a cursor, closing what it still holds on the server.
    fn drop_cursor(&self, cursor: Box<Cursor>) {
        if cursor.holds_scanners() {
            let mut cursor = cursor;
            cursor.release(&self.target.pool, None, &self.target.parked);
        }
    }
}

impl<C: Connector> Drop for ReadStream<C> {
    fn drop(&mut self) {
        // A fetch in flight closes its scanner itself when its answer
        // finds no one waiting (the pool's orphan hook).
        if let State::Idle(cursor) = std::mem::replace(&mut self.state, State::Done) {
            self.drop_cursor(cursor);
        }
    }
}

/// A row's cells held to a slice: those of its family and ranges, the
/// first of them up to its per-row cap (the servers applied both; the
/// client holds the read to its rules).
fn cap_row(mut row: Row, slice: &CellSlice) -> Row {
    row.cells
        .retain(|c| slice.contains(&c.family, &c.qualifier));
    if let Some(n) = slice.row_limit() {
        row.cells.truncate(n as usize);
    }
    row
}
