//! Apache Phoenix tables' definitions, read from Phoenix's own
//! `SYSTEM.CATALOG` (an HBase table of Phoenix rows) through any
//! [`Store`](rowkey_store::Store): a table's key columns, types, sort
//! orders and nullability, its salt buckets, column encoding and
//! qualifiers, storage scheme, and what makes writing its cells from
//! outside Phoenix unsafe (indexes, transactions, a view's `WHERE`).
//!
//! - [`PhoenixTable::read`]: a table's definition.
//! - [`PhoenixTable::key_struct`]: the `#[rowkey(phoenix)]` struct of its
//!   primary key, as Rust source, so nobody writes it by hand.
//! - [`PhoenixTable::check_key`]: a key struct checked against the
//!   definition, each difference naming the column and both sides.
//! - [`PhoenixTable::record_struct`] and [`PhoenixTable::check_record`]:
//!   the same for the `#[derive(Record)] #[record(phoenix)]` struct of
//!   the table's rows, each column at its qualifier.
//! - [`PhoenixTable::rows`]: the table's rows as checked records, whose
//!   writes are refused where Phoenix's own would differ.
//!
//! The catalog's layout (row keys, qualifiers, value types) is in
//! `testing/phoenix/notes/cells.md` §6.

mod catalog;
mod check;
mod describe;
mod record;
mod rows;

pub use catalog::{
    PhoenixCatalogError, PhoenixColumnDef, PhoenixTable, QualifierEncoding, StorageScheme,
    TableKind, SYSTEM_CATALOG,
};
pub use check::KeyMismatch;
pub use rows::{PhoenixRows, PhoenixWriteError};
