//! A resumable `ReadRows` stream: rows are assembled from chunks as they
//! arrive; a transient failure (a cut stream, UNAVAILABLE, a stall) drops
//! the stream and, after a backoff, reads again strictly after the last
//! committed row, with the rows already delivered taken off the limit.
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

use crate::chunks::RowAssembler;
use crate::status::{store_error, url_encode};
use bigtable_rs::bigtable::BigTable;
use bigtable_rs::google::bigtable::v2::column_range::{EndQualifier, StartQualifier};
use bigtable_rs::google::bigtable::v2::row_filter::{Chain, Filter, Interleave};
use bigtable_rs::google::bigtable::v2::row_range::{EndKey, StartKey};
use bigtable_rs::google::bigtable::v2::{
    ColumnRange, ReadRowsRequest, ReadRowsResponse, RowFilter, RowRange, RowSet,
};
use futures_core::Stream;
use rowkey_store::{Columns, ReadRequest, RetryPolicy, Row, RowStream, StoreError};
use std::collections::VecDeque;
use std::future::poll_fn;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;
use tokio::time::timeout;
use tonic::metadata::MetadataValue;
use tonic::Streaming;

/// `google.bigtable.v2.FeatureFlags { reverse_scans: true }` as Bigtable's
/// clients send it: the message's bytes (`08 01`: field 1, varint 1),
/// base64url-encoded.
const FEATURE_FLAGS: &str = "CAE=";

/// Where reads go: the client, the full table name and the retry policy.
#[derive(Clone)]
pub(crate) struct Target {
    pub(crate) client: BigTable,
    pub(crate) table: Arc<str>,
    pub(crate) app_profile: Arc<str>,
    pub(crate) retry: RetryPolicy,
    /// The most rows one request asks for.
    pub(crate) page_rows: u64,
}

impl Target {
    /// A tonic request with Bigtable's routing header.
    pub(crate) fn request<T>(&self, message: T) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        let params = format!(
            "table_name={}&app_profile_id={}",
            url_encode(&self.table),
            url_encode(&self.app_profile)
        );
        if let Ok(value) = MetadataValue::try_from(params) {
            request
                .metadata_mut()
                .insert("x-goog-request-params", value);
        }
        // The client's feature flags: without `reverse_scans`, Bigtable
        // (and the emulator) refuse a reversed read as UNIMPLEMENTED.
        request.metadata_mut().insert(
            "bigtable-features",
            MetadataValue::from_static(FEATURE_FLAGS),
        );
        request
    }
}

/// The `RowSet` of a request's ranges (exactly its bounds: start
/// inclusive, stop exclusive).
pub(crate) fn row_set(request: &ReadRequest) -> RowSet {
    RowSet {
        row_keys: vec![],
        row_ranges: request
            .ranges()
            .iter()
            .map(|r| RowRange {
                start_key: Some(StartKey::StartKeyClosed(r.start.clone())),
                end_key: r.stop.clone().map(EndKey::EndKeyOpen),
            })
            .collect(),
    }
}

/// The filter every read sends: the request's fuzzy key as a
/// `RowKeyRegexFilter` (a row whose key does not match is dropped whole,
/// and `rows_limit` counts only the rows that pass), then its columns
/// (only their cells are kept, and a row with none of them is not
/// returned), then the newest version of each cell (as MemStore keeps
/// only that).
pub(crate) fn row_filter(request: &ReadRequest) -> RowFilter {
    let newest = RowFilter {
        filter: Some(Filter::CellsPerColumnLimitFilter(1)),
    };
    let mut filters = Vec::new();
    if let Some(fuzzy) = request.fuzzy() {
        filters.push(regex_filter(fuzzy.bigtable_regex()));
    }
    if let Some(columns) = request.columns() {
        filters.push(columns_filter(columns));
    }
    if filters.is_empty() {
        return newest;
    }
    filters.push(newest);
    RowFilter {
        filter: Some(Filter::Chain(Chain { filters })),
    }
}

/// The cells of `columns` only: one `ColumnRangeFilter` per column, from
/// its qualifier to its qualifier, both closed (exact bytes: no regex to
/// escape), interleaved; no column: every cell blocked.
pub(crate) fn columns_filter(columns: &Columns) -> RowFilter {
    let mut ranges: Vec<RowFilter> = columns
        .iter()
        .map(|(family, qualifier)| RowFilter {
            filter: Some(Filter::ColumnRangeFilter(ColumnRange {
                family_name: family.to_owned(),
                start_qualifier: Some(StartQualifier::StartQualifierClosed(qualifier.to_vec())),
                end_qualifier: Some(EndQualifier::EndQualifierClosed(qualifier.to_vec())),
            })),
        })
        .collect();
    match ranges.len() {
        0 => RowFilter {
            filter: Some(Filter::BlockAllFilter(true)),
        },
        1 => ranges.remove(0),
        _ => RowFilter {
            filter: Some(Filter::Interleave(Interleave { filters: ranges })),
        },
    }
}

/// A `RowKeyRegexFilter` of `regex`.
pub(crate) fn regex_filter(regex: String) -> RowFilter {
    RowFilter {
        filter: Some(Filter::RowKeyRegexFilter(regex.into_bytes())),
    }
}

/// How many ranges hold about a page and a quarter (`asked` and a
/// quarter), when `window` ranges held `got` rows; `None` (every range
/// left) when they held none.
fn window_for(asked: u64, got: u64, window: u64) -> Option<usize> {
    (got > 0).then(|| {
        let want = asked.saturating_add(asked / 4).saturating_mul(window) / got;
        usize::try_from(want).unwrap_or(usize::MAX)
    })
}

/// The rows of `request`, resumed after transient failures.
pub(crate) fn read(target: Target, request: ReadRequest) -> RowStream {
    if request.is_empty() {
        // An empty RowSet would read the whole table: send nothing.
        return Box::pin(futures_util::stream::empty());
    }
    let rows = RowAssembler::new(request.is_reversed());
    let reader = Reader {
        pending: request.clone(),
        window: 0,
        next_window: None,
        target,
        request,
        stream: None,
        rows,
        buffer: VecDeque::new(),
        committed: 0,
        page: (0, 0),
        failures: 0,
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

struct Reader {
    target: Target,
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
    stream: Option<Streaming<ReadRowsResponse>>,
    rows: RowAssembler,
    buffer: VecDeque<Row>,
    /// Rows committed so far, over every attempt.
    committed: u64,
    /// Rows asked for and committed by the request in flight.
    page: (u64, u64),
    /// Failed attempts since the last one that made progress.
    failures: u32,
    /// A final error, returned once the rows before it are delivered.
    failed: Option<StoreError>,
    done: bool,
}

impl Reader {
    async fn next(&mut self) -> Option<Result<Row, StoreError>> {
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
                        Poll::Pending => timeout(idle, stream.message()).await,
                    };
                    match message {
                        Err(_) => Err(StoreError::transient(
                            "read rows",
                            format!("the stream stalled: no response for {idle:?}"),
                        )),
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
            rows: Some(row_set(&rest)),
            filter: Some(row_filter(&rest)),
            rows_limit: rest
                .limit()
                .map_or(0, |l| i64::try_from(l).unwrap_or(i64::MAX)),
            // The same ranges, read from their end.
            reversed: rest.is_reversed(),
            ..ReadRowsRequest::default()
        };
        let request = self.target.request(message);
        let mut client = self.target.client.clone();
        let idle = self.target.retry.idle_timeout;
        let response = timeout(idle, client.get_client().read_rows(request)).await;
        match response {
            Err(_) => Err(StoreError::transient(
                "read rows",
                format!("no response to the request for {idle:?}"),
            )),
            Ok(Err(status)) => Err(store_error("read rows", status)),
            Ok(Ok(response)) => {
                self.stream = Some(response.into_inner());
                self.page = (asked, 0);
                Ok(())
            }
        }
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

    /// Rows from one response message.
    fn take(&mut self, response: ReadRowsResponse) -> Result<(), StoreError> {
        let before = self.buffer.len();
        for chunk in response.chunks {
            self.rows
                .push(chunk, &mut self.buffer)
                .map_err(|why| StoreError::backend("read rows", format!("bad response: {why}")))?;
        }
        let new = (self.buffer.len() - before) as u64;
        if new > 0 {
            self.committed += new;
            self.page.1 += new;
            // Progress: a later failure starts a fresh count.
            self.failures = 0;
        }
        Ok(())
    }

    /// Drops the stream; retries after a backoff when `e` is transient and
    /// attempts are left, else keeps `e` to return.
    async fn fail(&mut self, e: StoreError) {
        self.stream = None;
        self.rows.discard_partial();
        self.failures += 1;
        let retry = self.target.retry;
        if e.is_transient() && self.failures < retry.attempts {
            tokio::time::sleep(retry.backoff(self.failures)).await;
        } else {
            self.failed = Some(e.after_attempts(self.failures));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{
        columns_filter, row_filter, window_for, EndQualifier, StartQualifier, FEATURE_FLAGS,
    };
    use bigtable_rs::google::bigtable::v2::row_filter::Filter;
    use rowkey_store::{Columns, KeyRange, ReadRequest};

    /// A column restriction is one exact column range per column (a
    /// qualifier with regex metacharacters and 0xFF as it is), chained
    /// before the newest-version filter; none blocks every cell.
    #[test]
    fn columns_become_exact_column_ranges() {
        let one = columns_filter(&Columns::new([("d", &b"a.*\xFF"[..])]));
        let Some(Filter::ColumnRangeFilter(r)) = one.filter else {
            panic!("{one:?}")
        };
        assert_eq!(r.family_name, "d");
        let q = b"a.*\xFF".to_vec();
        assert_eq!(
            r.start_qualifier,
            Some(StartQualifier::StartQualifierClosed(q.clone()))
        );
        assert_eq!(r.end_qualifier, Some(EndQualifier::EndQualifierClosed(q)));
        let two = columns_filter(&Columns::new([("d", "a"), ("e", "b")]));
        assert!(matches!(two.filter, Some(Filter::Interleave(ref i)) if i.filters.len() == 2));
        let none = columns_filter(&Columns::default());
        assert_eq!(none.filter, Some(Filter::BlockAllFilter(true)));
        let request =
            ReadRequest::new([KeyRange::new("a", None)]).with_columns(Columns::new([("d", "v")]));
        let Some(Filter::Chain(chain)) = row_filter(&request).filter else {
            panic!("a chain")
        };
        assert_eq!(chain.filters.len(), 2);
        assert_eq!(
            chain.filters[1].filter,
            Some(Filter::CellsPerColumnLimitFilter(1))
        );
    }

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

    use bigtable_rs::google::bigtable::v2::FeatureFlags;

    #[test]
    fn feature_flags_say_reverse_scans() {
        let flags = FeatureFlags {
            reverse_scans: true,
            ..FeatureFlags::default()
        };
        let bytes = prost::Message::encode_to_vec(&flags);
        assert_eq!(bytes, [0x08, 0x01]);
        // base64url of 08 01: 000010 000000 0001(00) = C A E, one pad.
        assert_eq!(FEATURE_FLAGS, "CAE=");
    }
}
