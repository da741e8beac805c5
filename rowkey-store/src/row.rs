//! [`Row`] and [`Cell`]: what stores write and read back.

use core::fmt;
use rowkey_core::scan::ScanRow;
use rowkey_core::{DecodeError, DecodeKey, KeyDisplay};

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
