//! [`MemStore`]: rows in a sorted map, read as Bigtable reads ranges.

use crate::atomic::{apply_edits, apply_rules, set_in_order};
use crate::{
    Cell, ConditionalWrite, KeyLimit, ParkedWalks, ReadModifyWrite, ReadRequest, Row, RowStream,
    Store, StoreError, WriteEpoch,
};
use futures_core::Stream;
use std::collections::{BTreeMap, VecDeque};
use std::ops::Bound;
use std::pin::Pin;
use std::sync::{Arc, PoisonError, RwLock};
use std::task::{Context, Poll};

type Table = BTreeMap<Vec<u8>, Vec<Cell>>;

/// Rows a read copies out of the map per lock: reads stream in chunks, so
/// memory stays bounded however many rows a read returns, and writers are
/// not held off for a whole read.
const CHUNK: usize = 256;

/// An in-memory store: a `BTreeMap` from key to cells, compared as
/// unsigned bytes like HBase and Bigtable compare keys, with Bigtable's
/// rules: one version per cell, no empty keys, no rows without cells, and
/// keys up to 4 KiB (see [`MemStore::with_key_limit`]). It never fails
/// otherwise. Clones share the same table.
///
/// Conditional writes and read-modify-writes are applied whole under the
/// table's lock: every condition ([`CellCondition`](crate::CellCondition)),
/// both branches, any edits and rules of one row.
#[derive(Debug, Clone)]
pub struct MemStore {
    rows: Arc<RwLock<Table>>,
    limit: KeyLimit,
    /// Pages' walks; every write and delete goes through `apply_write`
    /// and `apply_delete`, which move their epoch.
    walks: Arc<ParkedWalks>,
}

impl Default for MemStore {
    fn default() -> Self {
        MemStore {
            rows: Arc::default(),
            limit: KeyLimit::BIGTABLE,
            walks: Arc::new(ParkedWalks::with_open_reads(WriteEpoch::new())),
        }
    }
}

impl MemStore {
    /// An empty store with Bigtable's key limit.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store that accepts keys up to `limit`
    /// ([`KeyLimit::HBASE`] to stand in for HBase).
    pub fn with_key_limit(limit: KeyLimit) -> Self {
        MemStore {
            limit,
            ..Self::default()
        }
    }

    fn table(&self) -> std::sync::RwLockReadGuard<'_, Table> {
        // No code here panics while holding the lock; a poisoned map is
        // still consistent.
        self.rows.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// How many rows it holds.
    pub fn len(&self) -> usize {
        self.table().len()
    }

    /// Whether it holds no rows.
    pub fn is_empty(&self) -> bool {
        self.table().is_empty()
    }

    /// Every key, in order (a copy).
    pub fn keys(&self) -> Vec<Vec<u8>> {
        self.table().keys().cloned().collect()
    }

    fn apply_write(&self, rows: Vec<Row>) -> Result<(), StoreError> {
        self.limit.check_rows(&rows)?;
        let _writing = self.walks.writing();
        let mut table = self.rows.write().unwrap_or_else(PoisonError::into_inner);
        for row in rows {
            let key = row.key;
            let cells = table.entry(key.clone()).or_default();
            cells.retain(|c| !row.clear.contains(&c.family, &c.qualifier));
            for cell in row.cells {
                set_in_order(cells, cell);
            }
            // A row whose every cell was cleared is no row.
            if cells.is_empty() {
                table.remove(&key);
            }
        }
        Ok(())
    }

    fn apply_delete(&self, keys: Vec<Vec<u8>>) -> Result<(), StoreError> {
        for key in &keys {
            self.limit.check("delete rows", key)?;
        }
        let _writing = self.walks.writing();
        let mut table = self.rows.write().unwrap_or_else(PoisonError::into_inner);
        for key in &keys {
            table.remove(key);
        }
        Ok(())
    }

    fn apply_conditional(&self, write: ConditionalWrite) -> Result<bool, StoreError> {
        self.limit.check("check and write", &write.key)?;
        write.validate()?;
        let _writing = self.walks.writing();
        let mut table = self.rows.write().unwrap_or_else(PoisonError::into_inner);
        let mut cells = table.remove(&write.key).unwrap_or_default();
        let check = &write.check;
        let value = cells
            .iter()
            .find(|c| c.family == check.family && c.qualifier == check.qualifier)
            .map(|c| c.value.as_slice());
        let held = check.condition.holds(value);
        apply_edits(
            &mut cells,
            if held {
                &write.on_true
            } else {
                &write.on_false
            },
        );
        // No row without cells: a row whose edits removed every cell is gone.
        if !cells.is_empty() {
            table.insert(write.key, cells);
        }
        Ok(held)
    }

    fn apply_modify(&self, change: ReadModifyWrite) -> Result<Row, StoreError> {
        self.limit.check("read-modify-write", &change.key)?;
        change.validate()?;
        let _writing = self.walks.writing();
        let mut table = self.rows.write().unwrap_or_else(PoisonError::into_inner);
        let cells = table.entry(change.key.clone()).or_default();
        let changed = apply_rules(&change.key, cells, &change.rules);
        if cells.is_empty() {
            // Refused on a row that was not there: leave no empty row.
            table.remove(&change.key);
        }
        Ok(Row::new(change.key, changed?))
    }
}

impl Store for MemStore {
    fn check_and_write(
        &self,
        write: ConditionalWrite,
    ) -> impl std::future::Future<Output = Result<bool, StoreError>> + Send {
        std::future::ready(self.apply_conditional(write))
    }

    fn read_modify_write(
        &self,
        change: ReadModifyWrite,
    ) -> impl std::future::Future<Output = Result<Row, StoreError>> + Send {
        std::future::ready(self.apply_modify(change))
    }

    fn key_limit(&self) -> KeyLimit {
        self.limit
    }

    fn write_rows(
        &self,
        rows: Vec<Row>,
    ) -> impl std::future::Future<Output = Result<(), StoreError>> + Send {
        std::future::ready(self.apply_write(rows))
    }

    fn delete_rows(
        &self,
        keys: Vec<Vec<u8>>,
    ) -> impl std::future::Future<Output = Result<(), StoreError>> + Send {
        std::future::ready(self.apply_delete(keys))
    }

    fn parked_walks(&self) -> Option<&ParkedWalks> {
        Some(&self.walks)
    }

    fn read_rows(&self, request: ReadRequest) -> RowStream {
        Box::pin(MemRows {
            rows: self.rows.clone(),
            left: request.limit().unwrap_or(u64::MAX),
            range: 0,
            last: None,
            buffer: VecDeque::new(),
            request,
        })
    }
}

/// A read of a [`MemStore`]: chunks of rows copied out under the lock.
struct MemRows {
    rows: Arc<RwLock<Table>>,
    request: ReadRequest,
    /// How many ranges are read through (from the first, or from the last
    /// when reversed).
    range: usize,
    /// The last key copied out: the next chunk starts after it.
    last: Option<Vec<u8>>,
    left: u64,
    buffer: VecDeque<Row>,
}

impl MemRows {
    fn fill(&mut self) {
        let table = self.rows.read().unwrap_or_else(PoisonError::into_inner);
        let ranges = self.request.ranges();
        let reversed = self.request.is_reversed();
        while self.buffer.len() < CHUNK && self.left > 0 && self.range < ranges.len() {
            let range = if reversed {
                &ranges[ranges.len() - 1 - self.range]
            } else {
                &ranges[self.range]
            };
            let mut lower = Bound::Included(range.start.as_slice());
            let mut upper = match &range.stop {
                Some(stop) => Bound::Excluded(stop.as_slice()),
                None => Bound::Unbounded,
            };
            // Resume past the last key copied out, in reading order.
            if let Some(last) = self.last.as_deref().filter(|l| range.contains(l)) {
                if reversed {
                    upper = Bound::Excluded(last);
                } else {
                    lower = Bound::Excluded(last);
                }
            }
            let want = (CHUNK - self.buffer.len()).min(self.left.min(CHUNK as u64) as usize);
            let before = self.buffer.len();
            let rows = table.range::<[u8], _>((lower, upper));
            // A fuzzy key keeps only its rows; the limit counts those. The
            // rows it skips are scanned under the lock.
            // Columns and a cell slice keep only their cells, and only
            // rows with one; a slice the first so many (a row's cells are
            // kept in family and qualifier order, as the servers send them).
            let fuzzy = self.request.fuzzy();
            let request = &self.request;
            let wanted = |(key, cells): &(&Vec<u8>, &Vec<Cell>)| {
                fuzzy.is_none_or(|f| f.matches(key)) && kept_cells(request, cells).next().is_some()
            };
            let copy = |(key, cells): (&Vec<u8>, &Vec<Cell>)| {
                Row::new(key.clone(), kept_cells(request, cells).cloned().collect())
            };
            if reversed {
                self.buffer
                    .extend(rows.rev().filter(wanted).take(want).map(copy));
            } else {
                self.buffer.extend(rows.filter(wanted).take(want).map(copy));
            }
            let got = self.buffer.len() - before;
            self.left -= got as u64;
            if let Some(row) = self.buffer.back() {
                self.last = Some(row.key.clone());
            }
            if got < want {
                self.range += 1;
            }
        }
    }
}

/// The cells of a row (kept in family and qualifier order) that
/// `request` reads: its columns', its slice's up to the slice's cap. A
/// slice's ranges are found by binary search, so a page of a wide row
/// costs its own cells, not the row's.
fn kept_cells<'a>(
    request: &'a ReadRequest,
    cells: &'a [Cell],
) -> Box<dyn Iterator<Item = &'a Cell> + 'a> {
    let wants = move |c: &&Cell| request.wants_cell(&c.family, &c.qualifier);
    let Some(slice) = request.cells() else {
        return Box::new(cells.iter().filter(wants));
    };
    let family = slice.family_name();
    let in_slice = slice.qualifier_ranges().iter().flat_map(move |r| {
        let from = cells.partition_point(|c| {
            (c.family.as_str(), c.qualifier.as_slice()) < (family, r.start.as_slice())
        });
        cells[from..].iter().take_while(move |c| {
            c.family == family && r.stop.as_ref().is_none_or(|s| c.qualifier < *s)
        })
    });
    let cap = slice.row_limit().map_or(usize::MAX, |n| n as usize);
    Box::new(in_slice.filter(wants).take(cap))
}

impl Stream for MemRows {
    type Item = Result<Row, StoreError>;

    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.buffer.is_empty() {
            self.fill();
        }
        Poll::Ready(self.buffer.pop_front().map(Ok))
    }
}
