//! [`Rekey::to_indexed_table`]: a table re-keyed into an
//! [`IndexedTable`] with every one of its indexes rebuilt, in one call:
//! the target tables' recorded layouts checked first, the rows moved in
//! batches from a checkpoint, the result verified, and only then the new
//! layouts recorded.

use super::run::{read_batch, IndexKeyOf, IndexSink};
use super::{Checkpoint, Rekey, RekeyCheckpoint, RekeyError, RekeyVerification};
use crate::{IndexedTable, INDEX_QUALIFIER};
use crate::{LayoutRegistry, Record, Row, Store, StoreError, StoreExt, INDEX_FAMILY};
use rowkey_core::{Layout, RowKey};

/// The most mismatched keys a verification keeps.
const KEPT: usize = 16;

/// The names of a re-key's target tables, for the layout guard: the main
/// table's, and each index table's by its index key type. Every index of
/// the [`IndexedTable`] needs a name.
///
/// ```
/// use rowkey::store::RekeyTables;
/// #[derive(rowkey::RowKey)] struct ByRider { rider: u32, trip: u64 }
/// let tables = RekeyTables::new("trips_v2").index::<ByRider>("trips_v2_by_rider");
/// assert_eq!(tables.main(), "trips_v2");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RekeyTables {
    main: String,
    /// (index key layout name, table name).
    indexes: Vec<(&'static str, String)>,
}

impl RekeyTables {
    /// The main table's name, with no index table named yet.
    pub fn new(main: impl Into<String>) -> Self {
        RekeyTables {
            main: main.into(),
            indexes: Vec::new(),
        }
    }

    /// Names the table of the index keyed by `X`.
    pub fn index<X: RowKey>(self, table: impl Into<String>) -> Self {
        self.index_named(X::layout().name, table)
    }

    /// Names the table of the index whose key's layout is named `index`
    /// (a layout read from JSON).
    pub fn index_named(mut self, index: &'static str, table: impl Into<String>) -> Self {
        self.indexes.retain(|(n, _)| *n != index);
        self.indexes.push((index, table.into()));
        self
    }

    /// The main table's name.
    pub fn main(&self) -> &str {
        &self.main
    }

    fn index_table(&self, layout: &Layout) -> Result<&str, RekeyError> {
        self.indexes
            .iter()
            .find(|(n, _)| *n == layout.name)
            .map(|(_, t)| t.as_str())
            .ok_or(RekeyError::UnnamedIndex { index: layout.name })
    }
}

/// One index table a re-key rebuilds
/// ([`Rekey::to_table_with_indexes`]): its store, its key's layout (which
/// names it in [`RekeyTables`] and is recorded for it) and each new row's
/// key in it (`None`: no row, as in a sparse index).
pub struct RekeyIndex<'a, I> {
    store: &'a I,
    layout: &'static Layout,
    key: IndexKeyOf<'a>,
}

impl<'a, I> RekeyIndex<'a, I> {
    /// The index in `store`, keyed by `layout`, each new row's key from
    /// `key`.
    pub fn new(
        store: &'a I,
        layout: &'static Layout,
        key: impl Fn(&Row) -> Result<Option<Vec<u8>>, String> + Send + Sync + 'a,
    ) -> Self {
        RekeyIndex {
            store,
            layout,
            key: Box::new(key),
        }
    }
}

/// What [`Rekey::to_indexed_table`] did: the run's counts and the
/// verification that passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedRekey {
    /// The counts of the run (all of it, across resumes).
    pub counts: RekeyCheckpoint,
    /// The main table's and the index tables' checks.
    pub verification: RekeyVerification,
}

impl<'m> Rekey<'m> {
    /// Moves `source`'s rows into `target`'s main table and rebuilds every
    /// index of `target` (an index of the key, of cells, sparse) from the
    /// new records, in one call:
    ///
    /// 1. the layouts recorded in `registry` for the target tables
    ///    (named by `tables`) are checked: a table recorded with a layout
    ///    that does not read as the new key's (or the index key's) stops
    ///    the re-key before anything is written
    ///    ([`StoreError::LayoutMismatch`]);
    /// 2. the rows move in batches as [`to_table`](Self::to_table) moves
    ///    them (collisions found, a [`Checkpoint`] saved after each
    ///    batch, so a stopped run resumes where it was), each new row's
    ///    index rows written after it, for every index table;
    /// 3. the result is verified: [`verify_table`](Self::verify_table) on
    ///    the main table (every `verify_every`-th row mapped again and
    ///    compared, see [`verify_every`](Self::verify_every)), and each
    ///    index table holds exactly the rows of the new records, each
    ///    pointing at its main row. A failed check is
    ///    [`RekeyError::NotVerified`], and nothing is recorded;
    /// 4. the new layouts are recorded for the target tables, so guarded
    ///    readers ([`CheckedTable`](crate::CheckedTable)) accept them.
    ///
    /// The index tables should be new and empty (they are counted whole).
    /// A new row that is not a record `R` (its cells do not read as one)
    /// stops the re-key, naming the old row.
    ///
    /// ```
    /// # use rowkey::store::*;
    /// # use rowkey::{RowKey, SparseIndexOf};
    /// mod v1 { #[derive(rowkey::RowKey)] pub struct TripKey { #[salt(buckets = 12)] pub city: u16, pub seq: u32 } }
    /// #[derive(RowKey)] struct TripKey { #[salt(buckets = 24)] city: u16, seq: u32 }
    /// #[derive(Debug, Clone, PartialEq)]
    /// struct Trip { city: u16, seq: u32, rider: u32 }
    /// impl Record for Trip {
    ///     type Key = TripKey;
    ///     fn key(&self) -> TripKey { TripKey { city: self.city, seq: self.seq } }
    ///     fn cells(&self) -> Vec<Cell> { vec![Cell::new("d", "rider", self.rider.to_be_bytes())] }
    ///     fn from_row(row: &Row) -> Result<Self, RecordError> {
    ///         let k: TripKey = row.key_as()?;
    ///         let rider = row.value("d", "rider").ok_or("no rider")?;
    ///         let rider = u32::from_be_bytes(rider.try_into().map_err(RecordError::other)?);
    ///         Ok(Trip { city: k.city, seq: k.seq, rider })
    ///     }
    /// }
    /// /// By rider: an index of a cell.
    /// #[derive(RowKey)] #[rowkey(index_of = Trip)] struct ByRider { rider: u32, city: u16, seq: u32 }
    ///
    /// # futures::executor::block_on(async {
    /// let old = MemStore::new();
    /// for seq in 0..50u32 {
    ///     let key = v1::TripKey { city: 3, seq }.to_vec()?;
    ///     old.write_rows(vec![Row::new(key, vec![Cell::new("d", "rider", (seq % 7).to_be_bytes())])]).await?;
    /// }
    /// let trips = IndexedTable::<Trip, _>::new(MemStore::new()).with_index::<ByRider>(MemStore::new());
    /// let registry = LayoutRegistry::new(MemStore::new());
    /// let tables = RekeyTables::new("trips_v2").index::<ByRider>("trips_v2_by_rider");
    /// let mapping = TypedMapping::new(|o: v1::TripKey| TripKey { city: o.city, seq: o.seq });
    /// let done = Rekey::new(&mapping)
    ///     .to_indexed_table(&old, &trips, &registry, &tables, &MemCheckpoint::default(), |_| {})
    ///     .await?;
    /// assert_eq!((done.counts.written, done.counts.indexed), (50, 50));
    /// assert!(done.verification.is_ok());
    /// assert_eq!(registry.recorded("trips_v2").await?.unwrap().layout, TripKey::layout());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    pub async fn to_indexed_table<S, R, T, I, M>(
        &self,
        source: &S,
        target: &IndexedTable<R, T, I>,
        registry: &LayoutRegistry<M>,
        tables: &RekeyTables,
        checkpoint: &dyn Checkpoint,
        progress: impl FnMut(&RekeyCheckpoint) + Send,
    ) -> Result<IndexedRekey, RekeyError>
    where
        S: Store,
        R: Record,
        T: Store,
        I: Store,
        M: Store,
    {
        let indexes: Vec<RekeyIndex<'_, I>> = target
            .index_parts()
            .map(|(store, key, layout)| {
                RekeyIndex::new(store, layout, move |row: &Row| {
                    let record = R::from_row(row)
                        .map_err(|e| format!("the new row is not a record: {e}"))?;
                    key(&record).map_err(|e| e.to_string())
                })
            })
            .collect();
        self.to_table_with_indexes(
            source,
            target.main(),
            R::Key::layout(),
            &indexes,
            registry,
            tables,
            checkpoint,
            progress,
        )
        .await
    }

    /// [`to_indexed_table`](Self::to_indexed_table) for tables that are
    /// not an [`IndexedTable`] of a record type (layouts read from JSON,
    /// as `rowkey rekey --index` has them): `target` holds keys of
    /// `layout`, and each of `indexes` says how a new row is keyed in it.
    #[allow(clippy::too_many_arguments)]
    pub async fn to_table_with_indexes<S, T, I, M>(
        &self,
        source: &S,
        target: &T,
        layout: &'static Layout,
        indexes: &[RekeyIndex<'_, I>],
        registry: &LayoutRegistry<M>,
        tables: &RekeyTables,
        checkpoint: &dyn Checkpoint,
        mut progress: impl FnMut(&RekeyCheckpoint) + Send,
    ) -> Result<IndexedRekey, RekeyError>
    where
        S: Store,
        T: Store,
        I: Store,
        M: Store,
    {
        // Every table's name and layout, before anything is written.
        let mut guarded: Vec<(&str, &'static Layout)> = vec![(tables.main(), layout)];
        for index in indexes {
            guarded.push((tables.index_table(index.layout)?, index.layout));
        }
        for (table, layout) in &guarded {
            registry.check(table, layout).await?;
        }
        let sinks: Vec<IndexSink<'_, I>> = indexes
            .iter()
            .map(|index| IndexSink {
                store: index.store,
                key: Box::new(|row: &Row| (index.key)(row)),
            })
            .collect();
        let run = self.run(false);
        let counts = run
            .go(source, target, &sinks, checkpoint, &mut progress)
            .await?;
        if self.dry_run {
            return Ok(IndexedRekey {
                counts,
                verification: RekeyVerification::default(),
            });
        }
        let mut verification = self.verify_table(source, target, self.verify_every).await?;
        self.verify_indexes(target, &sinks, &mut verification)
            .await?;
        if !verification.is_ok() {
            return Err(RekeyError::NotVerified(Box::new(verification)));
        }
        for (table, layout) in &guarded {
            registry.record(table, layout).await?;
        }
        Ok(IndexedRekey {
            counts,
            verification,
        })
    }

    /// Each index table against the main table's new rows: as many rows
    /// as the new records have index keys, and every `verify_every`-th
    /// one there, pointing at its main row.
    async fn verify_indexes<T: Store, I: Store>(
        &self,
        main: &T,
        sinks: &[IndexSink<'_, I>],
        v: &mut RekeyVerification,
    ) -> Result<(), RekeyError> {
        let mut expected = vec![0u64; sinks.len()];
        let (mut last, mut seen) = (None, 0u64);
        loop {
            let rows = read_batch(main, last.as_deref(), self.batch).await?;
            let Some(end) = rows.last() else { break };
            last = Some(end.key.clone());
            for row in rows.iter().filter(|r| self.mapping.is_new(&r.key)) {
                seen += 1;
                let check = seen % self.verify_every.max(1) == 0;
                for (i, sink) in sinks.iter().enumerate() {
                    let map_error = |why| RekeyError::Map {
                        key: row.key.clone(),
                        why,
                    };
                    let Some(index_key) = (sink.key)(row).map_err(map_error)? else {
                        continue;
                    };
                    expected[i] += 1;
                    if !check {
                        continue;
                    }
                    v.checked += 1;
                    let stored = sink.store.read_row(&index_key).await?;
                    let points_back = stored
                        .as_ref()
                        .and_then(|r| r.value(INDEX_FAMILY, INDEX_QUALIFIER))
                        == Some(&row.key[..]);
                    if !points_back && v.mismatched.len() < KEPT {
                        v.mismatched.push(index_key);
                    }
                }
            }
        }
        for (sink, expected) in sinks.iter().zip(expected) {
            v.index_rows_expected += expected;
            v.index_rows_found += count_rows(sink.store, self.batch).await?;
        }
        Ok(())
    }
}

/// Every row of `store`, counted a batch at a time.
async fn count_rows<S: Store>(store: &S, batch: usize) -> Result<u64, StoreError> {
    let (mut n, mut last) = (0, None);
    loop {
        let rows = read_batch(store, last.as_deref(), batch)
            .await
            .map_err(|e| match e {
                RekeyError::Store(e) => e,
                other => StoreError::backend("count rows", other.to_string()),
            })?;
        let Some(end) = rows.last() else {
            return Ok(n);
        };
        last = Some(end.key.clone());
        n += rows.len() as u64;
    }
}
