//! [`Row`]s as hbase-thrift `BatchMutation`s for `mutateRows`.

use crate::error::ThriftDataError;
use hbase_thrift::hbase::{BatchMutation, Mutation};
use rowkey_store::{Cell, KeyLimit, Row, StoreError};

/// A row as the `BatchMutation` that sets its cells, for
/// `mutateRows(table, batches, attributes)`, after the checks every store
/// makes: a non-empty key of at most 32767 bytes, at least one cell, and
/// (HBase's own) a non-empty family without `:` in every cell.
///
/// Each cell is a `Mutation` with every field spelled out:
/// `column: family:qualifier` (HBase splits it at the first `:`, so the
/// qualifier may hold any bytes), `value`, `is_delete: Some(false)`, and
/// `write_to_w_a_l: Some(true)`. HBase's IDL defaults `writeToWAL` to true
/// and its handler sets `SYNC_WAL` (older versions `USE_DEFAULT`) for it
/// and `SKIP_WAL` for false; it is set explicitly here because
/// hbase-thrift's `Mutation::default()` has `write_to_w_a_l: Some(false)`,
/// which would write without the write-ahead log (and lose the write if a
/// region server fails). The cells are written at the server's time
/// (`mutateRows`, not `mutateRowsTs`).
///
/// ```
/// use rowkey::store::{Cell, Row};
/// use rowkey_hbase::to_batch_mutation;
///
/// let row = Row::new(b"k\x00\xFF".to_vec(), vec![Cell::new("d", "at:utc", "12")]);
/// let batch = to_batch_mutation(row)?;
/// assert_eq!(batch.row, Some(b"k\x00\xFF".to_vec()));
/// let m = &batch.mutations.as_ref().unwrap()[0];
/// assert_eq!(m.column, Some(b"d:at:utc".to_vec()));
/// assert_eq!(m.value, Some(b"12".to_vec()));
/// assert_eq!((m.is_delete, m.write_to_w_a_l), (Some(false), Some(true)));
///
/// // Refused before anything is sent: a row without cells, an empty key.
/// assert!(to_batch_mutation(Row::new(b"k".to_vec(), vec![])).is_err());
/// assert!(to_batch_mutation(Row::new(Vec::new(), vec![Cell::new("d", "q", "v")])).is_err());
/// # Ok::<(), rowkey::store::StoreError>(())
/// ```
pub fn to_batch_mutation(row: Row) -> Result<BatchMutation, StoreError> {
    check(std::slice::from_ref(&row))?;
    Ok(batch(row))
}

/// [`to_batch_mutation`] for each row, in their order; every row is
/// checked before any is converted, and the first error is returned.
///
/// ```
/// use rowkey::store::{Cell, Row, StoreError};
/// use rowkey_hbase::to_batch_mutations;
///
/// let ok = Row::new(b"a".to_vec(), vec![Cell::new("d", "q", "v")]);
/// assert_eq!(to_batch_mutations(vec![ok.clone(), ok.clone()])?.len(), 2);
/// let long = Row::new(vec![b'k'; 32768], vec![Cell::new("d", "q", "v")]);
/// let e = to_batch_mutations(vec![ok, long]).unwrap_err();
/// assert!(matches!(e, StoreError::KeyTooLong { len: 32768, max: 32767, store: "HBase", .. }));
/// # Ok::<(), StoreError>(())
/// ```
pub fn to_batch_mutations(rows: Vec<Row>) -> Result<Vec<BatchMutation>, StoreError> {
    check(&rows)?;
    Ok(rows.into_iter().map(batch).collect())
}

/// The store checks, then every family.
fn check(rows: &[Row]) -> Result<(), StoreError> {
    KeyLimit::HBASE.check_rows(rows)?;
    check_families(rows)
}

/// A family HBase cannot name (empty, or holding the `:` that ends it in
/// a Thrift column) is refused before anything is sent.
pub(crate) fn check_families(rows: &[Row]) -> Result<(), StoreError> {
    for row in rows {
        // The columns a row clears are named the same way as its cells.
        let cleared = row.clear.iter().map(|(family, _)| family);
        for family in row.cells.iter().map(|c| c.family.as_str()).chain(cleared) {
            if family.is_empty() || family.contains(':') {
                return Err(StoreError::backend(
                    "write rows",
                    ThriftDataError::BadFamily {
                        row: row.key.clone(),
                        family: family.to_string(),
                    },
                ));
            }
        }
    }
    Ok(())
}

/// A row's mutations: a delete of each column it clears (every version)
/// and a put of each cell. Thrift 1 turns a row's deletes and puts into
/// one HBase `Delete` and one `Put`, applied one after the other, not
/// atomically (Thrift 1 has no atomic mix of the two), so this client
/// relies on no order between them: a column the row also sets is left
/// out of the deletes (the put replaces its newest version, the one reads
/// see), so the two never name one column. What that leaves is said on
/// [`HBaseStore`](crate::HBaseStore): a reader between the two, or a
/// failure between them, sees the row's new cells beside the old values
/// of the columns it clears; writing it again finishes it.
fn batch(row: Row) -> BatchMutation {
    let mutations = mutations_of(&row);
    BatchMutation {
        row: Some(row.key),
        mutations: Some(mutations),
    }
}

/// The mutations of a borrowed row (the store keeps its rows for
/// retries); see [`batch`].
pub(crate) fn mutations_of(row: &Row) -> Vec<Mutation> {
    let set = |f: &str, q: &[u8]| row.cells.iter().any(|c| c.family == f && c.qualifier == q);
    let clear = row
        .clear
        .iter()
        .filter(|(f, q)| !set(f, q))
        .map(|(f, q)| delete_of(column(f, q)));
    clear.chain(row.cells.iter().map(mutation_of)).collect()
}

/// A delete of every version of `column`.
fn delete_of(column: Vec<u8>) -> Mutation {
    Mutation {
        is_delete: Some(true),
        column: Some(column),
        value: None,
        write_to_w_a_l: Some(true),
    }
}

/// The put of a borrowed cell (the store keeps its rows for retries).
pub(crate) fn mutation_of(cell: &Cell) -> Mutation {
    put_of(column(&cell.family, &cell.qualifier), cell.value.clone())
}

/// A put of `value` into `column`, through the write-ahead log
/// (`Mutation::default()` would skip it).
fn put_of(column: Vec<u8>, value: Vec<u8>) -> Mutation {
    Mutation {
        is_delete: Some(false),
        column: Some(column),
        value: Some(value),
        write_to_w_a_l: Some(true),
    }
}

/// `family:qualifier`, as Thrift 1 names a column.
pub(crate) fn column(family: &str, qualifier: &[u8]) -> Vec<u8> {
    let mut c = Vec::with_capacity(family.len() + 1 + qualifier.len());
    c.extend_from_slice(family.as_bytes());
    c.push(b':');
    c.extend_from_slice(qualifier);
    c
}
