//! [`ConditionalWrite`]: a write of one row that depends on one of its
//! cells, applied by the server as one step (HBase's `checkAndMutate`,
//! Bigtable's `CheckAndMutateRow`).

use crate::{Cell, StoreError};
use core::fmt;
use rowkey_core::KeyDisplay;

/// What a [`ConditionalWrite`] asks of its cell, in this crate's own
/// terms: each backend's operand order is the store's business (HBase's
/// `CompareOperator.LESS` holds when the *operand* is less than the
/// stored value, which is [`Greater`](Self::Greater) here).
///
/// Values compare as unsigned bytes, lexicographically, as keys do. Only
/// the cell's newest version counts.
///
/// **HBase.** HBase takes an empty expected value as "absent or empty",
/// on every transport, so on HBase [`Absent`](Self::Absent) also holds
/// for a cell whose value is empty; [`Equals`](Self::Equals) of an empty
/// value is refused on every store
/// ([`StoreError::InvalidRequest`]): say `Absent`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CellCondition {
    /// The row has no such cell.
    Absent,
    /// The cell exists and holds exactly this (non-empty) value.
    Equals(Vec<u8>),
    /// The cell exists and its value sorts before this one.
    Less(Vec<u8>),
    /// The cell exists and its value sorts after this one.
    Greater(Vec<u8>),
}

impl CellCondition {
    /// Whether a cell whose newest value is `value` (`None`: no cell)
    /// meets it, as [`MemStore`](crate::MemStore) and Bigtable judge.
    ///
    /// ```
    /// use rowkey::store::CellCondition;
    /// assert!(CellCondition::Absent.holds(None));
    /// assert!(CellCondition::Less(b"b".to_vec()).holds(Some(b"a\xff")));
    /// assert!(!CellCondition::Greater(b"b".to_vec()).holds(None));
    /// ```
    pub fn holds(&self, value: Option<&[u8]>) -> bool {
        match (self, value) {
            (CellCondition::Absent, v) => v.is_none(),
            (CellCondition::Equals(x), Some(v)) => v == x.as_slice(),
            (CellCondition::Less(x), Some(v)) => v < x.as_slice(),
            (CellCondition::Greater(x), Some(v)) => v > x.as_slice(),
            (_, None) => false,
        }
    }
}

/// The cell a [`ConditionalWrite`] looks at, and what it asks of it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CellCheck {
    /// The cell's column family.
    pub family: String,
    /// The cell's qualifier.
    pub qualifier: Vec<u8>,
    /// What it must be.
    pub condition: CellCondition,
}

impl CellCheck {
    /// The check of `family:qualifier`.
    pub fn new(
        family: impl Into<String>,
        qualifier: impl AsRef<[u8]>,
        condition: CellCondition,
    ) -> Self {
        CellCheck {
            family: family.into(),
            qualifier: qualifier.as_ref().to_vec(),
            condition,
        }
    }
}

/// One change a [`ConditionalWrite`] makes to its row.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RowEdit {
    /// Sets a cell (replacing its value).
    Set(Cell),
    /// Removes a cell, every version.
    Clear {
        /// The column family.
        family: String,
        /// The qualifier.
        qualifier: Vec<u8>,
    },
    /// Removes the whole row.
    DeleteRow,
}

impl RowEdit {
    /// [`RowEdit::Set`] of a new cell.
    pub fn set(
        family: impl Into<String>,
        qualifier: impl AsRef<[u8]>,
        value: impl AsRef<[u8]>,
    ) -> Self {
        RowEdit::Set(Cell::new(family, qualifier, value))
    }

    /// [`RowEdit::Clear`] of `family:qualifier`.
    pub fn clear(family: impl Into<String>, qualifier: impl AsRef<[u8]>) -> Self {
        RowEdit::Clear {
            family: family.into(),
            qualifier: qualifier.as_ref().to_vec(),
        }
    }
}

/// A write of one row that depends on one of its cells: the server looks
/// at the cell and applies [`on_true`](Self::on_true) when the
/// [check](Self::check) holds, [`on_false`](Self::on_false) when not, as
/// one step that no other write of the row comes between. Sent with
/// [`Store::check_and_write`](crate::Store::check_and_write), which says
/// whether the check held.
///
/// The edits of a branch apply in order. What each backend can do
/// atomically differs (HBase's Thrift 1 gateway: one cell set when the
/// cell is absent or equal, nothing else); a store refuses what it cannot
/// do in one step with [`StoreError::Unsupported`], never emulating it.
///
/// ```
/// # futures::executor::block_on(async {
/// use rowkey::store::{CellCheck, CellCondition, ConditionalWrite, MemStore, RowEdit, Store, StoreExt};
/// let store = MemStore::new();
/// let claim = ConditionalWrite::new("user#ada", CellCheck::new("d", "owner", CellCondition::Absent))
///     .on_true(vec![RowEdit::set("d", "owner", "session-1")]);
/// assert!(store.check_and_write(claim.clone()).await?);
/// assert!(!store.check_and_write(claim).await?, "already claimed");
/// let row = store.read_row(b"user#ada").await?.unwrap();
/// assert_eq!(row.value("d", "owner"), Some(&b"session-1"[..]));
/// # Ok::<(), rowkey::store::StoreError>(())
/// # }).unwrap();
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ConditionalWrite {
    /// The row's key.
    pub key: Vec<u8>,
    /// The cell looked at, and what it must be.
    pub check: CellCheck,
    /// What is applied when the check holds.
    pub on_true: Vec<RowEdit>,
    /// What is applied when it does not.
    pub on_false: Vec<RowEdit>,
}

impl ConditionalWrite {
    /// A conditional write of row `key` with nothing to apply yet.
    pub fn new(key: impl Into<Vec<u8>>, check: CellCheck) -> Self {
        ConditionalWrite {
            key: key.into(),
            check,
            on_true: Vec::new(),
            on_false: Vec::new(),
        }
    }

    /// The same write, applying `edits` when the check holds.
    pub fn on_true(mut self, edits: Vec<RowEdit>) -> Self {
        self.on_true = edits;
        self
    }

    /// The same write, applying `edits` when the check does not hold.
    pub fn on_false(mut self, edits: Vec<RowEdit>) -> Self {
        self.on_false = edits;
        self
    }

    /// The checks every store makes before sending anything (beside the
    /// key's, which need the store's limit): at least one edit, families
    /// that are not empty, no expected value that is empty.
    pub fn validate(&self) -> Result<(), StoreError> {
        let bad = |why: String| StoreError::InvalidRequest {
            op: "check and write",
            key: self.key.clone(),
            why,
        };
        if self.on_true.is_empty() && self.on_false.is_empty() {
            return Err(bad(
                "it has no edit to apply, whether the check holds or not".into(),
            ));
        }
        if self.check.family.is_empty() {
            return Err(bad("the checked cell has an empty family".into()));
        }
        if self.check.condition == CellCondition::Equals(Vec::new()) {
            return Err(bad(
                "it checks for an empty value, which HBase takes as \"absent or empty\": \
                 check for CellCondition::Absent"
                    .into(),
            ));
        }
        for edit in self.on_true.iter().chain(&self.on_false) {
            let family = match edit {
                RowEdit::Set(cell) => &cell.family,
                RowEdit::Clear { family, .. } => family,
                RowEdit::DeleteRow => continue,
            };
            if family.is_empty() {
                return Err(bad("an edit names an empty family".into()));
            }
        }
        Ok(())
    }
}

impl fmt::Debug for ConditionalWrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConditionalWrite")
            .field("key", &format_args!("{}", KeyDisplay(&self.key)))
            .field("check", &self.check)
            .field("on_true", &self.on_true)
            .field("on_false", &self.on_false)
            .finish()
    }
}
