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

use super::parked::{OpenScanner, Parked, ScanKey};
use super::pool::Slot;
use super::retry::with_retries;
use super::{Connection, Connector, GatewayError, ScannerId, ServerScan, Target};
use crate::bounds::{below, reverse_step, Bounds};
use crate::reversed::ReverseStep;
use futures_core::Stream;
use rowkey_core::scan::FuzzyFilter;
use rowkey_store::{Columns, KeyRange, ReadRequest, Row, RowStream, StoreError};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// The rows of `request`.
pub(crate) fn read<C: Connector>(target: Target<C>, request: ReadRequest) -> RowStream {
    let nothing = request.is_empty()
        || request.limit() == Some(0)
        || request.columns().is_some_and(Columns::is_empty);
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
        left: request.limit(),
        open: None,
        stale: None,
        finished: Vec::new(),
        page_rows: target.page_rows.max(1),
        table: target.table.clone(),
        at_limit_cleanly: false,
        park: None,
    };
    let mut cursor = cursor;
    // The next page of a read that stopped at its limit goes on with its
    // scanner.
    let (parked, expired) = target.parked.take(&cursor.key());
    cursor.open = parked;
    if !expired.is_empty() {
        target.pool.spawn(move |slot| close_all(slot, expired));
    }
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
    /// Rows the limit still wants.
    left: Option<u64>,
    /// The scanner open on the first range.
    open: Option<OpenScanner>,
    /// A scanner left behind by a broken connection, to close on the next.
    stale: Option<ScannerId>,
    /// Scanners read to their end, closed once the rows are on their way.
    finished: Vec<ScannerId>,
    table: Arc<str>,
    /// The open scanner stands just after the last row delivered: every
    /// row of its last batch was taken (so it can be parked at the limit).
    at_limit_cleanly: bool,
    /// The scanner to park once the rows are on their way, and its key.
    park: Option<(ScanKey, OpenScanner)>,
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
        self.left == Some(0) && self.at_limit_cleanly && !self.ranges.is_empty()
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
        }
    }

    /// The next rows (empty only when the read is done), opening,
    /// advancing and closing scanners as it goes.
    fn next_page(
        &mut self,
        conn: &mut impl Connection,
        table: &str,
    ) -> Result<Vec<Row>, GatewayError> {
        if let Some(id) = self.stale.take() {
            // Best effort: the server expires it anyway.
            let _ = conn.close_scanner(id);
        }
        loop {
            if self.is_done() {
                match self.open.take() {
                    Some(open) if self.parkable() => self.park = Some((self.key(), open)),
                    open => self.finished.extend(open.map(|o| o.id)),
                }
                self.ranges.clear();
                return Ok(Vec::new());
            }
            let front = &self.ranges[0];
            let Some(bounds) = Bounds::hbase(&front.start, front.stop.as_deref()) else {
                // No HBase row can be in it.
                self.ranges.pop_front();
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
                self.finished.push(open.id);
                self.open = None;
            }
            let id = match self.open {
                Some(open) => open.id,
                None => {
                    let scan = self.server_scan(&bounds, want);
                    let id = conn.open_scanner(table, &scan)?;
                    self.open = Some(OpenScanner {
                        id,
                        caching: scan.caching,
                    });
                    id
                }
            };
            let rows = match conn.next_rows(id, want) {
                Ok(rows) => rows,
                Err(e) => {
                    self.open = None;
                    if !matches!(e, GatewayError::ScannerLost(_)) {
                        self.stale = Some(id);
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
                if self.fuzzy.as_ref().is_none_or(|f| f.matches(&row.key)) {
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
            if ended {
                self.finished.extend(self.open.take().map(|o| o.id));
                self.ranges.pop_front();
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

    /// Closes the open scanner, if any (best effort: a scanner the server
    /// cannot close is one it no longer has).
    fn close(&mut self, conn: &mut impl Connection) {
        if let Some(open) = self.open.take() {
            let _ = conn.close_scanner(open.id);
        }
    }

    fn release<C: Connector>(&mut self, slot: &mut Slot<C>, parked: &Parked) {
        if let Some(open) = self.open {
            if self.parkable() {
                self.open = None;
                self.park = Some((self.key(), open));
            }
        }
        if let Some((key, open)) = self.park.take() {
            let evicted = parked.park(key, open);
            close_all(slot, evicted);
        }
        if self.holds_scanners() {
            if let Ok(conn) = slot.connection() {
                for id in self.stale.take().into_iter().chain(self.finished.drain(..)) {
                    let _ = conn.close_scanner(id);
                }
                self.close(conn);
            }
        }
    }
}

/// Closes scanners read to their end (best effort: one the server no
/// longer has is closed already).
pub(crate) fn close_all<C: Connector>(slot: &mut Slot<C>, scanners: Vec<ScannerId>) {
    if scanners.is_empty() {
        return;
    }
    if let Ok(conn) = slot.connection() {
        for id in scanners {
            let _ = conn.close_scanner(id);
        }
    }
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
        Box::pin(self.target.pool.run_then(
            "read rows",
            move |slot: &mut Slot<C>| {
                let rows = with_retries(slot, &retry, |conn| cursor.next_page(conn, &table))
                    .map_err(|(e, n)| e.into_store_error("read rows", &table, n));
                let finished = std::mem::take(&mut cursor.finished);
                let park = cursor.park.take();
                let after = move |slot: &mut Slot<C>| {
                    let mut close = finished;
                    if let Some((key, open)) = park {
                        close.extend(parked.park(key, open));
                    }
                    close_all(slot, close);
                };
                ((cursor, rows), after)
            },
            move |(mut cursor, _): Fetched, slot: &mut Slot<C>| cursor.release(slot, &orphaned),
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
                                if !evicted.is_empty() {
                                    this.target.pool.spawn(move |slot| close_all(slot, evicted));
                                }
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
            let parked = self.target.parked.clone();
            self.target.pool.spawn(move |slot| {
                let mut cursor = cursor;
                cursor.release(slot, &parked)
            });
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
