//! A blocking facade over any [`Store`], as `reqwest::blocking` is over
//! reqwest: the same operations, each run to completion on the calling
//! thread by an executor the backend provides; streams become iterators
//! that pull one row at a time (memory stays bounded).
//!
//! `rowkey::store::blocking::MemStore` and `rowkey_bigtable::blocking::BigtableStore`
//! are this type with their executors. Bigtable's refuses to run on a
//! thread that drives an async runtime, with
//! [`StoreError::InsideAsyncRuntime`] instead of a panic.
//!
//! ```
//! use rowkey::store::blocking::MemStore;
//! use rowkey::store::Cell;
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct Op { uid: u64, seq: u32 }
//!
//! let store = MemStore::default();
//! for seq in 0..3 {
//!     store.put(&Op { uid: 1, seq }, vec![Cell::new("d", "v", "x")])?;
//! }
//! let rows: Vec<_> = store.query(&Op::scan().uid.eq(1).plan()?).collect::<Result<_, _>>()?;
//! assert_eq!(rows.len(), 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod index;
mod parking;
mod table;
mod wide;

pub use index::{BlockingIndexedStore, IndexRows, RecordRows};
pub use parking::{IndexedMemStore, MemStore, ParkingExecutor};
pub use table::BlockingIndexedTable;
pub use wide::Cells;

use crate::{Cell, QueryOptions, ReadRequest, Record, Row, RowStream, Store, StoreError, StoreExt};
use rowkey_core::scan::{Cursor, Page, ScanPlan, ScanRange};
use rowkey_core::RowKey;
use std::future::Future;

/// Runs a future to completion on the calling thread.
pub trait BlockOn: Send + Sync {
    /// The future's output, or an error (for `op`) when this thread may
    /// not block, such as inside an async runtime.
    fn block_on<F: Future>(&self, op: &'static str, future: F) -> Result<F::Output, StoreError>;
}

/// An executor's reference runs futures as the executor does: stores
/// that share one executor, such as an indexed store's two tables
/// ([`BlockingIndexedStore::main`]).
impl<E: BlockOn + ?Sized> BlockOn for &E {
    fn block_on<F: Future>(&self, op: &'static str, future: F) -> Result<F::Output, StoreError> {
        (**self).block_on(op, future)
    }
}

/// A [`Store`] with blocking methods; see the [module docs](self).
#[derive(Debug, Clone)]
pub struct BlockingStore<S, E> {
    store: S,
    executor: E,
}

impl<S: Store + Default, E: BlockOn + Default> Default for BlockingStore<S, E> {
    fn default() -> Self {
        BlockingStore::new(S::default())
    }
}

impl<S: Store, E: BlockOn> BlockingStore<S, E> {
    /// `store`, driven by a new executor.
    pub fn new(store: S) -> Self
    where
        E: Default,
    {
        BlockingStore::with_executor(store, E::default())
    }

    /// `store`, driven by `executor`.
    pub fn with_executor(store: S, executor: E) -> Self {
        BlockingStore { store, executor }
    }

    /// The async store underneath.
    pub fn get_ref(&self) -> &S {
        &self.store
    }

    /// The executor, to run other async calls (table admin, say) the same
    /// way.
    pub fn executor(&self) -> &E {
        &self.executor
    }

    /// Writes rows; see [`Store::write_rows`].
    pub fn write_rows(&self, rows: Vec<Row>) -> Result<(), StoreError> {
        self.executor
            .block_on("write rows", self.store.write_rows(rows))?
    }

    /// Deletes rows by key; see [`Store::delete_rows`].
    pub fn delete_rows(&self, keys: Vec<Vec<u8>>) -> Result<(), StoreError> {
        self.executor
            .block_on("delete rows", self.store.delete_rows(keys))?
    }

    /// The row with exactly this key; see [`StoreExt::read_row`].
    pub fn read_row(&self, key: &[u8]) -> Result<Option<Row>, StoreError> {
        self.executor
            .block_on("read row", self.store.read_row(key))?
    }

    /// The rows of `request`, one at a time; see [`Store::read_rows`].
    pub fn read_rows(&self, request: ReadRequest) -> Rows<'_, E> {
        self.rows(self.store.read_rows(request))
    }

    /// Writes one row under a typed key; see [`StoreExt::put`].
    pub fn put<K: RowKey>(&self, key: &K, cells: Vec<Cell>) -> Result<(), StoreError> {
        self.executor
            .block_on("write rows", self.store.put(key, cells))?
    }

    /// Deletes the row of a typed key; see [`StoreExt::delete`].
    pub fn delete<K: RowKey>(&self, key: &K) -> Result<(), StoreError> {
        self.executor
            .block_on("delete rows", self.store.delete(key))?
    }

    /// The row of a typed key; see [`StoreExt::get`].
    pub fn get<K: RowKey>(&self, key: &K) -> Result<Option<Row>, StoreError> {
        self.executor.block_on("read row", self.store.get(key))?
    }

    /// Writes one record; see [`StoreExt::put_record`].
    ///
    /// ```
    /// use rowkey::store::blocking::MemStore;
    /// use rowkey::{Record, RowKey};
    ///
    /// #[derive(RowKey, Debug, Clone, PartialEq)]
    /// struct ReadingKey { device: u32, #[desc_ts] at_ms: i64 }
    ///
    /// #[derive(Record, Debug, PartialEq)]
    /// #[record(key = ReadingKey, family = "d")]
    /// struct Reading { device: u32, at_ms: i64, value: f64 }
    ///
    /// let store = MemStore::default();
    /// let r = Reading { device: 7, at_ms: 1_700_000_000_000, value: 21.5 };
    /// store.put_record(&r)?;
    /// let key = ReadingKey { device: 7, at_ms: 1_700_000_000_000 };
    /// assert_eq!(store.get_record::<Reading>(&key)?, Some(r));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn put_record<R: Record>(&self, record: &R) -> Result<(), StoreError> {
        self.executor
            .block_on("write rows", self.store.put_record(record))?
    }

    /// The record stored under `key`, read with only its columns; see
    /// [`StoreExt::get_record`].
    pub fn get_record<R: Record>(&self, key: &R::Key) -> Result<Option<R>, StoreError> {
        self.executor
            .block_on("read a record", self.store.get_record(key))?
    }

    /// The rows of one range; see [`StoreExt::scan`].
    pub fn scan<const N: usize>(&self, range: &ScanRange<N>) -> Rows<'_, E> {
        self.rows(self.store.scan(range))
    }

    /// The rows of a plan in logical key order; see [`StoreExt::query`].
    pub fn query<const N: usize>(&self, plan: &ScanPlan<N>) -> Rows<'_, E> {
        self.rows(Box::pin(self.store.query(plan)))
    }

    /// [`query`](Self::query) with options; see [`StoreExt::query_with`].
    pub fn query_with<const N: usize>(
        &self,
        plan: &ScanPlan<N>,
        options: QueryOptions,
    ) -> Rows<'_, E> {
        self.rows(Box::pin(self.store.query_with(plan, options)))
    }

    /// The rows of a plan in stored key order; see [`StoreExt::read_plan`].
    pub fn read_plan<const N: usize>(&self, plan: &ScanPlan<N>) -> Rows<'_, E> {
        self.rows(self.store.read_plan(plan))
    }

    /// One keyset page; see [`StoreExt::page`].
    pub fn page<const N: usize>(
        &self,
        plan: &ScanPlan<N>,
        resume: Option<&Cursor>,
        size: usize,
    ) -> Result<Page<Row>, StoreError> {
        self.executor
            .block_on("read rows", self.store.page(plan, resume, size))?
    }

    fn rows(&self, stream: RowStream) -> Rows<'_, E> {
        Rows {
            stream: Some(stream),
            executor: &self.executor,
        }
    }
}

/// The rows of a read, pulled one at a time; ends after the first error.
pub struct Rows<'a, E> {
    stream: Option<RowStream>,
    executor: &'a E,
}

impl<E: BlockOn> Iterator for Rows<'_, E> {
    type Item = Result<Row, StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        let stream = self.stream.as_mut()?;
        let next = self.executor.block_on(
            "read rows",
            std::future::poll_fn(|cx| stream.as_mut().poll_next(cx)),
        );
        let item = match next {
            Ok(item) => item,
            Err(e) => Some(Err(e)),
        };
        if !matches!(item, Some(Ok(_))) {
            self.stream = None;
        }
        item
    }
}

impl<E> std::fmt::Debug for Rows<'_, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rows")
            .field("finished", &self.stream.is_none())
            .finish()
    }
}
