//! [`CheckedIndexedStore`]: an [`IndexedStore`] whose main table and
//! index table are each checked against their recorded layouts.

use super::LayoutRegistry;
use crate::{Cell, IndexJoin, IndexedStore, Store, StoreError};
use core::marker::PhantomData;
use rowkey_core::scan::ScanPlan;
use rowkey_core::{IndexOf, RowKey};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A main table of `K` keys and its index of `X` keys, both checked
/// against the layouts recorded for them when opened (each refused with
/// its own diff); both recorded on the first write where none was.
///
/// ```
/// use rowkey::store::{Cell, CheckedIndexedStore, IndexedStore, LayoutRegistry, MemStore};
/// use rowkey::RowKey;
///
/// #[derive(RowKey)] struct Reading { device: u32, metric: u16 }
/// #[derive(RowKey)] #[rowkey(index_of = Reading)] struct ByMetric { metric: u16, device: u32 }
///
/// # futures::executor::block_on(async {
/// let registry = LayoutRegistry::new(MemStore::new());
/// let stores = IndexedStore::new(MemStore::new(), MemStore::new());
/// let readings = CheckedIndexedStore::<_, _, Reading, ByMetric>::open(stores, registry.clone(), "readings", "readings_by_metric").await?;
/// readings.put_indexed(&Reading { device: 1, metric: 5 }, vec![Cell::new("d", "v", "21.5")]).await?;
/// assert!(registry.recorded("readings_by_metric").await?.is_some());
/// # Ok::<(), rowkey::store::StoreError>(())
/// # }).unwrap();
/// ```
pub struct CheckedIndexedStore<S, I, K, X, M = S> {
    stores: IndexedStore<S, I>,
    registry: LayoutRegistry<M>,
    tables: Arc<(String, String)>,
    recorded: Arc<AtomicBool>,
    keys: PhantomData<fn() -> (K, X)>,
}

impl<S, I, K, X, M> core::fmt::Debug for CheckedIndexedStore<S, I, K, X, M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CheckedIndexedStore")
            .field("main_table", &self.tables.0)
            .field("index_table", &self.tables.1)
            .finish_non_exhaustive()
    }
}

impl<S: Store, I: Store, K: RowKey, X: IndexOf<K>, M: Store> CheckedIndexedStore<S, I, K, X, M> {
    /// Opens the main table `main_table` and the index table
    /// `index_table` (their names in the registry):
    /// [`StoreError::LayoutMismatch`] for the first whose recorded layout
    /// does not read as its key's, before anything is read or written.
    pub async fn open(
        stores: IndexedStore<S, I>,
        registry: LayoutRegistry<M>,
        main_table: &str,
        index_table: &str,
    ) -> Result<Self, StoreError> {
        let main = registry.check(main_table, K::layout()).await?;
        let index = registry.check(index_table, X::layout()).await?;
        Ok(CheckedIndexedStore {
            stores,
            registry,
            tables: Arc::new((main_table.into(), index_table.into())),
            recorded: Arc::new(AtomicBool::new(main && index)),
            keys: PhantomData,
        })
    }

    /// The tables, unchecked.
    pub fn stores(&self) -> &IndexedStore<S, I> {
        &self.stores
    }

    /// Writes the main row of `main` and its index row
    /// ([`IndexedStore::put_indexed`]), recording both layouts first if
    /// they were not.
    pub async fn put_indexed(&self, main: &K, cells: Vec<Cell>) -> Result<(), StoreError> {
        if !self.recorded.load(Ordering::Acquire) {
            let (main_table, index_table) = &*self.tables;
            self.registry
                .check_or_record(main_table, K::layout())
                .await?;
            self.registry
                .check_or_record(index_table, X::layout())
                .await?;
            self.recorded.store(true, Ordering::Release);
        }
        self.stores.put_indexed::<X, K>(main, cells).await
    }

    /// The main rows of the index rows `plan` selects
    /// ([`IndexedStore::query_index`]).
    pub fn query_index<const N: usize>(&self, plan: &ScanPlan<N>) -> IndexJoin<S, I> {
        self.stores.query_index(plan)
    }
}
