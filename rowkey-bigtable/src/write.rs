//! Writes in batches: rows are cut into `MutateRows` requests of bounded
//! entries and bytes, sent with a bounded number in flight; every entry's
//! status is checked, and entries that failed transiently are sent again.

use crate::read::Target;
use crate::status::{is_transient_code, store_error};
use bigtable_rs::google::bigtable::v2::mutate_rows_request::Entry;
use bigtable_rs::google::bigtable::v2::mutation::{DeleteFromRow, Mutation as Op, SetCell};
use bigtable_rs::google::bigtable::v2::{MutateRowsRequest, Mutation};
use futures_util::{StreamExt, TryStreamExt};
use rowkey_core::KeyDisplay;
use rowkey_store::{Row, StoreError};

/// The most mutations Cloud Bigtable takes in one `MutateRows` request
/// (and so in one row: a row's cells go in one entry, applied together).
pub const MAX_MUTATIONS: usize = 100_000;

/// How writes are batched and sent: a batch closes before it would pass
/// any of its row, mutation (one per cell) or byte budgets.
///
/// ```
/// use rowkey_bigtable::{WriteOptions, MAX_MUTATIONS};
/// let w = WriteOptions::default();
/// assert_eq!((w.batch_rows, w.batch_mutations, w.batch_bytes, w.in_flight), (1000, MAX_MUTATIONS, 16 << 20, 4));
/// // Bigtable's cap holds whatever is asked.
/// assert_eq!(w.batch_mutations(1 << 20).batch_mutations, MAX_MUTATIONS);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct WriteOptions {
    /// Rows per `MutateRows` request.
    pub batch_rows: usize,
    /// Mutations per request (one per cell written, one per row deleted):
    /// at most [`MAX_MUTATIONS`], which Bigtable enforces. 1,000 rows of
    /// 101 cells go in two requests.
    pub batch_mutations: usize,
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
            batch_mutations: MAX_MUTATIONS,
            batch_bytes: 16 << 20,
            in_flight: 4,
        }
    }
}

impl WriteOptions {
    /// At most `n` mutations per request (taken into `1..=MAX_MUTATIONS`).
    pub fn batch_mutations(mut self, n: usize) -> Self {
        self.batch_mutations = n.clamp(1, MAX_MUTATIONS);
        self
    }

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

/// `rows` cut into batches of at most `batch_rows` rows and
/// `batch_mutations` mutations, and about `batch_bytes` bytes, each key
/// in one batch only: repeated keys are merged first, as `MemStore`
/// would leave them ([`Row::merge_repeated`]), since batches in flight
/// together land in any order. A row with
/// more cells than one request takes is refused before anything is sent:
/// its cells cannot be split over requests without losing the row's
/// all-or-nothing write.
pub(crate) fn batches(
    rows: Vec<Row>,
    options: WriteOptions,
) -> Result<Vec<Vec<Entry>>, StoreError> {
    let max_mutations = options.batch_mutations.clamp(1, MAX_MUTATIONS);
    let rows = Row::merge_repeated(rows);
    if let Some(row) = rows.iter().find(|r| r.cells.len() > MAX_MUTATIONS) {
        return Err(StoreError::TooManyCells {
            key: row.key.clone(),
            cells: row.cells.len(),
            max: MAX_MUTATIONS,
        });
    }
    let mut out = Vec::new();
    let (mut batch, mut bytes, mut mutations) = (Vec::new(), 0usize, 0usize);
    for row in rows {
        let (size, cells) = (row.size(), row.cells.len());
        if !batch.is_empty()
            && (batch.len() >= options.batch_rows
                || bytes + size > options.batch_bytes
                || mutations + cells > max_mutations)
        {
            out.push(std::mem::take(&mut batch));
            (bytes, mutations) = (0, 0);
        }
        bytes += size;
        mutations += cells;
        batch.push(entry(row));
    }
    if !batch.is_empty() {
        out.push(batch);
    }
    Ok(out)
}

/// Writes the batches, `in_flight` at a time; the first failure ends it.
pub(crate) async fn write(
    target: &Target,
    rows: Vec<Row>,
    options: WriteOptions,
) -> Result<(), StoreError> {
    futures_util::stream::iter(batches(rows, options)?)
        .map(|batch| write_batch(target.clone(), batch))
        .buffer_unordered(options.in_flight.max(1))
        .try_collect::<()>()
        .await
}

/// Deletes whole rows, `batch_rows` keys (one mutation each, within
/// `batch_mutations`) per request, `in_flight` at a time; a
/// `DeleteFromRow` is idempotent, so failed entries are simply sent again.
pub(crate) async fn delete(
    target: &Target,
    keys: Vec<Vec<u8>>,
    options: WriteOptions,
) -> Result<(), StoreError> {
    let entries: Vec<Entry> = keys.into_iter().map(delete_entry).collect();
    let batches: Vec<Vec<Entry>> = entries
        .chunks(
            options
                .batch_rows
                .min(options.batch_mutations)
                .clamp(1, MAX_MUTATIONS),
        )
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
    use rowkey_store::Cell;

    #[test]
    fn batches_by_rows_and_bytes() {
        let mut key = 0u32;
        let mut row = |n: usize| {
            key += 1;
            Row::new(key.to_be_bytes(), vec![Cell::new("d", "q", vec![0u8; n])])
        };
        let rows: Vec<Row> = (0..5).map(|_| row(10)).collect();
        let sizes: Vec<usize> = batches(rows, WriteOptions::default().batch_rows(2))
            .unwrap()
            .iter()
            .map(Vec::len)
            .collect();
        assert_eq!(sizes, [2, 2, 1]);
        // A row larger than the byte budget goes alone.
        let rows = vec![row(10), row(100), row(10), row(10)];
        let sizes: Vec<usize> = batches(rows, WriteOptions::default().batch_bytes(40))
            .unwrap()
            .iter()
            .map(Vec::len)
            .collect();
        assert_eq!(sizes, [1, 1, 2]);
    }

    /// 1,001 rows, the last repeating the first's key with a new value:
    /// at 1,000 rows a batch, the two went out in two batches in flight
    /// together, and the old value survived in 8 of 20 runs. The key is
    /// now in one batch, once, with the later value (as `MemStore` keeps
    /// it), and the first row's other cells kept.
    #[test]
    fn a_repeated_key_goes_in_one_batch_with_the_later_cells() {
        let mut rows: Vec<Row> = (0..1000u32)
            .map(|i| {
                let cells = vec![Cell::new("d", "v", "old"), Cell::new("d", "w", "kept")];
                Row::new(i.to_be_bytes(), cells)
            })
            .collect();
        rows.push(Row::new(
            0u32.to_be_bytes(),
            vec![Cell::new("d", "v", "new")],
        ));
        let out = batches(rows, WriteOptions::default()).unwrap();
        let entries: Vec<&Entry> = out
            .iter()
            .flatten()
            .filter(|e| e.row_key == [0; 4])
            .collect();
        assert_eq!(entries.len(), 1, "key 0 is written once");
        assert_eq!(out.iter().map(Vec::len).sum::<usize>(), 1000);
        let values: Vec<(&[u8], &[u8])> = entries[0]
            .mutations
            .iter()
            .map(|m| match &m.mutation {
                Some(Op::SetCell(c)) => (&c.column_qualifier[..], &c.value[..]),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            values,
            [(&b"v"[..], &b"new"[..]), (&b"w"[..], &b"kept"[..])]
        );
    }

    fn mutations(batch: &[Entry]) -> usize {
        batch.iter().map(|e| e.mutations.len()).sum()
    }

    /// The issue's write: 1,000 rows of 101 cells, 101,000 mutations, went
    /// out in one request that Bigtable refuses. Every request now holds
    /// at most 100,000, and every row whole.
    #[test]
    fn batches_by_mutations() {
        let wide = |i: u32| {
            let cells = (0..101)
                .map(|c| Cell::new("d", format!("c{c}"), "v"))
                .collect();
            Row::new(i.to_be_bytes().to_vec(), cells)
        };
        let out = batches((0..1000).map(wide).collect(), WriteOptions::default()).unwrap();
        let counts: Vec<(usize, usize)> = out.iter().map(|b| (b.len(), mutations(b))).collect();
        assert_eq!(counts, [(990, 99_990), (10, 1_010)]);
        assert!(out.iter().flatten().all(|e| e.mutations.len() == 101));
        // A smaller budget, and a row as large as it goes alone.
        let rows = vec![wide(0), wide(1), wide(2)];
        let options = WriteOptions::default().batch_mutations(202);
        let counts: Vec<usize> = batches(rows, options)
            .unwrap()
            .iter()
            .map(|b| mutations(b))
            .collect();
        assert_eq!(counts, [202, 101]);
        let options = WriteOptions::default().batch_mutations(50);
        assert_eq!(batches(vec![wide(0), wide(1)], options).unwrap().len(), 2);
    }

    #[test]
    fn a_row_over_the_request_limit_is_refused_before_sending() {
        let cells = (0..=MAX_MUTATIONS)
            .map(|c| Cell::new("d", c.to_string(), "v"))
            .collect();
        let rows = vec![
            Row::new(b"ok".to_vec(), vec![Cell::new("d", "q", "v")]),
            Row::new(b"huge".to_vec(), cells),
        ];
        match batches(rows, WriteOptions::default()) {
            Err(StoreError::TooManyCells { key, cells, max }) => {
                assert_eq!(
                    (key.as_slice(), cells, max),
                    (&b"huge"[..], 100_001, 100_000)
                );
            }
            other => panic!("{other:?}"),
        }
    }
}
