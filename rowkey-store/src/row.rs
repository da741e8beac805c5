//! [`Row`] and [`Cell`]: what stores write and read back.

use crate::Columns;
use core::fmt;
use rowkey_core::scan::ScanRow;
use rowkey_core::{DecodeError, DecodeKey, KeyDisplay};
use std::collections::{HashMap, HashSet};

/// One cell of a row: column family, qualifier and value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cell {
    /// The column family (`d`, `cf`).
    pub family: String,
    /// The column qualifier.
    pub qualifier: Vec<u8>,
    /// The value.
    pub value: Vec<u8>,
}

impl Cell {
    /// A cell from anything byte-like.
    ///
    /// ```
    /// use rowkey::store::Cell;
    /// let c = Cell::new("d", "amount", 42u64.to_be_bytes());
    /// assert_eq!(c.qualifier, b"amount");
    /// ```
    pub fn new(
        family: impl Into<String>,
        qualifier: impl AsRef<[u8]>,
        value: impl AsRef<[u8]>,
    ) -> Self {
        Cell {
            family: family.into(),
            qualifier: qualifier.as_ref().to_vec(),
            value: value.as_ref().to_vec(),
        }
    }
}

/// A row: its key and its cells (the newest version of each).
///
/// A write of a row sets its cells and leaves the row's other cells as
/// they are, as Bigtable's and HBase's writes do, except the columns in
/// [`clear`](Self::clear), which it removes first: a [`Record`](crate::Record)
/// written over an older version clears the columns it has no cell for
/// (an `Option` field now `None`), so the row reads back as the record.
/// Rows read from a store have nothing to clear.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Row {
    /// The raw row key.
    pub key: Vec<u8>,
    /// The cells, by family and qualifier.
    pub cells: Vec<Cell>,
    /// Columns a write of this row removes before setting `cells` (empty
    /// for a plain row and for rows read back).
    pub clear: Columns,
}

impl Row {
    /// A row of `key` with `cells`.
    pub fn new(key: impl Into<Vec<u8>>, cells: Vec<Cell>) -> Self {
        Row {
            key: key.into(),
            cells,
            clear: Columns::default(),
        }
    }

    /// The same row, whose write also removes the cells of `columns`
    /// first (those of `cells` are set again after).
    ///
    /// ```
    /// # futures::executor::block_on(async {
    /// use rowkey::store::{Cell, Columns, MemStore, Row, Store, StoreExt};
    /// let store = MemStore::new();
    /// store.write_rows(vec![Row::new("k", vec![Cell::new("d", "a", "1"), Cell::new("d", "b", "1")])]).await?;
    /// let update = Row::new("k", vec![Cell::new("d", "a", "2")]).clearing(Columns::new([("d", "a"), ("d", "b")]));
    /// store.write_rows(vec![update]).await?;
    /// let row = store.read_row(b"k").await?.unwrap();
    /// assert_eq!((row.value("d", "a"), row.value("d", "b")), (Some(&b"2"[..]), None));
    /// # Ok::<(), rowkey::store::StoreError>(())
    /// # }).unwrap();
    /// ```
    pub fn clearing(mut self, columns: Columns) -> Self {
        self.clear = columns;
        self
    }

    /// The row of `record`: its key, its cells, and clearing the columns
    /// it names ([`Record::columns`](crate::Record::columns)) but has no
    /// cell for.
    pub(crate) fn of_record<R: crate::Record>(record: &R) -> Result<Row, rowkey_core::EncodeError> {
        let key = crate::record::record_key_vec(record)?;
        let cells = record.try_cells()?;
        let clear = match R::columns() {
            Some(columns) => Columns::new(
                columns
                    .iter()
                    .filter(|(f, q)| !cells.iter().any(|c| c.family == *f && c.qualifier == *q)),
            ),
            None => Columns::default(),
        };
        Ok(Row { key, cells, clear })
    }

    /// The key decoded as `K` (borrowing from the row where `K` does).
    pub fn key_as<'a, K: DecodeKey<'a>>(&'a self) -> Result<K, DecodeError> {
        K::decode(&self.key)
    }

    /// The value of the cell `family:qualifier`, if the row has it.
    pub fn value(&self, family: &str, qualifier: impl AsRef<[u8]>) -> Option<&[u8]> {
        let q = qualifier.as_ref();
        self.cells
            .iter()
            .find(|c| c.family == family && c.qualifier == q)
            .map(|c| c.value.as_slice())
    }

    /// Bytes of key, families, qualifiers and values: what a write or a
    /// read of this row moves (columns it clears are not counted).
    pub fn size(&self) -> usize {
        self.key.len()
            + self
                .cells
                .iter()
                .map(|c| c.family.len() + c.qualifier.len() + c.value.len())
                .sum::<usize>()
    }
}

impl Row {
    /// `rows` with each key once, as a store that applies them in order
    /// keeps them ([`MemStore`](crate::MemStore)): a repeated key's rows
    /// merged into its first, a later cell replacing an earlier one of
    /// the same column (within one row too). Rows whose keys and columns
    /// are all distinct come back as they are, without a copy.
    ///
    /// A store that sends rows in batches in flight together merges them
    /// first: two writes of one key in two batches land in either order.
    ///
    /// ```
    /// use rowkey::store::{Cell, Row};
    /// let rows = vec![
    ///     Row::new("a", vec![Cell::new("d", "x", "1"), Cell::new("d", "y", "1")]),
    ///     Row::new("b", vec![Cell::new("d", "x", "b")]),
    ///     Row::new("a", vec![Cell::new("d", "x", "2")]),
    /// ];
    /// let merged = Row::merge_repeated(rows);
    /// assert_eq!(merged.len(), 2);
    /// assert_eq!(merged[0].value("d", "x"), Some(&b"2"[..]));
    /// assert_eq!(merged[0].value("d", "y"), Some(&b"1"[..]));
    /// ```
    pub fn merge_repeated(rows: Vec<Row>) -> Vec<Row> {
        let repeated = {
            let mut seen = HashSet::with_capacity(rows.len());
            rows.iter().any(|r| !seen.insert(r.key.as_slice()))
                || rows.iter().any(|r| has_repeated_column(&r.cells))
        };
        if !repeated {
            return rows;
        }
        let mut at: HashMap<Vec<u8>, usize> = HashMap::with_capacity(rows.len());
        // Per merged row: where each of its columns is.
        let mut out: Vec<(Row, ColumnIndex)> = Vec::with_capacity(rows.len());
        for row in rows {
            let i = *at.entry(row.key.clone()).or_insert_with(|| {
                out.push((Row::new(row.key.clone(), Vec::new()), HashMap::new()));
                out.len() - 1
            });
            let (merged, columns) = &mut out[i];
            if !row.clear.is_empty() {
                // A later row's clear removes what earlier rows set, and
                // is cleared first when the merged row is written.
                merged
                    .cells
                    .retain(|c| !row.clear.contains(&c.family, &c.qualifier));
                columns.clear();
                for (j, c) in merged.cells.iter().enumerate() {
                    columns.insert((c.family.clone(), c.qualifier.clone()), j);
                }
                let union = merged.clear.iter().chain(row.clear.iter());
                merged.clear = Columns::new(union.map(|(f, q)| (f.to_string(), q.to_vec())));
            }
            for cell in row.cells {
                let column = (cell.family.clone(), cell.qualifier.clone());
                match columns.get(&column) {
                    Some(&j) => merged.cells[j].value = cell.value,
                    None => {
                        columns.insert(column, merged.cells.len());
                        merged.cells.push(cell);
                    }
                }
            }
        }
        out.into_iter().map(|(row, _)| row).collect()
    }
}

/// Where each column (family, qualifier) of a merged row is.
type ColumnIndex = HashMap<(String, Vec<u8>), usize>;

/// Whether a row names one column twice.
fn has_repeated_column(cells: &[Cell]) -> bool {
    // Most rows of a bulk write have one cell: no set to build.
    if cells.len() < 2 {
        return false;
    }
    let mut seen = HashSet::with_capacity(cells.len());
    cells
        .iter()
        .any(|c| !seen.insert((c.family.as_str(), c.qualifier.as_slice())))
}

/// The key as `toStringBinary` shows it and the number of cells (values
/// can be large).
impl fmt::Debug for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut row = f.debug_struct("Row");
        row.field("key", &KeyDisplay(&self.key))
            .field("cells", &self.cells.len());
        if !self.clear.is_empty() {
            row.field("clear", &self.clear);
        }
        row.finish()
    }
}

impl ScanRow for Row {
    fn row_key(&self) -> &[u8] {
        &self.key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_merge_with_the_last_cell_winning() {
        let rows = vec![
            Row::new(
                "a",
                vec![Cell::new("d", "x", "1"), Cell::new("d", "y", "1")],
            ),
            Row::new("b", vec![Cell::new("d", "x", "b")]),
            Row::new(
                "a",
                vec![Cell::new("d", "x", "2"), Cell::new("d", "z", "2")],
            ),
        ];
        let merged = Row::merge_repeated(rows);
        assert_eq!(merged.len(), 2);
        assert_eq!(
            (&merged[0].key[..], &merged[1].key[..]),
            (&b"a"[..], &b"b"[..])
        );
        assert_eq!(merged[0].value("d", "x"), Some(&b"2"[..]));
        assert_eq!(merged[0].value("d", "y"), Some(&b"1"[..]));
        assert_eq!(merged[0].value("d", "z"), Some(&b"2"[..]));
        // A repeated column inside one row: the later cell.
        let one = Row::merge_repeated(vec![Row::new(
            "k",
            vec![Cell::new("d", "x", "old"), Cell::new("d", "x", "new")],
        )]);
        assert_eq!(one[0].cells.len(), 1);
        assert_eq!(one[0].value("d", "x"), Some(&b"new"[..]));
        // The same qualifier in another family is another column.
        let two = vec![Row::new(
            "k",
            vec![Cell::new("d", "x", "1"), Cell::new("e", "x", "2")],
        )];
        assert_eq!(Row::merge_repeated(two.clone()), two);
    }
}
