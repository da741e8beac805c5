//! [`CheckedTable`]: typed access to one table of `K` keys, opened only
//! when the table's recorded layout reads as `K`'s.

use super::LayoutRegistry;
use crate::{Cell, QueryStream, Record, Row, RowStream, Store, StoreError, StoreExt};
use core::marker::PhantomData;
use rowkey_core::scan::ScanPlan;
use rowkey_core::RowKey;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A table of `K` keys in `S`, checked against the layout recorded for it
/// in a [`LayoutRegistry`] when opened; `K`'s layout is recorded on the
/// first write where none was. A clone shares the check.
///
/// ```
/// use rowkey::store::{Cell, CheckedTable, LayoutRegistry, MemStore, StoreError};
/// use rowkey::RowKey;
///
/// mod v1 { #[derive(rowkey::RowKey)] pub struct Op { pub uid: u64, #[desc] pub at: u64 } }
/// mod v2 { #[derive(rowkey::RowKey)] pub struct Op { pub uid: u64, pub at: u64 } }
///
/// # futures::executor::block_on(async {
/// let (ops, registry) = (MemStore::new(), LayoutRegistry::new(MemStore::new()));
/// let table = CheckedTable::<_, v1::Op>::open(ops.clone(), registry.clone(), "ops").await?;
/// table.put(&v1::Op { uid: 7, at: 72629 }, vec![Cell::new("d", "k", "login")]).await?;
///
/// // The same table opened with #[desc] dropped: refused, with the diff.
/// let e = CheckedTable::<_, v2::Op>::open(ops, registry, "ops").await.unwrap_err();
/// assert!(matches!(e, StoreError::LayoutMismatch { .. }));
/// assert!(e.to_string().contains("SILENT at: #[desc] dropped"), "{e}");
/// # Ok::<(), StoreError>(())
/// # }).unwrap();
/// ```
pub struct CheckedTable<S, K, M = S> {
    store: S,
    registry: LayoutRegistry<M>,
    table: Arc<str>,
    recorded: Arc<AtomicBool>,
    key: PhantomData<fn() -> K>,
}

impl<S, K, M> core::fmt::Debug for CheckedTable<S, K, M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CheckedTable")
            .field("table", &self.table)
            .field("recorded", &self.recorded.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl<S: Clone, K, M: Clone> Clone for CheckedTable<S, K, M> {
    fn clone(&self) -> Self {
        CheckedTable {
            store: self.store.clone(),
            registry: self.registry.clone(),
            table: self.table.clone(),
            recorded: self.recorded.clone(),
            key: PhantomData,
        }
    }
}

impl<S: Store, K: RowKey, M: Store> CheckedTable<S, K, M> {
    /// Opens table `table` (its name in the registry) held by `store`:
    /// [`StoreError::LayoutMismatch`] when its recorded layout does not
    /// read as `K`'s, before anything is read from or written to it.
    pub async fn open(
        store: S,
        registry: LayoutRegistry<M>,
        table: &str,
    ) -> Result<Self, StoreError> {
        let recorded = registry.check(table, K::layout()).await?;
        Ok(CheckedTable {
            store,
            registry,
            table: table.into(),
            recorded: Arc::new(AtomicBool::new(recorded)),
            key: PhantomData,
        })
    }

    /// The table's store, unchecked.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The table's name in the registry.
    pub fn name(&self) -> &str {
        &self.table
    }

    /// Records `K`'s layout if the table had none when opened.
    async fn before_write(&self) -> Result<(), StoreError> {
        if !self.recorded.load(Ordering::Acquire) {
            self.registry
                .check_or_record(&self.table, K::layout())
                .await?;
            self.recorded.store(true, Ordering::Release);
        }
        Ok(())
    }

    /// Writes one row under `key` ([`StoreExt::put`]).
    pub async fn put(&self, key: &K, cells: Vec<Cell>) -> Result<(), StoreError> {
        let row = Row::new(key.to_vec()?, cells);
        self.before_write().await?;
        self.store.write_rows(vec![row]).await
    }

    /// Writes rows already keyed by `K` (as [`Store::write_rows`]).
    pub async fn write_rows(&self, rows: Vec<Row>) -> Result<(), StoreError> {
        self.before_write().await?;
        self.store.write_rows(rows).await
    }

    /// Writes one record keyed by `K` ([`StoreExt::put_record`]).
    pub async fn put_record<R: Record<Key = K>>(&self, record: &R) -> Result<(), StoreError> {
        let row = Row::of_record(record)?;
        self.before_write().await?;
        self.store.write_rows(vec![row]).await
    }

    /// The row of `key` ([`StoreExt::get`]).
    pub async fn get(&self, key: &K) -> Result<Option<Row>, StoreError> {
        self.store.get(key).await
    }

    /// The record stored under `key` ([`StoreExt::get_record`]).
    pub async fn get_record<R: Record<Key = K>>(&self, key: &K) -> Result<Option<R>, StoreError> {
        self.store.get_record(key).await
    }

    /// Deletes the row of `key` ([`StoreExt::delete`]).
    pub async fn delete(&self, key: &K) -> Result<(), StoreError> {
        self.store.delete(key).await
    }

    /// The rows of `plan`, merged in logical key order ([`StoreExt::query`]).
    pub fn query<const N: usize>(&self, plan: &ScanPlan<N>) -> QueryStream<S> {
        self.store.query(plan)
    }

    /// The rows of `plan` in stored order ([`StoreExt::read_plan`]).
    pub fn read_plan<const N: usize>(&self, plan: &ScanPlan<N>) -> RowStream {
        self.store.read_plan(plan)
    }
}
