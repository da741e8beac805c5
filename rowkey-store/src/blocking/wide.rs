//! Wide rows and cell queries, blocking: [`WideStoreExt`] and
//! [`CellQueryExt`] on a [`BlockingStore`], their streams as iterators
//! that pull a cell at a time (a page of cells held, as the streams do).

use super::{BlockOn, BlockingStore};
use crate::cell::CellValue;
use crate::{
    CellOrder, CellPage, CellQueryExt, CellSlice, Qualifier, Store, StoreError, WideColumn,
    WideStoreExt,
};
use futures_core::Stream;
use rowkey_core::scan::{CellCursor, ScanPlan};
use rowkey_core::{DecodeKeyOwned, RowKey};
use std::pin::Pin;

impl<S: Store, E: BlockOn> BlockingStore<S, E> {
    /// Writes cells of one row; see [`WideStoreExt::put_cells`].
    ///
    /// ```
    /// use rowkey::store::blocking::MemStore;
    /// use rowkey::store::WideColumn;
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Series { id: u32 }
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Second { s: u16 }
    /// const POINTS: WideColumn<Second, f64> = WideColumn::new("t");
    ///
    /// let store = MemStore::default();
    /// store.put_cells(&Series { id: 1 }, &POINTS, (0..100).map(|s| (Second { s }, 1.5)))?;
    /// let first: Vec<(Second, f64)> =
    ///     store.read_cells(&Series { id: 1 }, &POINTS, POINTS.all().per_row(2)).collect::<Result<_, _>>()?;
    /// assert_eq!(first, [(Second { s: 0 }, 1.5), (Second { s: 1 }, 1.5)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn put_cells<K: RowKey, Q: Qualifier, V: CellValue>(
        &self,
        key: &K,
        column: &WideColumn<Q, V>,
        cells: impl IntoIterator<Item = (Q, V)>,
    ) -> Result<(), StoreError> {
        self.executor
            .block_on("write cells", self.store.put_cells(key, column, cells))?
    }

    /// The cells of one row in `slice`, a cell at a time; see
    /// [`WideStoreExt::read_cells`].
    pub fn read_cells<K: RowKey, Q: Qualifier, V: CellValue>(
        &self,
        key: &K,
        column: &WideColumn<Q, V>,
        slice: CellSlice,
    ) -> Cells<'_, crate::WideCells<S, Q, V>, E> {
        Cells::new(self.store.read_cells(key, column, slice), &self.executor)
    }

    /// The last `n` cells of one row in `slice`; see
    /// [`WideStoreExt::last_cells`].
    pub fn last_cells<K: RowKey, Q: Qualifier + Send, V: CellValue + Send>(
        &self,
        key: &K,
        column: &WideColumn<Q, V>,
        slice: CellSlice,
        n: usize,
    ) -> Result<Vec<(Q, V)>, StoreError> {
        self.executor
            .block_on("read cells", self.store.last_cells(key, column, slice, n))?
    }

    /// Deletes the cells of one row in `slice`; see
    /// [`WideStoreExt::delete_cells`].
    pub fn delete_cells<K: RowKey, Q, V>(
        &self,
        key: &K,
        column: &WideColumn<Q, V>,
        slice: CellSlice,
    ) -> Result<u64, StoreError> {
        self.executor
            .block_on("delete cells", self.store.delete_cells(key, column, slice))?
    }

    /// The cells of a plan's rows merged in `order`, a cell at a time;
    /// see [`CellQueryExt::query_cells`].
    pub fn query_cells<K, Q, V, R, C, const N: usize>(
        &self,
        plan: &ScanPlan<N>,
        column: &WideColumn<Q, V>,
        slice: CellSlice,
        order: CellOrder<K, Q, R, C>,
    ) -> Cells<'_, crate::CellQuery<S, K, Q, V, R, C>, E>
    where
        K: DecodeKeyOwned + Clone + Send + 'static,
        Q: Qualifier + Send + 'static,
        V: CellValue + Send + 'static,
        R: Ord + Clone + Send + 'static,
        C: Ord + Clone + Send + Sync + 'static,
    {
        Cells::new(
            self.store.query_cells(plan, column, slice, order),
            &self.executor,
        )
    }

    /// A page of `n` cells of a cell query; see
    /// [`CellQueryExt::page_cells`].
    pub fn page_cells<K, Q, V, R, C, const N: usize>(
        &self,
        plan: &ScanPlan<N>,
        column: &WideColumn<Q, V>,
        slice: CellSlice,
        order: CellOrder<K, Q, R, C>,
        cursor: Option<&CellCursor>,
        n: usize,
    ) -> Result<CellPage<K, Q, V>, StoreError>
    where
        K: DecodeKeyOwned + Clone + Send + 'static,
        Q: Qualifier + Send + 'static,
        V: CellValue + Send + 'static,
        R: Ord + Clone + Send + 'static,
        C: Ord + Clone + Send + Sync + 'static,
    {
        self.executor.block_on(
            "query cells",
            self.store.page_cells(plan, column, slice, order, cursor, n),
        )?
    }
}

/// A stream of cells as an iterator, each item pulled on the calling
/// thread; it ends after its first error.
pub struct Cells<'a, St, E> {
    stream: Option<St>,
    executor: &'a E,
}

impl<'a, St, E> Cells<'a, St, E> {
    fn new(stream: St, executor: &'a E) -> Self {
        Cells {
            stream: Some(stream),
            executor,
        }
    }
}

impl<St, T, E> Iterator for Cells<'_, St, E>
where
    St: Stream<Item = Result<T, StoreError>> + Unpin,
    E: BlockOn,
{
    type Item = Result<T, StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        let stream = self.stream.as_mut()?;
        let next = self.executor.block_on(
            "read cells",
            std::future::poll_fn(|cx| Pin::new(&mut *stream).poll_next(cx)),
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

impl<St, E> std::fmt::Debug for Cells<'_, St, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cells")
            .field("finished", &self.stream.is_none())
            .finish()
    }
}
