//! [`Row`] and [`Cell`]: what stores write and read back.

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
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Row {
    /// The raw row key.
    pub key: Vec<u8>,
    /// The cells, by family and qualifier.
    pub cells: Vec<Cell>,
}

impl Row {
    /// A row of `key` with `cells`.
    pub fn new(key: impl Into<Vec<u8>>, cells: Vec<Cell>) -> Self {
        Row {
            key: key.into(),
            cells,
        }
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
    /// read of this row moves.
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
        f.debug_struct("Row")
            .field("key", &KeyDisplay(&self.key))
            .field("cells", &self.cells.len())
            .finish()
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
