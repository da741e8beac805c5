//! A resumable `ReadRows` stream: rows are assembled from chunks as they
//! arrive; a transient failure (a cut stream, UNAVAILABLE, a stall, a
//! status with the server's `RetryInfo`) drops the stream and, after the
//! delay the server asked for or a backoff, reads again strictly after the
//! last committed row (or the last row the server said it scanned), with
//! the rows already delivered taken off the limit. The read stops as soon
//! as its limit is reached, and fails with DEADLINE_EXCEEDED once the
//! store's operation timeout has passed.
//!
//! A read is sent as requests of at most `page_rows` rows, each resuming
//! after the last: h2 holds the rows of a request that the caller has not
//! pulled yet, and closes the connection (`ENHANCE_YOUR_CALM`) when too
//! many small DATA frames pile up unread, so a slow reader of one long
//! stream would fail. A page bounds what can pile up.
//!
//! A page of a multi-range read names only the ranges it is likely to
//! reach (its window, sized by the page before; the first page names them
//! all): the emulator gathers every row of a request's `RowSet` before it
//! applies `rows_limit`, so ten pages that each named every range left
//! made it gather five times the rows of the read.

use crate::call::Call;
use crate::chunks::{AssembledRow, RowAssembler};
use crate::rowset::{request_row_set, row_filter};
use crate::status::store_error;
use crate::target::Target;
use bigtable_rs::google::bigtable::v2::{ReadRowsRequest, ReadRowsResponse};
use futures_core::Stream;
use rowkey_store::{ReadRequest, StoreError};
use std::collections::VecDeque;
use std::future::poll_fn;
use std::pin::Pin;
use std::task::Poll;
use tonic::Streaming;

/// A stream of rows of type `R`.
pub(crate) type Rows<R> = Pin<Box<dyn Stream<Item = Result<R, StoreError>> + Send + 'static>>;

/// How many ranges hold about a page and a quarter (`asked` and a
/// quarter), when `window` ranges held `got` rows; `None` (every range
/// left) when they held none.
fn window_for(asked: u64, got: u64, window: u64) -> Option<usize> {
    (got > 0).then(|| {
        let want = asked.saturating_add(asked / 4).saturating_mul(window) / got;
        usize::try_from(want).unwrap_or(usize::MAX)
    })
}

/// The rows of `request`, resumed after transient failures: with
/// `newest`, the newest version of each cell only (the store's rows);
/// without, every version the server holds.
pub(crate) fn read<R: AssembledRow + Send + 'static>(
    target: Target,
    request: ReadRequest,
    newest: bool,
) -> Rows<R> {
    if request.is_empty() {
        // An empty RowSet would read the whole table: send nothing.
        return Box::pin(futures_util::stream::empty());
    }
    let reader = Reader {
        call: Call::start(&target, "read rows"),
        pending: request.clone(),
        window: 0,
        next_window: None,
        newest,
        rows: RowAssembler::new(request.is_reversed()),
        target,
        request,
        stream: None,
        buffer: VecDeque::new(),
        committed: 0,
        page: (0, 0),
        failed: None,
        done: false,
    };
    // Boxed: the reader moves into each row's future and back out, a
    // pointer rather than the whole struct.
    Box::pin(futures_util::stream::unfold(
        Box::new(reader),
        |mut r| async move {
            let item = r.next().await?;
            Some((item, r))
        },
    ))
}

struct Reader<R> {
    target: Target,
    call: Call,
    /// The whole request: its limit counts every row committed.
    request: ReadRequest,
    /// The ranges of the request not yet read to their end (a range a
    /// page read in part is trimmed after the last row when the next page
    /// is sent).
    pending: ReadRequest,
    /// How many of `pending`'s ranges, in reading order, the request in
    /// flight covers.
    window: usize,
    /// How many ranges the next page names (`None`: every range left).
    next_window: Option<usize>,
    /// Whether only the newest version of each cell is read.
    newest: bool,
    stream: Option<Streaming<ReadRowsResponse>>,
    rows: RowAssembler<R>,
    buffer: VecDeque<R>,
    /// Rows committed so far, over every attempt.
    committed: u64,
    /// Rows asked for and committed by the request in flight.
    page: (u64, u64),
    /// A final error, returned once the rows before it are delivered.
    failed: Option<StoreError>,
    done: bool,
}

impl<R: AssembledRow> Reader<R> {
    async fn next(&mut self) -> Option<Result<R, StoreError>> {
        loop {
            if let Some(row) = self.buffer.pop_front() {
                return Some(Ok(row));
            }
            if let Some(e) = self.failed.take() {
                self.done = true;
                return Some(Err(e));
            }
            if self.done {
                return None;
            }
            let step = match self.stream.as_mut() {
                None => self.open().await,
                Some(stream) => {
                    let idle = self.target.retry.idle_timeout;
                    // A message already received needs no timer.
                    let ready = poll_fn(|cx| Poll::Ready(Pin::new(&mut *stream).poll_next(cx)));
                    let message = match ready.await {
                        Poll::Ready(message) => Ok(message.transpose()),
                        Poll::Pending => {
                            self.call
                                .within(idle, "the stream stalled", stream.message())
                                .await
                        }
                    };
                    match message {
                        Err(e) => Err(e),
                        Ok(Err(status)) => Err(store_error("read rows", status)),
                        // A stream may not end in the middle of a row: the
                        // connection was cut short. Retried after the last
                        // whole row.
                        Ok(Ok(None)) if self.rows.in_row() => Err(StoreError::transient(
                            "read rows",
                            "the stream ended in the middle of a row",
                        )),
                        Ok(Ok(None)) => {
                            self.stream = None;
                            self.page_ended();
                            Ok(())
                        }
                        Ok(Ok(Some(response))) => self.take(response),
                    }
                }
            };
            if let Err(e) = step {
                self.fail(e).await;
            }
        }
    }

    /// Sends the request for what is left of the read.
    async fn open(&mut self) -> Result<(), StoreError> {
        if let Some(last) = self.rows.last() {
            self.pending = self.pending.after(last);
        }
        let left = self
            .request
            .limit()
            .map(|l| l.saturating_sub(self.committed));
        if self.pending.ranges().is_empty() || left == Some(0) {
            self.done = true;
            return Ok(());
        }
        let asked = left.unwrap_or(u64::MAX).min(self.target.page_rows);
        let left_ranges = self.pending.ranges().len();
        self.window = self
            .next_window
            .unwrap_or(left_ranges)
            .clamp(1, left_ranges);
        let rest = self.pending.split_ranges(self.window).0.with_limit(asked);
        let message = ReadRowsRequest {
            table_name: self.target.table.to_string(),
            app_profile_id: self.target.app_profile.to_string(),
            rows: Some(request_row_set(&rest, self.rows.last())),
            filter: row_filter(&rest, self.newest),
            rows_limit: rest
                .limit()
                .map_or(0, |l| i64::try_from(l).unwrap_or(i64::MAX)),
            // The same ranges, read from their end.
            reversed: rest.is_reversed(),
            ..ReadRowsRequest::default()
        };
        let request = self.call.request(&self.target, message);
        let mut client = self.target.client.clone();
        let idle = self.target.retry.idle_timeout;
        let response = self
            .call
            .within(idle, "the request", client.get_client().read_rows(request))
            .await?
            .map_err(|status| store_error("read rows", status))?;
        self.call.keep_cookies(response.metadata());
        self.stream = Some(response.into_inner());
        self.page = (asked, 0);
        Ok(())
    }

    /// A page's stream ended. A short page read its window to the end; a
    /// full one stopped at its limit, and the read goes on after its last
    /// row. Either sizes the next page's window.
    ///
    /// The emulator gathers every row of a request's `RowSet` before it
    /// applies `rows_limit`, so pages that each named every range left
    /// would cost it the rest of the read again for every page. A page
    /// names as many ranges as hold about a page and a quarter, by the
    /// last page (a window a little too wide costs the emulator a few rows
    /// more to gather; one too narrow, a request more). The first page
    /// names them all, so that a read of one page stays one request.
    fn page_ended(&mut self) {
        let (asked, got) = self.page;
        if got < asked {
            // Every range of the window read: `got / window` rows each.
            let window = self.window.max(1) as u64;
            self.pending = self.pending.split_ranges(self.window).1;
            self.done = self.pending.ranges().is_empty();
            self.next_window = window_for(asked, got, window);
        } else if let Some(last) = self.rows.last() {
            // The page read `passed` ranges to their end and a part of the
            // next one: the next page starts in that one and names as many
            // more as the page read to their end.
            let before = self.pending.ranges().len();
            self.pending = self.pending.after(last);
            let passed = before - self.pending.ranges().len();
            self.next_window = Some(passed + 1);
        }
    }

    /// Rows from one response message; the read ends once it has its
    /// limit (rows past it, which a server should not send, are dropped).
    fn take(&mut self, response: ReadRowsResponse) -> Result<(), StoreError> {
        let bad = |why| StoreError::backend("read rows", format!("bad response: {why}"));
        let before = self.buffer.len();
        for chunk in response.chunks {
            self.rows.push(chunk, &mut self.buffer).map_err(bad)?;
        }
        if !response.last_scanned_row_key.is_empty() {
            self.rows
                .scanned(&response.last_scanned_row_key)
                .map_err(bad)?;
            self.call.progress();
        }
        let mut new = (self.buffer.len() - before) as u64;
        if let Some(left) = self.request.limit().map(|l| l - self.committed) {
            if new >= left {
                self.buffer.truncate(before + left as usize);
                new = left;
                self.stream = None;
                self.done = true;
            }
        }
        if new > 0 {
            self.committed += new;
            self.page.1 += new;
            // Progress: a later failure starts a fresh count.
            self.call.progress();
        }
        Ok(())
    }

    /// Drops the stream; retries after the wait the call sets when `e` is
    /// worth retrying, else keeps the error to return.
    async fn fail(&mut self, e: StoreError) {
        self.stream = None;
        self.rows.discard_partial();
        if let Err(e) = self.call.retry_after(e).await {
            self.failed = Some(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::window_for;

    #[test]
    fn windows_hold_about_a_page_and_a_quarter() {
        // 4 ranges held 5,000 rows: 1,250 each; a page and a quarter of
        // 10,000 is 10 of them.
        assert_eq!(window_for(10_000, 5_000, 4), Some(10));
        // Ranges larger than a page: one.
        assert_eq!(window_for(10_000, 9_000, 1), Some(1));
        // Empty ranges say nothing: every range left.
        assert_eq!(window_for(10_000, 0, 7), None);
        assert_eq!(window_for(u64::MAX, 1, u64::MAX), Some(usize::MAX));
    }
}
