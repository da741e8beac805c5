//! [`VersionedRow`]: a row as Bigtable holds it, every version of every
//! cell with its timestamp and labels, for
//! [`BigtableStore::read_versions`](crate::BigtableStore::read_versions).

use crate::chunks::{AssembledCell, AssembledRow};
use futures_core::Stream;
use rowkey_store::StoreError;
use std::pin::Pin;

/// One version of one cell.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct VersionedCell {
    /// The column family.
    pub family: String,
    /// The column qualifier.
    pub qualifier: Vec<u8>,
    /// The version's timestamp, microseconds since the epoch.
    pub timestamp_micros: i64,
    /// Labels a filter applied to the cell (none for the store's reads).
    pub labels: Vec<String>,
    /// The value.
    pub value: Vec<u8>,
}

/// A row with every version of its cells, in the order Bigtable returns
/// them: by family, then qualifier, then newest version first.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct VersionedRow {
    /// The row key.
    pub key: Vec<u8>,
    /// Every version of every cell.
    pub cells: Vec<VersionedCell>,
}

/// The rows of [`BigtableStore::read_versions`](crate::BigtableStore::read_versions).
pub type VersionedRowStream =
    Pin<Box<dyn Stream<Item = Result<VersionedRow, StoreError>> + Send + 'static>>;

impl AssembledRow for VersionedRow {
    fn begin(key: Vec<u8>) -> Self {
        VersionedRow {
            key,
            cells: Vec::new(),
        }
    }

    fn key(&self) -> &[u8] {
        &self.key
    }

    fn add(&mut self, assembled: AssembledCell) {
        let AssembledCell {
            cell,
            timestamp_micros,
            labels,
        } = assembled;
        self.cells.push(VersionedCell {
            family: cell.family,
            qualifier: cell.qualifier,
            timestamp_micros,
            labels,
            value: cell.value,
        });
    }

    fn last_column(&self) -> Option<(&str, &[u8])> {
        self.cells
            .last()
            .map(|c| (c.family.as_str(), c.qualifier.as_slice()))
    }
}
