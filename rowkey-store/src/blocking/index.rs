//! [`BlockingIndexedStore`]: an [`IndexedStore`] with blocking methods, as
//! [`BlockingStore`](super::BlockingStore) is for a store; index
//! joins become iterators.

use super::BlockOn;
use crate::{Cell, IndexJoin, IndexStats, IndexedStore, Record, Records, Row, Store, StoreError};
use futures_core::Stream;
use rowkey_core::scan::ScanPlan;
use rowkey_core::{IndexOf, RowKey};
use std::pin::Pin;

/// An [`IndexedStore`] whose operations block the calling thread.
///
/// `rowkey::store::blocking::IndexedMemStore` is this type over two `MemStore`s;
/// `rowkey_bigtable::blocking::IndexedBigtableStore` over two Bigtable
/// tables. Write orders and what readers see are
/// [`IndexedStore`]'s.
///
/// ```
/// use rowkey::store::blocking::IndexedMemStore;
/// use rowkey::store::{Cell, IndexedStore, MemStore};
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct Reading { #[salt(buckets = 8, binary)] device: u32, metric: u16, at_ms: i64 }
///
/// #[derive(RowKey)]
/// #[rowkey(index_of = Reading)]
/// struct ReadingByMetric { metric: u16, at_ms: i64, device: u32 }
///
/// let readings = IndexedMemStore::new(IndexedStore::new(MemStore::new(), MemStore::new()));
/// for device in 0..3 {
///     let cells = vec![Cell::new("d", "v", "21.5")];
///     readings.put_indexed::<ReadingByMetric, _>(&Reading { device, metric: 5, at_ms: 10 }, cells)?;
/// }
/// let mut rows = readings.query_index(&ReadingByMetric::scan().metric.eq(5).plan()?);
/// let found = rows.by_ref().collect::<Result<Vec<_>, _>>()?;
/// assert_eq!(found[2].key_as::<Reading>()?, Reading { device: 2, metric: 5, at_ms: 10 });
/// assert_eq!(rows.stats().hits, 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct BlockingIndexedStore<S, I, E> {
    store: IndexedStore<S, I>,
    executor: E,
}

impl<S: Store, I: Store, E: BlockOn> BlockingIndexedStore<S, I, E> {
    /// `store`, driven by a new executor.
    pub fn new(store: IndexedStore<S, I>) -> Self
    where
        E: Default,
    {
        Self::with_executor(store, E::default())
    }

    /// `store`, driven by `executor` (for Bigtable, the runtime its
    /// clients were connected on).
    pub fn with_executor(store: IndexedStore<S, I>, executor: E) -> Self {
        BlockingIndexedStore { store, executor }
    }

    /// The async indexed store underneath.
    pub fn get_ref(&self) -> &IndexedStore<S, I> {
        &self.store
    }

    /// The executor, to run other async calls the same way.
    pub fn executor(&self) -> &E {
        &self.executor
    }

    /// See [`IndexedStore::put_indexed`].
    pub fn put_indexed<X, M>(&self, main: &M, cells: Vec<Cell>) -> Result<(), StoreError>
    where
        M: RowKey,
        X: IndexOf<M>,
    {
        let put = self.store.put_indexed::<X, M>(main, cells);
        self.executor.block_on("write rows", put)?
    }

    /// See [`IndexedStore::put_record`].
    pub fn put_record<X, R>(&self, record: &R) -> Result<(), StoreError>
    where
        R: Record,
        X: IndexOf<R>,
    {
        let put = self.store.put_record::<X, R>(record);
        self.executor.block_on("write rows", put)?
    }

    /// See [`IndexedStore::update_record`].
    pub fn update_record<X, R>(&self, record: &R) -> Result<(), StoreError>
    where
        R: Record,
        X: IndexOf<R>,
    {
        let update = self.store.update_record::<X, R>(record);
        self.executor.block_on("update a record", update)?
    }

    /// See [`IndexedStore::delete_record`].
    pub fn delete_record<X, R>(&self, record: &R) -> Result<(), StoreError>
    where
        R: Record,
        X: IndexOf<R>,
    {
        let delete = self.store.delete_record::<X, R>(record);
        self.executor.block_on("delete rows", delete)?
    }

    /// The main rows of an index query, one at a time; see
    /// [`IndexedStore::query_index`].
    pub fn query_index<const N: usize>(&self, plan: &ScanPlan<N>) -> IndexRows<'_, S, I, E> {
        IndexRows {
            join: Some(self.store.query_index(plan)),
            stats: IndexStats::default(),
            executor: &self.executor,
        }
    }

    /// The records of an index query, stale hits skipped, one at a time;
    /// see [`IndexedStore::query_records`].
    pub fn query_records<X, R, const N: usize>(
        &self,
        plan: &ScanPlan<N>,
    ) -> RecordRows<'_, S, I, R, E>
    where
        R: Record,
        X: IndexOf<R>,
    {
        RecordRows {
            records: Some(self.store.query_records::<X, R, N>(plan)),
            stats: IndexStats::default(),
            executor: &self.executor,
        }
    }
}

/// The next item of `stream`, blocking; `None` for good after the end or
/// an error.
fn next_blocking<St, T, E>(
    executor: &E,
    stream: &mut Option<St>,
    stats: &mut IndexStats,
    stats_of: fn(&St) -> IndexStats,
) -> Option<Result<T, StoreError>>
where
    St: Stream<Item = Result<T, StoreError>> + Unpin,
    E: BlockOn,
{
    let s = stream.as_mut()?;
    let next = executor.block_on(
        "read rows",
        std::future::poll_fn(|cx| Pin::new(&mut *s).poll_next(cx)),
    );
    *stats = stats_of(s);
    let item = next.unwrap_or_else(|e| Some(Err(e)));
    if !matches!(item, Some(Ok(_))) {
        *stream = None;
    }
    item
}

/// The main rows of an index query, pulled one at a time; ends after the
/// first error. Made by [`BlockingIndexedStore::query_index`].
pub struct IndexRows<'a, S, I, E> {
    join: Option<IndexJoin<S, I>>,
    stats: IndexStats,
    executor: &'a E,
}

impl<S, I, E> IndexRows<'_, S, I, E> {
    /// Hits read, rows joined, hits skipped so far.
    pub fn stats(&self) -> IndexStats {
        self.stats
    }
}

impl<S: Store, I: Store, E: BlockOn> Iterator for IndexRows<'_, S, I, E> {
    type Item = Result<Row, StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        next_blocking(self.executor, &mut self.join, &mut self.stats, |j| {
            j.stats()
        })
    }
}

/// The records of an index query, pulled one at a time; ends after the
/// first error. Made by [`BlockingIndexedStore::query_records`].
pub struct RecordRows<'a, S, I, R, E> {
    records: Option<Records<S, I, R>>,
    stats: IndexStats,
    executor: &'a E,
}

impl<S, I, R, E> RecordRows<'_, S, I, R, E> {
    /// Hits read, records yielded, hits skipped so far.
    pub fn stats(&self) -> IndexStats {
        self.stats
    }
}

impl<S: Store, I: Store, R: Record, E: BlockOn> Iterator for RecordRows<'_, S, I, R, E> {
    type Item = Result<R, StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        next_blocking(self.executor, &mut self.records, &mut self.stats, |r| {
            r.stats()
        })
    }
}

impl<S, I, E> std::fmt::Debug for IndexRows<'_, S, I, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IndexRows")
            .field("stats", &self.stats)
            .field("finished", &self.join.is_none())
            .finish()
    }
}

impl<S, I, R, E> std::fmt::Debug for RecordRows<'_, S, I, R, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordRows")
            .field("stats", &self.stats)
            .field("finished", &self.records.is_none())
            .finish()
    }
}
