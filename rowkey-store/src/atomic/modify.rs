//! [`ReadModifyWrite`]: counters and appends of one row, computed by the
//! server from what the row holds (HBase's `increment` and `append`,
//! Bigtable's `ReadModifyWriteRow`).

use crate::{Row, StoreError};
use core::fmt;
use rowkey_core::KeyDisplay;

/// One change of a [`ReadModifyWrite`], made from the cell's newest
/// value (a missing cell counts as empty, or as the counter 0).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ModifyRule {
    /// Adds `by` to the cell as an 8-byte big-endian signed counter
    /// (Java's `Bytes.toLong`, as HBase and Bigtable store counters),
    /// wrapping on overflow as Java's `long` does. A cell of another
    /// length is refused by the store, and left as it is.
    Increment {
        /// The column family.
        family: String,
        /// The qualifier.
        qualifier: Vec<u8>,
        /// What to add (negative to subtract).
        by: i64,
    },
    /// Appends bytes to the cell's value.
    Append {
        /// The column family.
        family: String,
        /// The qualifier.
        qualifier: Vec<u8>,
        /// What to append.
        bytes: Vec<u8>,
    },
}

impl ModifyRule {
    /// An increment of `family:qualifier` by `by`.
    pub fn increment(family: impl Into<String>, qualifier: impl AsRef<[u8]>, by: i64) -> Self {
        ModifyRule::Increment {
            family: family.into(),
            qualifier: qualifier.as_ref().to_vec(),
            by,
        }
    }

    /// An append of `bytes` to `family:qualifier`.
    pub fn append(
        family: impl Into<String>,
        qualifier: impl AsRef<[u8]>,
        bytes: impl AsRef<[u8]>,
    ) -> Self {
        ModifyRule::Append {
            family: family.into(),
            qualifier: qualifier.as_ref().to_vec(),
            bytes: bytes.as_ref().to_vec(),
        }
    }

    /// The cell it changes.
    pub fn column(&self) -> (&str, &[u8]) {
        match self {
            ModifyRule::Increment {
                family, qualifier, ..
            }
            | ModifyRule::Append {
                family, qualifier, ..
            } => (family, qualifier),
        }
    }
}

/// Counters and appends of one row, made by the server from the values
/// the row holds, as one step no other write of the row comes between;
/// the rules apply in order (two increments of one counter add both).
/// Sent with [`Store::read_modify_write`](crate::Store::read_modify_write),
/// which returns the new value of every cell changed (each once).
///
/// Not idempotent: a store never sends one again once it may have
/// reached the server ([`StoreError::OutcomeUnknown`]).
///
/// ```
/// # futures::executor::block_on(async {
/// use rowkey::store::{MemStore, ModifyRule, ReadModifyWrite, Store};
/// let store = MemStore::new();
/// let bump = ReadModifyWrite::new("counters", vec![
///     ModifyRule::increment("d", "hits", 5),
///     ModifyRule::append("d", "log", "x"),
/// ]);
/// store.read_modify_write(bump.clone()).await?;
/// let row = store.read_modify_write(bump).await?;
/// assert_eq!(row.value("d", "hits"), Some(&10i64.to_be_bytes()[..]));
/// assert_eq!(row.value("d", "log"), Some(&b"xx"[..]));
/// # Ok::<(), rowkey::store::StoreError>(())
/// # }).unwrap();
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ReadModifyWrite {
    /// The row's key.
    pub key: Vec<u8>,
    /// The changes, in order.
    pub rules: Vec<ModifyRule>,
}

impl ReadModifyWrite {
    /// The changes `rules` of row `key`.
    pub fn new(key: impl Into<Vec<u8>>, rules: Vec<ModifyRule>) -> Self {
        ReadModifyWrite {
            key: key.into(),
            rules,
        }
    }

    /// The checks every store makes before sending anything (beside the
    /// key's): at least one rule, no empty family.
    pub fn validate(&self) -> Result<(), StoreError> {
        let bad = |why: &str| StoreError::InvalidRequest {
            op: "read-modify-write",
            key: self.key.clone(),
            why: why.to_owned(),
        };
        if self.rules.is_empty() {
            return Err(bad("it has no rule"));
        }
        if self.rules.iter().any(|r| r.column().0.is_empty()) {
            return Err(bad("a rule names an empty family"));
        }
        Ok(())
    }
}

impl fmt::Debug for ReadModifyWrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadModifyWrite")
            .field("key", &format_args!("{}", KeyDisplay(&self.key)))
            .field("rules", &self.rules)
            .finish()
    }
}

/// The counter in a cell's value: 8 bytes, big-endian; `None` for a
/// value of another length.
///
/// ```
/// use rowkey::store::counter_value;
/// assert_eq!(counter_value(&(-3i64).to_be_bytes()), Some(-3));
/// assert_eq!(counter_value(b"3"), None);
/// ```
pub fn counter_value(value: &[u8]) -> Option<i64> {
    <[u8; 8]>::try_from(value).ok().map(i64::from_be_bytes)
}

/// The new value of `family:qualifier` in `row`, a counter (for the typed
/// `increment`): a row without it, or a value that is not 8 bytes, is a
/// backend's answer this client cannot read.
pub(crate) fn counter_of(row: &Row, family: &str, qualifier: &[u8]) -> Result<i64, StoreError> {
    let value = row.value(family, qualifier).ok_or_else(|| {
        StoreError::backend(
            "increment",
            format!(
                "the store's answer for row {} has no cell {family}:{}",
                KeyDisplay(&row.key),
                KeyDisplay(qualifier)
            ),
        )
    })?;
    counter_value(value).ok_or_else(|| StoreError::NotACounter {
        key: row.key.clone(),
        family: family.to_owned(),
        qualifier: qualifier.to_vec(),
        len: value.len(),
    })
}
