//! Stores that hold keyed rows: the [`Store`] trait, [`MemStore`] (an
//! in-memory sorted map with Bigtable's range-read semantics, the embedded
//! default) and, with the `bigtable` feature, `BigtableStore` (Cloud
//! Bigtable or its emulator, through `bigtable_rs`).
//!
//! Callers pass key structs and plans; rows come back with their raw key,
//! which [`Row::key_as`] decodes.
//!
//! ```
//! use rowkey::store::{Cell, MemStore, Store};
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Op {
//!     uid: u64,
//!     #[desc_ts]
//!     at: i64,
//! }
//!
//! let mut store = MemStore::new();
//! for at in [10, 30, 20] {
//!     store.put(&Op { uid: 7, at }, vec![Cell::new("d", "kind", "login")])?;
//! }
//! // The newest first, because #[desc_ts] reverses the order.
//! let rows = store.query(&Op::scan().uid(7).plan()?)?;
//! let ats: Vec<i64> = rows.iter().map(|r| r.key_as::<Op>().unwrap().at).collect();
//! assert_eq!(ats, [30, 20, 10]);
//! # Ok::<(), rowkey::store::StoreError>(())
//! ```

#[cfg(feature = "bigtable")]
mod bigtable;
mod mem;

#[cfg(feature = "bigtable")]
pub use bigtable::{BigtableStore, TableSpec};
pub use mem::MemStore;

use crate::scan::{merge_sorted, page, Page, ScanPlan, ScanRange, ScanRow};
use crate::{DecodeError, DecodeKey, EncodeError, KeyDisplay, RowKey};
use std::fmt;

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

/// A row: its key and cells.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Row {
    /// The raw row key.
    pub key: Vec<u8>,
    /// The cells, by family and qualifier.
    pub cells: Vec<Cell>,
}

impl Row {
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
}

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

/// Why a store operation failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum StoreError {
    /// A key could not be encoded.
    Encode(EncodeError),
    /// The store refused or failed (`op` says which operation).
    Backend {
        /// What was being done: "read rows", "mutate rows", "create table".
        op: &'static str,
        /// The store's error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl StoreError {
    /// A backend failure during `op`.
    pub fn backend(
        op: &'static str,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        StoreError::Backend {
            op,
            source: source.into(),
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Encode(e) => write!(f, "{e}"),
            StoreError::Backend { op, source } => write!(f, "store failed to {op}: {source}"),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::Encode(e) => Some(e),
            StoreError::Backend { source, .. } => Some(source.as_ref()),
        }
    }
}

impl From<EncodeError> for StoreError {
    fn from(e: EncodeError) -> Self {
        StoreError::Encode(e)
    }
}

/// Bigtable stores no row without cells (a mutation-free entry is an
/// error there): every store refuses one the same way.
fn check_rows(rows: &[Row]) -> Result<(), StoreError> {
    match rows.iter().find(|r| r.cells.is_empty()) {
        Some(r) => Err(StoreError::backend(
            "write rows",
            format!(
                "row {} has no cells; a row needs at least one",
                KeyDisplay(&r.key)
            ),
        )),
        None => Ok(()),
    }
}

/// A sorted key-value store of rows, read by key ranges as HBase and
/// Bigtable are. Implement the four raw operations; the typed ones
/// (`put`, `get`, `scan`, `query`, `page`) come with them.
pub trait Store {
    /// Writes rows (a batch: each row's cells are set; existing cells with
    /// the same family and qualifier are replaced).
    fn write_rows(&mut self, rows: Vec<Row>) -> Result<(), StoreError>;

    /// The row with exactly this key.
    fn read_row(&mut self, key: &[u8]) -> Result<Option<Row>, StoreError>;

    /// Rows with `start <= key < stop` (`stop` `None`: to the end), in key
    /// order, at most `limit`.
    fn read_range(
        &mut self,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: Option<usize>,
    ) -> Result<Vec<Row>, StoreError>;

    /// Writes one row under a typed key.
    fn put<K: RowKey>(&mut self, key: &K, cells: Vec<Cell>) -> Result<(), StoreError>
    where
        Self: Sized,
    {
        let key = key.to_vec()?;
        self.write_rows(vec![Row { key, cells }])
    }

    /// The row of a typed key (a point get).
    fn get<K: RowKey>(&mut self, key: &K) -> Result<Option<Row>, StoreError>
    where
        Self: Sized,
    {
        self.read_row(&key.to_key()?)
    }

    /// The rows of one range.
    fn scan<const N: usize>(
        &mut self,
        range: &ScanRange<N>,
        limit: Option<usize>,
    ) -> Result<Vec<Row>, StoreError>
    where
        Self: Sized,
    {
        self.read_range(range.start(), range.stop(), limit)
    }

    /// The rows of a plan: every range read, merged into logical key order
    /// (salt ignored), cut at the plan's limit.
    fn query<const N: usize>(&mut self, plan: &ScanPlan<N>) -> Result<Vec<Row>, StoreError>
    where
        Self: Sized,
    {
        let mut sources = Vec::with_capacity(plan.len());
        for range in plan.ranges() {
            sources.push(self.scan(&range, plan.limit())?);
        }
        Ok(merge_sorted(sources, plan.prefix_len(), plan.limit()).collect())
    }

    /// One keyset page of a plan: up to `size` rows after `resume` (the
    /// previous page's `next`).
    fn page<const N: usize>(
        &mut self,
        plan: &ScanPlan<N>,
        resume: Option<&[u8]>,
        size: usize,
    ) -> Result<Page<Row>, StoreError>
    where
        Self: Sized,
    {
        let mut failure = None;
        let p = page(plan, resume, size, |range, limit| {
            match self.scan(&range, Some(limit)) {
                Ok(rows) => rows,
                Err(e) => {
                    failure.get_or_insert(e);
                    Vec::new()
                }
            }
        });
        match failure {
            Some(e) => Err(e),
            None => Ok(p),
        }
    }
}
