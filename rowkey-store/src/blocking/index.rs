//! [`BlockingIndexedStore`]: an [`IndexedStore`] with blocking methods, as
//! [`BlockingStore`](super::BlockingStore) is for a store; index
//! joins become iterators.

use super::{BlockOn, BlockingStore};
use crate::{
    Cell, IndexJoin, IndexStats, IndexedStore, PutRecordsOptions, PutRecordsProgress, Record,
    Records, Row, Store, StoreError,
};
use futures_core::Stream;
use rowkey_core::scan::ScanPlan;
use rowkey_core::{RowKey, SparseIndexOf};
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

    /// The main table, blocking: its rows read and written by key, on
    /// this store's executor.
    pub fn main(&self) -> BlockingStore<S, &E> {
        BlockingStore::with_executor(self.store.main().clone(), &self.executor)
    }

    /// The index table, blocking, on this store's executor.
    pub fn index(&self) -> BlockingStore<I, &E> {
        BlockingStore::with_executor(self.store.index().clone(), &self.executor)
    }

    /// See [`IndexedStore::put_indexed`].
    pub fn put_indexed<X, M>(&self, main: &M, cells: Vec<Cell>) -> Result<(), StoreError>
    where
        M: RowKey,
        X: SparseIndexOf<M>,
    {
        let put = self.store.put_indexed::<X, M>(main, cells);
        self.executor.block_on("write rows", put)?
    }

    /// See [`IndexedStore::put_record`].
    pub fn put_record<X, R>(&self, record: &R) -> Result<(), StoreError>
    where
        R: Record,
        X: SparseIndexOf<R>,
    {
        let put = self.store.put_record::<X, R>(record);
        self.executor.block_on("write rows", put)?
    }

    /// Many records and their index rows, in batches; see
    /// [`IndexedStore::put_records`].
    pub fn put_records<X, R>(
        &self,
        records: impl IntoIterator<Item = R>,
    ) -> Result<PutRecordsProgress, StoreError>
    where
        R: Record,
        X: SparseIndexOf<R>,
    {
        let put = self.store.put_records::<X, R>(records);
        self.executor.block_on("write rows", put)?
    }

    /// [`put_records`](Self::put_records) with chosen batching and a
    /// progress hook; see [`IndexedStore::put_records_with`] and, for the
    /// write order and what a failure leaves,
    /// [`IndexedStore::put_record_stream`].
    ///
    /// ```
    /// use rowkey::store::blocking::IndexedMemStore;
    /// use rowkey::store::{BoxError, Cell, RecordError, IndexedStore, MemStore, PutRecordsOptions, Record, Row};
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Op { user: u32, seq: u32 }
    ///
    /// /// A user's operation, with its kind in a cell.
    /// struct Logged { user: u32, seq: u32, kind: String }
    ///
    /// impl Record for Logged {
    ///     type Key = Op;
    ///     fn key(&self) -> Op { Op { user: self.user, seq: self.seq } }
    ///     fn cells(&self) -> Vec<Cell> { vec![Cell::new("d", "kind", &self.kind)] }
    ///     fn from_row(row: &Row) -> Result<Self, RecordError> {
    ///         let op: Op = row.key_as()?;
    ///         let kind = String::from_utf8(row.value("d", "kind").ok_or("no d:kind")?.to_vec())?;
    ///         Ok(Logged { user: op.user, seq: op.seq, kind })
    ///     }
    /// }
    ///
    /// /// Operations by kind.
    /// #[derive(RowKey)]
    /// #[rowkey(index_of = Logged)]
    /// struct OpByKind { #[max_len(16)] kind: String, user: u32, seq: u32 }
    ///
    /// let ops = IndexedMemStore::new(IndexedStore::new(MemStore::new(), MemStore::new()));
    /// let log = (0..5_000).map(|seq| Logged { user: seq % 10, seq, kind: ["login", "buy"][seq as usize % 2].into() });
    /// let mut last = None;
    /// let options = PutRecordsOptions::default().batch_records(500);
    /// ops.put_records_with::<OpByKind, _>(log, options, |p| last = Some(p))?;
    /// assert_eq!(last.map(|p| (p.records, p.rows, p.batches)), Some((5_000, 10_000, 10)));
    ///
    /// let buys = OpByKind::scan().kind.eq("buy").plan()?;
    /// assert_eq!(ops.query_records::<OpByKind, Logged, _>(&buys).count(), 2_500);
    /// assert_eq!(ops.main().get(&Op { user: 3, seq: 13 })?.unwrap().value("d", "kind"), Some(&b"buy"[..]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn put_records_with<X, R>(
        &self,
        records: impl IntoIterator<Item = R>,
        options: PutRecordsOptions,
        progress: impl FnMut(PutRecordsProgress),
    ) -> Result<PutRecordsProgress, StoreError>
    where
        R: Record,
        X: SparseIndexOf<R>,
    {
        let put = self
            .store
            .put_records_with::<X, R>(records, options, progress);
        self.executor.block_on("write rows", put)?
    }

    /// See [`IndexedStore::update_record`].
    pub fn update_record<X, R>(&self, record: &R) -> Result<(), StoreError>
    where
        R: Record,
        X: SparseIndexOf<R>,
    {
        let update = self.store.update_record::<X, R>(record);
        self.executor.block_on("update a record", update)?
    }

    /// See [`IndexedStore::delete_record`].
    pub fn delete_record<X, R>(&self, record: &R) -> Result<(), StoreError>
    where
        R: Record,
        X: SparseIndexOf<R>,
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
        X: SparseIndexOf<R>,
    {
        RecordRows::new(self.store.query_records::<X, R, N>(plan), &self.executor)
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

impl<'a, S, I, R, E> RecordRows<'a, S, I, R, E> {
    /// The records of `records`, pulled on `executor`.
    pub(super) fn new(records: Records<S, I, R>, executor: &'a E) -> Self {
        RecordRows {
            records: Some(records),
            stats: IndexStats::default(),
            executor,
        }
    }
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
