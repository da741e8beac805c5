//! Writes in batches: rows are cut into `MutateRows` requests of bounded
//! entries and bytes, sent with a bounded number in flight; every entry's
//! status is checked, and entries that failed transiently are sent again.

use crate::read::Target;
use crate::status::{is_transient_code, store_error};
use bigtable_rs::google::bigtable::v2::mutate_rows_request::Entry;
use bigtable_rs::google::bigtable::v2::mutation::{DeleteFromRow, Mutation as Op, SetCell};
use bigtable_rs::google::bigtable::v2::{MutateRowsRequest, Mutation};
use futures_util::{StreamExt, TryStreamExt};
use rowkey_core::store::{Row, StoreError};
use rowkey_core::KeyDisplay;

/// How writes are batched and sent.
///
/// ```
/// use rowkey_bigtable::WriteOptions;
/// let w = WriteOptions::default();
/// assert_eq!((w.batch_rows, w.batch_bytes, w.in_flight), (1000, 16 << 20, 4));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct WriteOptions {
    /// Rows per `MutateRows` request (Bigtable allows 100,000 mutations).
    pub batch_rows: usize,
    /// Bytes per request, roughly: a batch closes before it passes this
    /// (a single larger row goes alone).
    pub batch_bytes: usize,
    /// Requests in flight at once.
    pub in_flight: usize,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            batch_rows: 1000,
            batch_bytes: 16 << 20,
            in_flight: 4,
        }
    }
}

impl WriteOptions {
    /// `n` rows per request (0 is taken as 1).
    pub fn batch_rows(mut self, n: usize) -> Self {
        self.batch_rows = n.max(1);
        self
    }

    /// Requests of about `n` bytes at most.
    pub fn batch_bytes(mut self, n: usize) -> Self {
        self.batch_bytes = n.max(1);
        self
    }

    /// `n` requests in flight (0 is taken as 1).
    pub fn in_flight(mut self, n: usize) -> Self {
        self.in_flight = n.max(1);
        self
    }
}

pub(crate) fn entry(row: Row) -> Entry {
    Entry {
        row_key: row.key,
        mutations: row
            .cells
            .into_iter()
            .map(|c| Mutation {
                mutation: Some(Op::SetCell(SetCell {
                    family_name: c.family,
                    column_qualifier: c.qualifier,
                    // -1: the server's time, as HBase's default.
                    timestamp_micros: -1,
                    value: c.value,
                })),
            })
            .collect(),
        idempotency: None,
    }
}

/// `rows` cut into batches of at most `batch_rows` rows and about
/// `batch_bytes` bytes.
pub(crate) fn batches(rows: Vec<Row>, options: WriteOptions) -> Vec<Vec<Entry>> {
    let mut out = Vec::new();
    let (mut batch, mut bytes) = (Vec::new(), 0usize);
    for row in rows {
        let size = row.size();
        if !batch.is_empty()
            && (batch.len() >= options.batch_rows || bytes + size > options.batch_bytes)
        {
            out.push(std::mem::take(&mut batch));
            bytes = 0;
        }
        bytes += size;
        batch.push(entry(row));
    }
    if !batch.is_empty() {
        out.push(batch);
    }
    out
}

/// Writes the batches, `in_flight` at a time; the first failure ends it.
pub(crate) async fn write(
    target: &Target,
    rows: Vec<Row>,
    options: WriteOptions,
) -> Result<(), StoreError> {
    futures_util::stream::iter(batches(rows, options))
        .map(|batch| write_batch(target.clone(), batch))
        .buffer_unordered(options.in_flight.max(1))
        .try_collect::<()>()
        .await
}

/// Deletes whole rows, `batch_rows` keys per request, `in_flight` at a
/// time; a `DeleteFromRow` is idempotent, so failed entries are simply
/// sent again.
pub(crate) async fn delete(
    target: &Target,
    keys: Vec<Vec<u8>>,
    options: WriteOptions,
) -> Result<(), StoreError> {
    let entries: Vec<Entry> = keys.into_iter().map(delete_entry).collect();
    let batches: Vec<Vec<Entry>> = entries
        .chunks(options.batch_rows.max(1))
        .map(<[Entry]>::to_vec)
        .collect();
    futures_util::stream::iter(batches)
        .map(|batch| write_batch(target.clone(), batch))
        .buffer_unordered(options.in_flight.max(1))
        .try_collect::<()>()
        .await
}

fn delete_entry(key: Vec<u8>) -> Entry {
    Entry {
        row_key: key,
        mutations: vec![Mutation {
            mutation: Some(Op::DeleteFromRow(DeleteFromRow {})),
        }],
        idempotency: None,
    }
}

/// One batch, its transiently failed entries sent again.
async fn write_batch(target: Target, mut entries: Vec<Entry>) -> Result<(), StoreError> {
    let retry = target.retry;
    let mut attempt = 1;
    loop {
        let failure = match send(&target, &entries).await {
            Ok(failed) if failed.is_empty() => return Ok(()),
            Ok(failed) => {
                if let Some((i, code, message)) =
                    failed.iter().find(|(_, code, _)| !is_transient_code(*code))
                {
                    return Err(StoreError::backend(
                        "mutate rows",
                        format!(
                            "row {}: code {code}: {message}",
                            KeyDisplay(&entries[*i].row_key)
                        ),
                    ));
                }
                let (_, code, message) = &failed[0];
                let failure = StoreError::transient(
                    "mutate rows",
                    format!(
                        "{} entries failed, first with code {code}: {message}",
                        failed.len()
                    ),
                );
                let keep: Vec<usize> = failed.iter().map(|(i, _, _)| *i).collect();
                entries = keep.into_iter().map(|i| entries[i].clone()).collect();
                failure
            }
            Err(e) if e.is_transient() => e,
            Err(e) => return Err(e),
        };
        if attempt >= retry.attempts {
            return Err(failure.after_attempts(attempt));
        }
        tokio::time::sleep(retry.backoff(attempt)).await;
        attempt += 1;
    }
}

/// Sends one request: the entries that failed (index, code, message). An
/// entry the server never reported on (the stream broke) failed
/// transiently.
async fn send(target: &Target, entries: &[Entry]) -> Result<Vec<(usize, i32, String)>, StoreError> {
    let request = target.request(MutateRowsRequest {
        table_name: target.table.to_string(),
        app_profile_id: target.app_profile.to_string(),
        entries: entries.to_vec(),
        ..MutateRowsRequest::default()
    });
    let mut client = target.client.clone();
    let idle = target.retry.idle_timeout;
    let stalled = || StoreError::transient("mutate rows", format!("no response for {idle:?}"));
    let mut stream = tokio::time::timeout(idle, client.get_client().mutate_rows(request))
        .await
        .map_err(|_| stalled())?
        .map_err(|s| store_error("mutate rows", s))?
        .into_inner();
    let mut reported = vec![false; entries.len()];
    let mut failed = Vec::new();
    loop {
        // A stream that breaks transiently keeps the statuses it reported:
        // only the entries without one are sent again (a server-timestamped
        // SetCell is not idempotent, so no write is repeated needlessly).
        let message = match tokio::time::timeout(idle, stream.message()).await {
            Err(_) if reported.iter().any(|r| *r) => break,
            Err(_) => return Err(stalled()),
            Ok(Err(status)) => {
                let e = store_error("mutate rows", status);
                if e.is_transient() && reported.iter().any(|r| *r) {
                    break;
                }
                return Err(e);
            }
            Ok(Ok(None)) => break,
            Ok(Ok(Some(m))) => m,
        };
        for e in message.entries {
            let Some(i) = usize::try_from(e.index).ok().filter(|i| *i < entries.len()) else {
                continue;
            };
            reported[i] = true;
            if let Some(status) = e.status.filter(|s| s.code != 0) {
                failed.push((i, status.code, status.message));
            }
        }
    }
    for (i, seen) in reported.iter().enumerate() {
        if !seen {
            failed.push((
                i,
                tonic::Code::Unavailable as i32,
                "no status reported".into(),
            ));
        }
    }
    Ok(failed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rowkey_core::store::Cell;

    #[test]
    fn batches_by_rows_and_bytes() {
        let row = |n: usize| Row::new(vec![b'k'; 4], vec![Cell::new("d", "q", vec![0u8; n])]);
        let rows: Vec<Row> = (0..5).map(|_| row(10)).collect();
        let sizes: Vec<usize> = batches(rows, WriteOptions::default().batch_rows(2))
            .iter()
            .map(Vec::len)
            .collect();
        assert_eq!(sizes, [2, 2, 1]);
        // A row larger than the byte budget goes alone.
        let rows = vec![row(10), row(100), row(10), row(10)];
        let sizes: Vec<usize> = batches(rows, WriteOptions::default().batch_bytes(40))
            .iter()
            .map(Vec::len)
            .collect();
        assert_eq!(sizes, [1, 1, 2]);
    }
}
