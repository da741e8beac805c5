//! Writes in batches: rows are cut into `MutateRows` requests of bounded
//! entries and bytes, sent with a bounded number in flight; every entry's
//! status is checked, and entries that failed transiently are sent again
//! ([`crate::bulk`]).

use crate::bulk::{mutate_batch, Failure, Item, Resend};
use crate::mutate::{FailedMutation, MutateRowsError, Mutation as MutationSpec, RowMutation};
use crate::target::Target;
use bigtable_rs::google::bigtable::v2::mutate_rows_request::Entry;
use bigtable_rs::google::bigtable::v2::mutation::{
    DeleteFromColumn, DeleteFromRow, Mutation as Op, SetCell,
};
use bigtable_rs::google::bigtable::v2::{Mutation, TimestampRange};
use futures_util::{StreamExt, TryStreamExt};
use rowkey_store::{KeyLimit, Row, StoreError};

const OP: &str = "mutate rows";

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
    /// Mutations per request (one per cell written or column cleared, one
    /// per row deleted):
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

/// A row's entry: its columns to clear, then its cells, in one entry,
/// which Bigtable applies atomically and in order. With a `stamp`
/// (microseconds, a whole millisecond) the cells are set at it and the
/// clears remove the versions before it only, so that a copy of the entry
/// delivered late cannot remove or overwrite a later write's cells (whose
/// stamps are later). Without one, the server's time (`-1`, as HBase's
/// default) and every version cleared.
pub(crate) fn entry(row: Row, stamp: Option<i64>) -> Entry {
    let clear = row.clear.iter().map(|(family, qualifier)| Mutation {
        mutation: Some(Op::DeleteFromColumn(DeleteFromColumn {
            family_name: family.to_string(),
            column_qualifier: qualifier.to_vec(),
            time_range: stamp.map(|end| TimestampRange {
                start_timestamp_micros: 0,
                // Exclusive: the cells this entry sets are kept.
                end_timestamp_micros: end,
            }),
        })),
    });
    let set = row.cells.into_iter().map(|c| Mutation {
        mutation: Some(Op::SetCell(SetCell {
            family_name: c.family,
            column_qualifier: c.qualifier,
            timestamp_micros: stamp.unwrap_or(-1),
            value: c.value,
        })),
    });
    Entry {
        row_key: row.key,
        mutations: clear.chain(set).collect(),
        idempotency: None,
    }
}

/// The bytes an entry puts in a request, roughly: its key and its cells'
/// families, qualifiers and values.
fn entry_size(entry: &Entry) -> usize {
    let cells: usize = entry
        .mutations
        .iter()
        .map(|m| match &m.mutation {
            Some(Op::SetCell(c)) => c.family_name.len() + c.column_qualifier.len() + c.value.len(),
            Some(Op::DeleteFromColumn(c)) => c.family_name.len() + c.column_qualifier.len(),
            Some(Op::DeleteFromFamily(c)) => c.family_name.len(),
            _ => 0,
        })
        .sum();
    entry.row_key.len() + cells
}

/// `items` cut into batches of at most `batch_rows` entries and
/// `batch_mutations` mutations, and about `batch_bytes` bytes (an entry
/// larger than that goes alone).
fn cut(items: Vec<Item>, options: WriteOptions) -> Vec<Vec<Item>> {
    let max_mutations = options.batch_mutations.clamp(1, MAX_MUTATIONS);
    let mut out = Vec::new();
    let (mut batch, mut bytes, mut mutations) = (Vec::new(), 0usize, 0usize);
    for item in items {
        let (size, count) = (entry_size(&item.entry), item.entry.mutations.len());
        if !batch.is_empty()
            && (batch.len() >= options.batch_rows
                || bytes + size > options.batch_bytes
                || mutations + count > max_mutations)
        {
            out.push(std::mem::take(&mut batch));
            (bytes, mutations) = (0, 0);
        }
        bytes += size;
        mutations += count;
        batch.push(item);
    }
    if !batch.is_empty() {
        out.push(batch);
    }
    out
}

/// `rows` as entries cut into batches ([`cut`]). A row with more cells
/// than one request takes is refused before anything is sent: its cells
/// cannot be split over requests without losing the row's all-or-nothing
/// write.
#[cfg(test)]
fn batches(rows: Vec<Row>, options: WriteOptions) -> Result<Vec<Vec<Entry>>, StoreError> {
    Ok(cut(puts(rows, 1_000)?, options)
        .into_iter()
        .map(|b| b.into_iter().map(|i| i.entry).collect())
        .collect())
}

/// Rows as entries to write at `stamp`, each key once: repeated keys are
/// merged first, as `MemStore` would leave them ([`Row::merge_repeated`]),
/// since batches in flight together land in any order. A put is sent
/// again after a transient failure: the same cells at the same stamp,
/// which a late copy of the first send writes again, no more.
fn puts(rows: Vec<Row>, stamp: i64) -> Result<Vec<Item>, StoreError> {
    let rows = Row::merge_repeated(rows);
    if let Some(row) = rows
        .iter()
        .find(|r| r.cells.len() + r.clear.len() > MAX_MUTATIONS)
    {
        return Err(StoreError::TooManyCells {
            key: row.key.clone(),
            cells: row.cells.len() + row.clear.len(),
            max: MAX_MUTATIONS,
        });
    }
    Ok(rows
        .into_iter()
        .enumerate()
        .map(|(index, row)| Item {
            index,
            entry: entry(row, Some(stamp)),
            resend: Resend::Always,
        })
        .collect())
}

/// Sends the batches, `in_flight` at a time; the first failure ends it.
async fn send_all(
    target: &Target,
    batches: Vec<Vec<Item>>,
    in_flight: usize,
) -> Result<(), StoreError> {
    futures_util::stream::iter(batches)
        .map(|batch| async {
            let failures = mutate_batch(target.clone(), batch).await;
            match failures.into_iter().min_by_key(|f| f.index) {
                Some(first) => Err(first.error),
                None => Ok(()),
            }
        })
        .buffer_unordered(in_flight.max(1))
        .try_collect::<()>()
        .await
}

/// Writes the rows in batches, `in_flight` at a time, every cell at one
/// stamp of the client's clock, taken before the first send; the first
/// failure ends it.
pub(crate) async fn write(
    target: &Target,
    rows: Vec<Row>,
    options: WriteOptions,
) -> Result<(), StoreError> {
    // Whole milliseconds, in the micros Bigtable counts in.
    let stamp = target.clock.next().saturating_mul(1000);
    send_all(target, cut(puts(rows, stamp)?, options), options.in_flight).await
}

/// Deletes whole rows, `batch_rows` keys (one mutation each, within
/// `batch_mutations`) per request, `in_flight` at a time. A
/// `DeleteFromRow` takes no timestamp, so a copy delivered late would
/// delete a row written since: an entry is sent again only after a
/// failure known not to have been applied (the server's status for it, a
/// connection never made), and one whose outcome is unknown fails with
/// [`StoreError::OutcomeUnknown`].
pub(crate) async fn delete(
    target: &Target,
    keys: Vec<Vec<u8>>,
    options: WriteOptions,
) -> Result<(), StoreError> {
    let items: Vec<Item> = keys
        .into_iter()
        .enumerate()
        .map(|(index, key)| Item {
            index,
            entry: delete_entry(key),
            resend: Resend::IfNotApplied,
        })
        .collect();
    let per_batch = options.batch_rows.min(options.batch_mutations);
    send_all(
        target,
        cut(items, options.batch_rows(per_batch)),
        options.in_flight,
    )
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

/// Writes every row it can, in batches, `in_flight` at a time, and
/// reports each row that was not written. Rows the store refuses (a bad
/// key, too many mutations) fail without being sent; the others are sent,
/// and only idempotent ones are sent again after a transient failure.
pub(crate) async fn mutate_rows(
    target: &Target,
    rows: Vec<RowMutation>,
    options: WriteOptions,
) -> Result<(), MutateRowsError> {
    let total = rows.len();
    let mut failed = Vec::new();
    let mut items = Vec::with_capacity(rows.len());
    for (index, row) in rows.into_iter().enumerate() {
        let refused = KeyLimit::BIGTABLE.check(OP, &row.key).err().or_else(|| {
            (row.mutations.len() > MAX_MUTATIONS).then(|| StoreError::TooManyCells {
                key: row.key.clone(),
                cells: row.mutations.len(),
                max: MAX_MUTATIONS,
            })
        });
        if let Some(error) = refused {
            failed.push(FailedMutation {
                index,
                key: row.key,
                error,
            });
            continue;
        }
        items.push(Item {
            index,
            // A row not idempotent whose call fails after it may have
            // been sent fails as `OutcomeUnknown`.
            resend: match row.is_idempotent() {
                true => Resend::Always,
                false => Resend::Never,
            },
            entry: Entry {
                mutations: row.mutations.iter().map(MutationSpec::to_proto).collect(),
                row_key: row.key,
                idempotency: None,
            },
        });
    }
    let sent: Vec<Vec<Failure>> = futures_util::stream::iter(cut(items, options))
        .map(|batch| mutate_batch(target.clone(), batch))
        .buffer_unordered(options.in_flight.max(1))
        .collect()
        .await;
    failed.extend(sent.into_iter().flatten().map(|f| FailedMutation {
        index: f.index,
        key: f.key,
        error: f.error,
    }));
    if failed.is_empty() {
        return Ok(());
    }
    failed.sort_by_key(|f| f.index);
    Err(MutateRowsError {
        rows: total,
        failed,
    })
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

    /// Every cell of a write at its one stamp, and its clears ending
    /// there: a late copy rewrites the same versions, removes none after.
    #[test]
    fn a_write_is_stamped_once_and_its_clears_end_at_the_stamp() {
        let row = Row::new(b"k".to_vec(), vec![Cell::new("d", "a", "1")])
            .clearing(rowkey_store::Columns::new([("d", "b")]));
        let out = batches(vec![row], WriteOptions::default()).unwrap();
        let ops: Vec<_> = out[0][0]
            .mutations
            .iter()
            .map(|m| m.mutation.clone())
            .collect();
        assert_eq!(
            ops,
            [
                Some(Op::DeleteFromColumn(DeleteFromColumn {
                    family_name: "d".into(),
                    column_qualifier: b"b".to_vec(),
                    time_range: Some(TimestampRange {
                        start_timestamp_micros: 0,
                        end_timestamp_micros: 1_000,
                    }),
                })),
                Some(Op::SetCell(SetCell {
                    family_name: "d".into(),
                    column_qualifier: b"a".to_vec(),
                    timestamp_micros: 1_000,
                    value: b"1".to_vec(),
                })),
            ]
        );
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
