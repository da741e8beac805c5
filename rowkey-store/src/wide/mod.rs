//! Wide rows: a row holding a sequence of cells in one family, each
//! qualifier a small key of its own (OpenTSDB's `tsdb` table: one row
//! per series and hour, one cell per point, the qualifier holding the
//! point's offset). [`WideColumn`] names the family and the qualifier and
//! value types; [`WideStoreExt`] writes cells, reads a row's cells (all,
//! or a [`CellSlice`]) as a stream in qualifier order, fetched a bounded
//! page at a time, and deletes a slice.

mod error;
mod merge;
mod range_rows;
mod stream;

pub use error::{CellPart, WideCellError};
pub use merge::{CellOrder, CellPage, CellQuery, RowCell};
pub use stream::WideCells;

use crate::cell::CellValue;
use crate::{Cell, CellSlice, ReadRequest, Row, Store, StoreError};
use core::fmt;
use core::marker::PhantomData;
use futures_core::Stream;
use rowkey_core::layout::Thousands;
use rowkey_core::scan::{CellCursor, ScanPlan};
use rowkey_core::{DecodeError, DecodeKeyOwned, EncodeError, RowKey};
use std::future::Future;
use std::pin::Pin;

/// A column qualifier as a typed value: its bytes, and the value its
/// bytes hold. Every `#[derive(RowKey)]` type that decodes to an owned
/// value is one (its key bytes are the qualifier), so a qualifier has
/// the key's attributes, codecs and compile-time checks; a type of
/// several forms (OpenTSDB's second and millisecond qualifiers in one
/// row) implements it by hand.
///
/// `from_qualifier(to_qualifier(q))` must give back `q`, and the bytes
/// should sort as the qualifiers are meant to (a row's cells come in
/// byte order).
pub trait Qualifier: Sized {
    /// The qualifier's bytes.
    fn to_qualifier(&self) -> Result<Vec<u8>, EncodeError>;
    /// The qualifier `bytes` hold.
    fn from_qualifier(bytes: &[u8]) -> Result<Self, DecodeError>;
}

impl<T: RowKey + DecodeKeyOwned> Qualifier for T {
    fn to_qualifier(&self) -> Result<Vec<u8>, EncodeError> {
        self.to_vec()
    }
    fn from_qualifier(bytes: &[u8]) -> Result<Self, DecodeError> {
        T::decode(bytes)
    }
}

/// Cells a page of a wide row's read asks for, unless
/// [`WideColumn::page_cells`] says otherwise: a page is one request, and
/// what the client holds at once.
pub const DEFAULT_PAGE_CELLS: u32 = 4096;

/// The cells of a wide row's family: qualifiers of type `Q` (a
/// `#[derive(RowKey)]` type, its bytes the qualifier), values of type
/// `V` (a record cell's type: integers big-endian, floats, text, ...).
///
/// ```
/// use futures::TryStreamExt;
/// use rowkey::store::{MemStore, WideColumn, WideStoreExt};
/// use rowkey::RowKey;
///
/// /// One series' hour.
/// #[derive(RowKey)]
/// struct SeriesHour { metric: u32, hour: u32 }
///
/// /// A point's second within the hour: the qualifier.
/// #[derive(RowKey, Debug, PartialEq)]
/// struct Offset { second: u16 }
///
/// const POINTS: WideColumn<Offset, f64> = WideColumn::new("t");
///
/// futures::executor::block_on(async {
///     let store = MemStore::new();
///     let row = SeriesHour { metric: 7, hour: 490_000 };
///     let points = (0..3600u16).map(|s| (Offset { second: s }, f64::from(s) / 2.0));
///     store.put_cells(&row, &POINTS, points).await?;
///     // Seconds 10 to 12 of the hour: a slice the servers cut out.
///     let slice = POINTS.slice_of(&Offset::scan().second.range(10..=12)?)?;
///     let got: Vec<(Offset, f64)> = store.read_cells(&row, &POINTS, slice).try_collect().await?;
///     assert_eq!(got, [(Offset { second: 10 }, 5.0), (Offset { second: 11 }, 5.5), (Offset { second: 12 }, 6.0)]);
///     Ok::<(), Box<dyn std::error::Error>>(())
/// }).unwrap();
/// ```
pub struct WideColumn<Q, V> {
    family: &'static str,
    page_cells: u32,
    max_cells: Option<u64>,
    _types: PhantomData<fn() -> (Q, V)>,
}

impl<Q, V> WideColumn<Q, V> {
    /// The cells of `family`.
    pub const fn new(family: &'static str) -> Self {
        WideColumn {
            family,
            page_cells: DEFAULT_PAGE_CELLS,
            max_cells: None,
            _types: PhantomData,
        }
    }

    /// The same column, read `n` cells a request (at least 1): what a
    /// read of a row holds at once.
    pub const fn page_cells(mut self, n: u32) -> Self {
        self.page_cells = if n == 0 { 1 } else { n };
        self
    }

    /// The same column, refusing a write that would take a row past `n`
    /// cells, before anything is sent: HBase splits only between rows, so
    /// a row that grows without bound is a region that cannot split.
    pub const fn max_cells(mut self, n: u64) -> Self {
        self.max_cells = Some(n);
        self
    }

    /// The family.
    pub const fn family(&self) -> &'static str {
        self.family
    }

    /// The cells a read asks for a request.
    pub const fn cells_per_page(&self) -> u32 {
        self.page_cells
    }

    /// The cap on a row's cells, if any.
    pub const fn cell_cap(&self) -> Option<u64> {
        self.max_cells
    }

    /// Every cell of the family.
    pub fn all(&self) -> CellSlice {
        CellSlice::family(self.family)
    }
}

impl<Q, V> WideColumn<Q, V> {
    /// The cells whose qualifiers a plan selects (`Q::scan()`, or a plan
    /// over one form of a hand-written qualifier): a prefix, a range, an
    /// IN-list.
    ///
    /// # Errors
    /// [`StoreError::InvalidRequest`] for a plan that is not a slice
    /// (reversed, fuzzy, limited), saying how to ask for it.
    pub fn slice_of<const N: usize>(&self, plan: &ScanPlan<N>) -> Result<CellSlice, StoreError> {
        self.all()
            .plan(plan)
            .map_err(|why| StoreError::InvalidRequest {
                op: "slice a wide row",
                key: Vec::new(),
                why: why.into(),
            })
    }
}

impl<Q: RowKey, V> WideColumn<Q, V> {
    /// What a row of the column holds, for people: its family, its
    /// qualifier type and how many cells a row can hold under its layout
    /// ([`Layout::key_count`](rowkey_core::Layout::key_count)), its value
    /// type, the cells read a request and the cap.
    ///
    /// ```
    /// use rowkey::store::WideColumn;
    /// use rowkey::RowKey;
    /// #[derive(RowKey)]
    /// struct Second { s: u16 }
    /// let points: WideColumn<Second, f64> = WideColumn::new("t").max_cells(3600);
    /// assert_eq!(
    ///     points.describe(),
    ///     "family t: qualifiers Second (2 bytes; a row holds at most 65,536 cells), \
    ///      values f64, read 4,096 cells a request, capped at 3,600 cells a row"
    /// );
    /// ```
    pub fn describe(&self) -> String {
        let layout = Q::layout();
        let width = match layout.fixed_len {
            Some(n) => format!("{n} bytes"),
            None => format!("up to {} bytes", layout.max_len),
        };
        let most = match layout.key_count() {
            Some(n) => format!("a row holds at most {} cells", Thousands(n)),
            None => "the layout does not bound a row's cells".to_owned(),
        };
        let cap = match self.max_cells {
            Some(n) => format!(", capped at {} cells a row", Thousands(u128::from(n))),
            None => ", no cap".to_owned(),
        };
        let value = core::any::type_name::<V>();
        let value = value.rsplit("::").next().unwrap_or(value);
        format!(
            "family {}: qualifiers {} ({width}; {most}), values {value}, read {} cells a request{cap}",
            self.family,
            layout.name,
            Thousands(u128::from(self.page_cells)),
        )
    }
}

impl<Q: Qualifier, V> WideColumn<Q, V> {
    /// The cells with qualifiers from `start` (inclusive) to `stop`
    /// (exclusive).
    ///
    /// # Errors
    /// A bound that does not encode.
    pub fn between(&self, start: &Q, stop: &Q) -> Result<CellSlice, StoreError> {
        Ok(self
            .all()
            .between(start.to_qualifier()?, Some(stop.to_qualifier()?)))
    }
}

impl<Q: Qualifier, V: CellValue> WideColumn<Q, V> {
    /// The cell of `qualifier` holding `value`.
    ///
    /// # Errors
    /// A qualifier that does not encode.
    pub fn cell(&self, qualifier: &Q, value: &V) -> Result<Cell, StoreError> {
        Ok(Cell {
            family: self.family.to_owned(),
            qualifier: qualifier.to_qualifier()?,
            value: value.to_cell(),
        })
    }
}

impl<Q: Qualifier, V: CellValue> WideColumn<Q, V> {
    /// A cell read back: its qualifier and value, typed.
    ///
    /// # Errors
    /// [`StoreError::BadRecord`] naming the row, the cell and what did
    /// not decode.
    pub fn decode(&self, key: &[u8], cell: &Cell) -> Result<(Q, V), StoreError> {
        let bad = |part, source: crate::BoxError| StoreError::BadRecord {
            op: "read cells",
            key: key.to_vec(),
            source: Box::new(WideCellError {
                family: cell.family.clone(),
                qualifier: cell.qualifier.clone(),
                part,
                source,
            }),
        };
        let q =
            Q::from_qualifier(&cell.qualifier).map_err(|e| bad(CellPart::Qualifier, e.into()))?;
        let v = V::from_cell(&cell.value).map_err(|e| bad(CellPart::Value, e.into()))?;
        Ok((q, v))
    }
}

impl<Q, V> Clone for WideColumn<Q, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<Q, V> Copy for WideColumn<Q, V> {}

impl<Q, V> fmt::Debug for WideColumn<Q, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WideColumn")
            .field("family", &self.family)
            .field("qualifier", &core::any::type_name::<Q>())
            .field("value", &core::any::type_name::<V>())
            .field("page_cells", &self.page_cells)
            .field("max_cells", &self.max_cells)
            .finish()
    }
}

/// The operations of wide rows, on every [`Store`] (a blanket impl, as
/// [`StoreExt`](crate::StoreExt)): `use rowkey::store::WideStoreExt`.
pub trait WideStoreExt: Store {
    /// Writes cells of one row (a row's other cells stay), all in one
    /// write: a row is all or nothing. With a
    /// [cap](WideColumn::max_cells), the row's cells are counted first
    /// (at most cap + 1 read), and a write that would pass it is refused
    /// before anything is sent ([`StoreError::InvalidRequest`]); two
    /// writers racing may together pass it.
    fn put_cells<K: RowKey, Q: Qualifier, V: CellValue>(
        &self,
        key: &K,
        column: &WideColumn<Q, V>,
        cells: impl IntoIterator<Item = (Q, V)>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        let row = key.to_vec().map_err(StoreError::from).and_then(|key| {
            let cells = cells
                .into_iter()
                .map(|(q, v)| column.cell(&q, &v))
                .collect::<Result<Vec<Cell>, _>>()?;
            Ok(Row::new(key, cells))
        });
        let store = self.clone();
        let family = column.family;
        let cap = column.max_cells;
        async move {
            let row = row?;
            if let Some(cap) = cap {
                stream::check_cap(&store, &row, family, cap).await?;
            }
            store.write_rows(vec![row]).await
        }
    }

    /// The cells of one row in `slice`, typed, in qualifier order, read
    /// [`page_cells`](WideColumn::page_cells) a request: a row of
    /// millions of cells is never held whole. A row without the slice's
    /// cells (or no row) gives none. Dropping the stream cancels the read.
    fn read_cells<K: RowKey, Q: Qualifier, V: CellValue>(
        &self,
        key: &K,
        column: &WideColumn<Q, V>,
        slice: CellSlice,
    ) -> WideCells<Self, Q, V> {
        WideCells::new(self.clone(), key.to_vec(), *column, slice)
    }

    /// The last `n` cells of one row in `slice`, in qualifier order:
    /// HBase and Bigtable send a row's cells first to last only, so the
    /// slice is read forwards, a page at a time, keeping `n` (what the
    /// client holds: `n` cells and a page).
    fn last_cells<K: RowKey, Q: Qualifier + Send, V: CellValue + Send>(
        &self,
        key: &K,
        column: &WideColumn<Q, V>,
        slice: CellSlice,
        n: usize,
    ) -> impl Future<Output = Result<Vec<(Q, V)>, StoreError>> + Send {
        let cells = self.read_cells(key, column, slice);
        stream::keep_last(cells, n)
    }

    /// Deletes the cells of one row in `slice` and returns how many there
    /// were: their qualifiers are read a page at a time and each page's
    /// cells deleted in one write (HBase deletes named columns only).
    /// Idempotent: run again after a failure, it deletes what is left.
    fn delete_cells<K: RowKey, Q, V>(
        &self,
        key: &K,
        column: &WideColumn<Q, V>,
        slice: CellSlice,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send {
        let key = key.to_vec();
        let store = self.clone();
        let page = column.page_cells;
        async move { stream::delete_slice(&store, key?, slice, page).await }
    }
}

impl<S: Store> WideStoreExt for S {}

/// Cell queries: the cells of many rows merged in an order of the
/// caller's, and pages of them counted in cells. A trait of its own (with
/// a blanket impl on every [`Store`]) for its type parameters.
pub trait CellQueryExt: Store {
    /// The cells in `slice` of every row `plan` selects, typed, merged
    /// across the plan's ranges (salt buckets, IN-lists) in `order`: one
    /// series' points over many hours, or every bucket of a salted metric,
    /// by the points' time. What is held at once is a group of rows a
    /// range (the rows of one hour), never the whole query. A plan with a
    /// row limit is refused (take `n` of the stream, or pages of `n`).
    fn query_cells<K, Q, V, R, C, const N: usize>(
        &self,
        plan: &ScanPlan<N>,
        column: &WideColumn<Q, V>,
        slice: CellSlice,
        order: CellOrder<K, Q, R, C>,
    ) -> CellQuery<Self, K, Q, V, R, C>
    where
        K: DecodeKeyOwned + Clone + Send + 'static,
        Q: Qualifier + Send + 'static,
        V: CellValue + Send + 'static,
        R: Ord + Clone + Send + 'static,
        C: Ord + Clone + Send + Sync + 'static,
    {
        CellQuery::new(self.clone(), plan, *column, slice, order, None)
    }

    /// A page of at most `n` cells of [`query_cells`](Self::query_cells),
    /// from `cursor` (a page's `next`) or the start, and the cursor of the
    /// next page: pages end anywhere, inside a row too. A cursor of
    /// another query (plan, slice or direction), or one cut or changed,
    /// is [`StoreError::InvalidCursor`].
    fn page_cells<K, Q, V, R, C, const N: usize>(
        &self,
        plan: &ScanPlan<N>,
        column: &WideColumn<Q, V>,
        slice: CellSlice,
        order: CellOrder<K, Q, R, C>,
        cursor: Option<&CellCursor>,
        n: usize,
    ) -> impl Future<Output = Result<CellPage<K, Q, V>, StoreError>> + Send
    where
        K: DecodeKeyOwned + Clone + Send + 'static,
        Q: Qualifier + Send + 'static,
        V: CellValue + Send + 'static,
        R: Ord + Clone + Send + 'static,
        C: Ord + Clone + Send + Sync + 'static,
    {
        let query = CellQuery::new(self.clone(), plan, *column, slice, order, cursor);
        merge::page(query, n)
    }
}

impl<S: Store> CellQueryExt for S {}

/// The rows of a single-row read of `slice`, `page` cells at most.
pub(crate) fn page_request(key: &[u8], slice: CellSlice, page: u32) -> ReadRequest {
    ReadRequest::row(key).with_cells(slice.per_row(page))
}

/// A stream's next item, for the helpers that drain one.
pub(crate) async fn next<St: Stream + Unpin>(s: &mut St) -> Option<St::Item> {
    std::future::poll_fn(|cx| Pin::new(&mut *s).poll_next(cx)).await
}
