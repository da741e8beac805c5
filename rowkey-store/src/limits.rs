//! What every store refuses before anything is sent: empty keys, keys
//! over the store's limit, rows with neither cells nor columns to clear.

use crate::{Row, StoreError};

pub use rowkey_core::BIGTABLE_MAX_KEY_LEN;

/// A store's row key limit, and whose it is (for messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyLimit {
    /// The most bytes a key may have.
    pub max: usize,
    /// Whose limit it is: "Bigtable", "HBase".
    pub store: &'static str,
}

impl KeyLimit {
    /// Bigtable's 4096 bytes.
    pub const BIGTABLE: KeyLimit = KeyLimit {
        max: BIGTABLE_MAX_KEY_LEN,
        store: "Bigtable",
    };
    /// HBase's 32767 bytes.
    pub const HBASE: KeyLimit = KeyLimit {
        max: rowkey_core::HBASE_MAX_KEY_LEN,
        store: "HBase",
    };

    /// `Ok` for a key the store accepts; an empty key or one over the
    /// limit is a precise error for `op`.
    ///
    /// ```
    /// use rowkey::store::{KeyLimit, StoreError};
    /// assert!(KeyLimit::BIGTABLE.check("read row", b"k").is_ok());
    /// assert!(matches!(KeyLimit::BIGTABLE.check("read row", b""), Err(StoreError::EmptyKey { .. })));
    /// let long = vec![0u8; 4097];
    /// assert!(matches!(KeyLimit::BIGTABLE.check("read row", &long), Err(StoreError::KeyTooLong { len: 4097, .. })));
    /// ```
    pub fn check(&self, op: &'static str, key: &[u8]) -> Result<(), StoreError> {
        if key.is_empty() {
            return Err(StoreError::EmptyKey { op });
        }
        if key.len() > self.max {
            return Err(StoreError::KeyTooLong {
                op,
                key: key.to_vec(),
                len: key.len(),
                max: self.max,
                store: self.store,
            });
        }
        Ok(())
    }

    /// Checks every row of a write: its key, and that it has cells or
    /// columns to clear (a row of clears only deletes those cells).
    pub fn check_rows(&self, rows: &[Row]) -> Result<(), StoreError> {
        for row in rows {
            self.check("write rows", &row.key)?;
            if row.cells.is_empty() && row.clear.is_empty() {
                return Err(StoreError::NoCells {
                    key: row.key.clone(),
                });
            }
        }
        Ok(())
    }
}
