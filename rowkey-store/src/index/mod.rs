//! [`IndexedStore`]: a main table and an index table keyed another way
//! ([`IndexOf`](rowkey_core::IndexOf)): both rows written in an order readers tolerate, index
//! hits joined back to main rows in batched point reads ([`IndexJoin`]).
//! The record-based operations are in `record.rs`, bulk loads of records
//! in `bulk.rs`.

use crate::{Cell, Row, Store, StoreError, StoreExt};
use rowkey_core::scan::ScanPlan;
use rowkey_core::{RowKey, SparseIndexOf};

mod bulk;
mod join;
mod key_fn;
mod load;
mod lock;
mod lock_cell;
mod record;
mod table;
mod unique;
mod write;

pub use bulk::{PutRecordsOptions, PutRecordsProgress};
pub use join::{IndexJoin, IndexStats};
pub use record::Records;
pub use table::IndexedTable;

/// The family of the index row's one cell.
pub const INDEX_FAMILY: &str = "i";
/// The qualifier of the index row's one cell, whose value is the main
/// row's key.
pub const INDEX_QUALIFIER: &[u8] = b"k";
/// Main keys read per batched point read ([`Store::read_keys`]) when
/// joining index hits, by default: one multi-get of 1,000 keys costs far
/// less than ten of 100 (on HBase, a join in batches of 100 took 1.5x its
/// index read plus one batched read of its main rows; in batches of 1,000,
/// 1.0x: BENCHMARKS.md, "Stores: index joins").
pub const DEFAULT_JOIN_BATCH: usize = 1000;

/// A main table and an index of it: two stores (two tables; they may be
/// clones of one store only if their keys cannot collide).
///
/// An index row is keyed by an [`IndexOf`](rowkey_core::IndexOf) key and holds one cell,
/// [`INDEX_FAMILY`]`:`[`INDEX_QUALIFIER`] (`i:k`), whose value is the main
/// row's key: on Bigtable, create the index table with family `i`.
///
/// **Write order.** [`put_indexed`](Self::put_indexed) writes the main
/// row, and only once that has succeeded, the index row. A failure (or a
/// crash) between the two leaves a main row that its key reads but the
/// index does not find; putting it again heals it (both writes are
/// idempotent). The index never points at a main row that was not
/// written. A main row deleted by other means leaves an index hit
/// without a main row, which [`query_index`](Self::query_index) skips and
/// counts ([`IndexStats::missing`](IndexStats::missing)).
///
/// **Records.** An index key built from a main *key* never goes stale.
/// One built from a whole [`Record`](crate::Record) (an index by buyer of
/// trades keyed by seller) does when the record changes:
/// [`put_record`](Self::put_record), [`update_record`](Self::update_record),
/// [`delete_record`](Self::delete_record) and
/// [`query_records`](Self::query_records) keep readers right through
/// that; see each for its write order and what a reader sees if it stops
/// half way.
///
/// **Bulk loads.** [`put_records`](Self::put_records) and
/// [`put_record_stream`](Self::put_record_stream) write many records in
/// batches, a bounded number in flight, each batch in `put_record`'s
/// order, with a progress hook: a load of 50,000 records costs about
/// two plain writes of their rows, not 50,000 round trips.
///
/// ```
/// use futures::TryStreamExt;
/// use rowkey::store::{Cell, IndexedStore, MemStore};
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct Reading { #[salt(buckets = 8, binary)] device: u32, metric: u16, #[desc_ts] at_ms: i64 }
///
/// /// "One metric, all devices, newest first": a query the main key cannot answer.
/// #[derive(RowKey)]
/// #[rowkey(index_of = Reading)]
/// struct ReadingByMetric { metric: u16, #[desc_ts] at_ms: i64, device: u32 }
///
/// # futures::executor::block_on(async {
/// let readings = IndexedStore::new(MemStore::new(), MemStore::new());
/// for (device, metric, at_ms) in [(1, 5, 10), (2, 5, 20), (3, 6, 30)] {
///     let cells = vec![Cell::new("d", "v", "21.5")];
///     readings.put_indexed::<ReadingByMetric, _>(&Reading { device, metric, at_ms }, cells).await?;
/// }
/// let mut rows = readings.query_index(&ReadingByMetric::scan().metric.eq(5).plan()?);
/// let found: Vec<_> = (&mut rows).try_collect().await?;
/// let keys: Vec<Reading> = found.iter().map(|r| r.key_as()).collect::<Result<_, _>>()?;
/// assert_eq!(keys, [Reading { device: 2, metric: 5, at_ms: 20 }, Reading { device: 1, metric: 5, at_ms: 10 }]);
/// assert_eq!((rows.stats().hits, rows.stats().missing), (2, 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct IndexedStore<S, I = S> {
    main: S,
    index: I,
    batch: usize,
}

impl<S: Store, I: Store> IndexedStore<S, I> {
    /// The main table `main` and its index table `index`.
    pub fn new(main: S, index: I) -> Self {
        IndexedStore {
            main,
            index,
            batch: DEFAULT_JOIN_BATCH,
        }
    }

    /// Joins index hits `n` main keys per read (0 is taken as 1; the
    /// default is [`DEFAULT_JOIN_BATCH`]).
    pub fn join_batch(mut self, n: usize) -> Self {
        self.batch = n.max(1);
        self
    }

    /// The main table.
    pub fn main(&self) -> &S {
        &self.main
    }

    /// The index table.
    pub fn index(&self) -> &I {
        &self.index
    }

    /// Writes the main row of `main` with `cells`, then the index row of
    /// `X::index_key(main)` pointing at it (see the write order above);
    /// a sparse index ([`SparseIndexOf`]) that holds no row for `main`
    /// gets none. Both keys are encoded, and checked against their
    /// store's limits where the store checks them, before the main row is
    /// written.
    pub async fn put_indexed<X, M>(&self, main: &M, cells: Vec<Cell>) -> Result<(), StoreError>
    where
        M: RowKey,
        X: SparseIndexOf<M>,
    {
        let main_key = main.to_vec()?;
        let index_key = X::sparse_index_key(main).map(|x| x.to_vec()).transpose()?;
        if let Some(key) = &index_key {
            self.index.key_limit().check("write rows", key)?;
        }
        let row = Row::new(main_key, cells);
        write::put_rows(&self.main, &[&self.index], row, vec![index_key]).await
    }

    /// This store's index as the one target of a record operation.
    fn target<X: SparseIndexOf<R>, R>(&self) -> [write::Target<'_, R, I>; 1] {
        [write::Target {
            store: &self.index,
            key: key_fn::index_key_fn::<X, R>(),
            unique: None,
        }]
    }

    /// The main rows of the index rows `plan` selects, in the index's
    /// order (the plan's: merged across buckets, reversed if it is),
    /// joined in point reads of up to [`join_batch`](Self::join_batch)
    /// keys. A hit whose main row is missing is skipped and counted
    /// ([`IndexJoin::stats`]). The plan's limit caps the index hits read.
    ///
    /// The joined rows are not checked against the hit: for an index of
    /// records, which can go stale, use
    /// [`query_records`](Self::query_records).
    pub fn query_index<const N: usize>(&self, plan: &ScanPlan<N>) -> IndexJoin<S, I> {
        IndexJoin::new(self.main.clone(), self.index.query(plan), self.batch)
    }
}

/// The index row under `index_key` pointing at `main_key`.
pub(crate) fn index_row(index_key: Vec<u8>, main_key: &[u8]) -> Row {
    Row::new(
        index_key,
        vec![Cell::new(INDEX_FAMILY, INDEX_QUALIFIER, main_key)],
    )
}
