//! [`Record`]: a value stored as one row of a main table, which index
//! keys can be built from.

use crate::{Cell, Columns, RecordError, Row};
use rowkey_core::{EncodeError, RowKey};

/// A value stored as one main-table row: its key, its cells, and the way
/// back from the row.
///
/// A record usually has more fields than its key: a trade keyed by
/// seller, time and order also has a buyer. An index key can then be
/// built from the whole record rather than from the main key alone:
/// `#[rowkey(index_of = Trade)]` on a key struct copies each of its fields
/// from the record's field of the same name (or implement
/// [`IndexOf<Trade>`](rowkey_core::IndexOf) by hand). Such an index row can go
/// stale: when the buyer changes, the old index row still points at the
/// trade. [`IndexedStore`](crate::IndexedStore) therefore reads each
/// joined main row back as its record ([`from_row`](Self::from_row)) and
/// skips a hit whose record no longer indexes to it
/// ([`query_records`](crate::IndexedStore::query_records)), and
/// [`update_record`](crate::IndexedStore::update_record) moves an index
/// row in an order readers tolerate.
///
/// `from_row(&Row::new(key, cells))` must give back the record that
/// [`key`](Self::key) and [`cells`](Self::cells) came from.
///
/// **Derived.** `#[derive(Record)]` (`rowkey::Record`) writes the impl
/// for a domain struct: its fields named like the key's fields fill the
/// key (`#[record(key = SellerTrade)]`; a key field the struct lacks, or
/// of another type, is a compile error), every other field is a cell
/// (family from `#[record(family = "d")]` or `#[cell(family = "..")]`,
/// qualifier the field's name or `#[cell(qualifier = "..")]`,
/// `#[cell(skip)]` to leave one out), its value written as HBase's
/// `Bytes` writes it ([`cell`](crate::cell) has the forms,
/// `#[cell(with = C)]` a custom [`CellCodec`](crate::cell::CellCodec),
/// `#[cell(json)]` JSON; `#[record(key = K, phoenix)]` an Apache Phoenix
/// table's row, each column at its catalog's `#[cell(qualifier = 11)]` in
/// its Phoenix type's bytes, with Phoenix's empty column: `docs/phoenix.md`);
/// [`columns`](Self::columns) names the cells, so
/// record reads fetch only those; a row that does not read back is a
/// [`RecordError`](crate::RecordError) naming the record, the cell and
/// the row.
///
/// ```
/// use rowkey::store::{Cell, Record, Row};
/// use rowkey::{Record, RowKey};
///
/// #[derive(RowKey)]
/// struct SellerTrade { seller: u32, order: u64 }
///
/// #[derive(Record, Debug, PartialEq)]
/// #[record(key = SellerTrade, family = "d")]
/// struct Trade { seller: u32, order: u64, buyer: u32, #[cell(qualifier = "px")] price: f64 }
///
/// let t = Trade { seller: 1, order: 9, buyer: 7, price: 99.5 };
/// assert_eq!(t.cells(), [Cell::new("d", "buyer", 7u32.to_be_bytes()), Cell::new("d", "px", 99.5f64.to_be_bytes())]);
/// let row = Row::new(t.key().to_vec()?, t.cells());
/// assert_eq!(Trade::from_row(&row)?, t);
/// # Ok::<(), rowkey::store::BoxError>(())
/// ```
///
/// **By hand**, for what the derive cannot express (a cell computed from
/// several fields, a value in a form of another writer's, a key built
/// another way than field by field):
///
/// ```
/// use rowkey::store::{BoxError, Cell, RecordError, Record, Row};
/// use rowkey::{IndexOf, RowKey};
///
/// #[derive(RowKey)]
/// struct SellerTrade { seller: u32, order: u64 }
///
/// /// A trade: its key has no buyer, its cells do.
/// #[derive(Debug, PartialEq)]
/// struct Trade { seller: u32, order: u64, buyer: u32 }
///
/// /// The index by buyer, each field taken from the trade.
/// #[derive(RowKey, Debug, PartialEq)]
/// #[rowkey(index_of = Trade)]
/// struct BuyerTrade { buyer: u32, order: u64 }
///
/// impl Record for Trade {
///     type Key = SellerTrade;
///     fn key(&self) -> SellerTrade {
///         SellerTrade { seller: self.seller, order: self.order }
///     }
///     fn cells(&self) -> Vec<Cell> {
///         vec![Cell::new("d", "buyer", self.buyer.to_string())]
///     }
///     fn from_row(row: &Row) -> Result<Self, RecordError> {
///         let key: SellerTrade = row.key_as()?;
///         let buyer = row.value("d", "buyer").ok_or("no d:buyer cell")?;
///         let buyer = std::str::from_utf8(buyer)?.parse()?;
///         Ok(Trade { seller: key.seller, order: key.order, buyer })
///     }
/// }
///
/// let trade = Trade { seller: 1, order: 9, buyer: 7 };
/// assert_eq!(BuyerTrade::index_key(&trade), BuyerTrade { buyer: 7, order: 9 });
/// let row = Row::new(trade.key().to_vec()?, trade.cells());
/// assert_eq!(Trade::from_row(&row)?, trade);
/// # Ok::<(), BoxError>(())
/// ```
pub trait Record: Sized {
    /// The main table's key.
    type Key: RowKey;

    /// The key of the record's main row.
    fn key(&self) -> Self::Key;

    /// The bytes of the record's main key: `self.key().to_key()`. The
    /// derive writes them from the record's own fields without building
    /// the key, so a `String` key field is not cloned (within the
    /// hand-written encoder's instructions: BENCHMARKS.md, "Keys"); a key
    /// with a custom salt hash (`#[salt(hash = path)]`, which takes the
    /// whole key) is built first.
    #[inline]
    fn to_key(&self) -> Result<<Self::Key as RowKey>::Key, EncodeError> {
        self.key().to_key()
    }

    /// The cells of the record's main row (at least one: stores refuse
    /// rows without cells).
    fn cells(&self) -> Vec<Cell>;

    /// The cells, or why a value has no cell as the record's format
    /// stores it: what stores write. The default: [`cells`](Self::cells).
    /// A derived Phoenix record (`#[record(key = K, phoenix)]`) refuses a
    /// value Phoenix would read back as another (an empty `VARCHAR`, a
    /// `DECIMAL(p,s)` with more than `s` decimals), naming the field;
    /// its `cells` are then empty (a row written from them by hand,
    /// clearing the record's columns, would clear them all: write records
    /// through a store, which calls this).
    fn try_cells(&self) -> Result<Vec<Cell>, EncodeError> {
        Ok(self.cells())
    }

    /// The record a main row holds: the inverse of [`key`](Self::key) and
    /// [`cells`](Self::cells). An error here ends an index query with
    /// [`StoreError::BadRecord`](crate::StoreError::BadRecord) naming the
    /// row.
    // A concrete error that names the record, the cell and the row: large,
    // and on a cold path (it ends the read), so not boxed.
    #[allow(clippy::result_large_err)]
    fn from_row(row: &Row) -> Result<Self, RecordError>;

    /// The columns [`from_row`](Self::from_row) reads, which record reads
    /// ask for ([`ReadRequest::with_columns`](crate::ReadRequest::with_columns));
    /// `None` (the default): the whole row. A row holding other columns
    /// still reads into the record; a row holding none of these is not
    /// read at all (as if it were missing).
    ///
    /// They are also what a record write clears ([`Row::clear`]): the
    /// columns named here that [`cells`](Self::cells) has no cell for (an
    /// `Option` field now `None`) are removed from the stored row, so a
    /// record written over an older version reads back as itself. A record
    /// that names none (`None`) and leaves a cell out keeps the stored
    /// row's old cell: name the columns, or write a cell for every one.
    fn columns() -> Option<Columns> {
        None
    }
}

/// `record`'s main key as a `Vec`: written from its fields on the stack
/// and copied, as [`RowKey::to_vec`] does for keys short enough; longer
/// keys are built and written in place, so the stack stays small.
pub(crate) fn record_key_vec<R: Record>(record: &R) -> Result<Vec<u8>, EncodeError> {
    if rowkey_core::__private::encodes_on_stack::<R::Key>() {
        Ok(record.to_key()?.to_vec())
    } else {
        record.key().to_vec()
    }
}
