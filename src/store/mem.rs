//! [`MemStore`]: rows in a sorted map, read as Bigtable reads ranges.

use super::{Row, Store, StoreError};
use std::collections::BTreeMap;
use std::ops::Bound;

/// An in-memory store: a `BTreeMap` from key to cells, compared as
/// unsigned bytes like HBase and Bigtable compare keys. It never fails.
#[derive(Debug, Clone, Default)]
pub struct MemStore {
    rows: BTreeMap<Vec<u8>, Vec<super::Cell>>,
}

impl MemStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many rows it holds.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether it holds no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Every key, in order.
    pub fn keys(&self) -> impl Iterator<Item = &[u8]> {
        self.rows.keys().map(Vec::as_slice)
    }
}

impl Store for MemStore {
    fn write_rows(&mut self, rows: Vec<Row>) -> Result<(), StoreError> {
        super::check_rows(&rows)?;
        for row in rows {
            let cells = self.rows.entry(row.key).or_default();
            for cell in row.cells {
                match cells
                    .iter_mut()
                    .find(|c| c.family == cell.family && c.qualifier == cell.qualifier)
                {
                    Some(old) => old.value = cell.value,
                    None => cells.push(cell),
                }
            }
        }
        Ok(())
    }

    fn read_row(&mut self, key: &[u8]) -> Result<Option<Row>, StoreError> {
        Ok(self.rows.get(key).map(|cells| Row {
            key: key.to_vec(),
            cells: cells.clone(),
        }))
    }

    fn read_range(
        &mut self,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: Option<usize>,
    ) -> Result<Vec<Row>, StoreError> {
        let upper = match stop {
            Some(s) if s <= start => return Ok(Vec::new()),
            Some(s) => Bound::Excluded(s),
            None => Bound::Unbounded,
        };
        Ok(self
            .rows
            .range::<[u8], _>((Bound::Included(start), upper))
            .take(limit.unwrap_or(usize::MAX))
            .map(|(k, cells)| Row {
                key: k.clone(),
                cells: cells.clone(),
            })
            .collect())
    }
}
