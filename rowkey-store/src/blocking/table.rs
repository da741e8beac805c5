//! [`BlockingIndexedTable`]: an [`IndexedTable`] with blocking methods, as
//! [`BlockingIndexedStore`](super::BlockingIndexedStore) is for an
//! [`IndexedStore`](crate::IndexedStore).

use super::{BlockOn, BlockingStore, RecordRows};
use crate::{IndexedTable, PutRecordsOptions, PutRecordsProgress, Record, Store, StoreError};
use rowkey_core::scan::ScanPlan;
use rowkey_core::SparseIndexOf;

/// An [`IndexedTable`] whose operations block the calling thread; write
/// orders and what readers see are [`IndexedTable`]'s.
///
/// ```
/// use rowkey::store::blocking::{BlockingIndexedTable, ParkingExecutor};
/// use rowkey::store::{BoxError, Cell, RecordError, IndexedTable, MemStore, Record, Row};
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct OrderKey { id: u64 }
///
/// #[derive(Debug, PartialEq)]
/// struct Order { id: u64, buyer: u32 }
/// # impl Record for Order {
/// #     type Key = OrderKey;
/// #     fn key(&self) -> OrderKey { OrderKey { id: self.id } }
/// #     fn cells(&self) -> Vec<Cell> { vec![Cell::new("d", "b", self.buyer.to_be_bytes())] }
/// #     fn from_row(row: &Row) -> Result<Self, RecordError> {
/// #         let buyer = u32::from_be_bytes(row.value("d", "b").ok_or("no d:b")?.try_into()?);
/// #         Ok(Order { id: row.key_as::<OrderKey>()?.id, buyer })
/// #     }
/// # }
///
/// #[derive(RowKey)]
/// #[rowkey(index_of = Order)]
/// struct ByBuyer { buyer: u32, id: u64 }
///
/// let table = IndexedTable::new(MemStore::new()).with_index::<ByBuyer>(MemStore::new());
/// let orders: BlockingIndexedTable<Order, MemStore, MemStore, ParkingExecutor> = BlockingIndexedTable::new(table);
/// orders.put_records((0..10).map(|id| Order { id, buyer: (id % 3) as u32 }))?;
/// orders.update_record(&Order { id: 0, buyer: 2 })?;
/// let two: Vec<u64> = orders
///     .query::<ByBuyer, _>(&ByBuyer::scan().buyer.eq(2).plan()?)
///     .map(|o| o.map(|o| o.id))
///     .collect::<Result<_, _>>()?;
/// assert_eq!(two, [0, 2, 5, 8]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct BlockingIndexedTable<R, S, I, E> {
    table: IndexedTable<R, S, I>,
    executor: E,
}

impl<R: Record, S: Store, I: Store, E: BlockOn> BlockingIndexedTable<R, S, I, E> {
    /// `table`, driven by a new executor.
    pub fn new(table: IndexedTable<R, S, I>) -> Self
    where
        E: Default,
    {
        Self::with_executor(table, E::default())
    }

    /// `table`, driven by `executor` (for Bigtable or HBase, the runtime
    /// its clients were connected on).
    pub fn with_executor(table: IndexedTable<R, S, I>, executor: E) -> Self {
        BlockingIndexedTable { table, executor }
    }

    /// The async table underneath.
    pub fn get_ref(&self) -> &IndexedTable<R, S, I> {
        &self.table
    }

    /// The main table, blocking, on this table's executor.
    pub fn main(&self) -> BlockingStore<S, &E> {
        BlockingStore::with_executor(self.table.main().clone(), &self.executor)
    }

    /// The record stored under `key`; see [`IndexedTable::get_record`].
    pub fn get_record(&self, key: &R::Key) -> Result<Option<R>, StoreError> {
        self.executor
            .block_on("read a record", self.table.get_record(key))?
    }

    /// See [`IndexedTable::put_record`].
    pub fn put_record(&self, record: &R) -> Result<(), StoreError> {
        self.executor
            .block_on("write rows", self.table.put_record(record))?
    }

    /// See [`IndexedTable::update_record`].
    pub fn update_record(&self, record: &R) -> Result<(), StoreError> {
        self.executor
            .block_on("update a record", self.table.update_record(record))?
    }

    /// See [`IndexedTable::delete_record`].
    pub fn delete_record(&self, record: &R) -> Result<(), StoreError> {
        self.executor
            .block_on("delete rows", self.table.delete_record(record))?
    }

    /// See [`IndexedTable::put_records`].
    pub fn put_records(
        &self,
        records: impl IntoIterator<Item = R>,
    ) -> Result<PutRecordsProgress, StoreError> {
        self.executor
            .block_on("write rows", self.table.put_records(records))?
    }

    /// See [`IndexedTable::put_records_with`].
    pub fn put_records_with(
        &self,
        records: impl IntoIterator<Item = R>,
        options: PutRecordsOptions,
        progress: impl FnMut(PutRecordsProgress),
    ) -> Result<PutRecordsProgress, StoreError> {
        let put = self.table.put_records_with(records, options, progress);
        self.executor.block_on("write rows", put)?
    }

    /// The records of a query through the index keyed by `X`, one at a
    /// time; see [`IndexedTable::query`].
    pub fn query<X, const N: usize>(&self, plan: &ScanPlan<N>) -> RecordRows<'_, S, I, R, E>
    where
        X: SparseIndexOf<R>,
    {
        RecordRows::new(self.table.query::<X, N>(plan), &self.executor)
    }
}
