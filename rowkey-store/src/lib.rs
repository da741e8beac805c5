//! Stores that hold keyed rows, for [`rowkey`](https://docs.rs/rowkey)
//! keys; the `rowkey` crate re-exports this crate as `rowkey::store`.
//!
//! - [`Store`]: what a backend provides (its key limit, writes, deletes,
//!   reads of a [`ReadRequest`]); `rowkey-bigtable` implements it for
//!   Cloud Bigtable, [`MemStore`] (a sorted map with Bigtable's rules) is
//!   the embedded default.
//! - [`StoreExt`]: the typed operations every store has, built on those
//!   four: `put`, `get`, `delete`, `scan`, `query` (a plan's ranges read
//!   concurrently and merged in logical key order: [`QueryStream`],
//!   [`QueryOptions`]), `read_plan`, keyset `page`s.
//! - [`DynStore`]: any store behind one type, for a backend picked at run
//!   time.
//! - [`IndexedStore`]: a main table and an index table keyed another way,
//!   index hits joined back to main rows; [`Record`]s stored as rows, and
//!   loaded in bulk with their index rows
//!   ([`put_records`](IndexedStore::put_records), [`PutRecordsOptions`],
//!   [`PutRecordsProgress`]).
//! - [`IndexedTable`]: a table of records with any number of indexes,
//!   sparse ones ([`SparseIndexOf`](rowkey_core::SparseIndexOf)) included,
//!   all kept consistent by every write and bulk load.
//! - [`CheckedTable`], [`CheckedIndexedStore`] and [`LayoutRegistry`]:
//!   tables guarded by the layout their keys were written with, recorded
//!   in a registry table; a table of another layout is refused before a
//!   row is read or written, with the diff.
//! - [`Rekey`]: a table's rows moved to a new key layout, into a new
//!   table or in place, in batches with a checkpoint after each (a run
//!   stopped by a crash resumes), index tables rebuilt, a dry run and a
//!   verification.
//! - Writes that depend on what a row holds, applied by the server in
//!   one step: [`Store::check_and_write`] ([`ConditionalWrite`]) and
//!   [`Store::read_modify_write`] ([`ReadModifyWrite`]), typed in
//!   [`StoreExt`] as `put_if_absent`, `compare_and_set`, `increment` and
//!   `append`.
//! - Wide rows: [`WideColumn`] (typed qualifiers and values of one
//!   family) and [`WideStoreExt`]: a row's cells written, read as a stream
//!   a page at a time ([`WideCells`]), sliced ([`CellSlice`], filtered on
//!   the servers), deleted, capped.
//! - [`merge_sorted_stream`]: per-bucket async streams merged in logical
//!   key order, for clients that read buckets themselves.
//! - [`blocking`]: the same operations for code that is not async, as
//!   `reqwest::blocking` is for reqwest.
//! - [`cell`]: how `#[derive(Record)]` stores a field in a cell
//!   (HBase's `Bytes` forms) and the errors of reading one back;
//!   [`RecordError`] names the record, the cell and the row.
//! - What reads and writes carry and what can go wrong: [`Row`], [`Cell`],
//!   [`KeyRange`], [`Columns`], [`CellSlice`], [`KeyLimit`], [`RetryPolicy`], [`StoreError`].
//!
//! ```
//! use futures::TryStreamExt;
//! use rowkey::store::{Cell, MemStore, StoreExt};
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Op {
//!     uid: u64,
//!     #[desc_ts]
//!     at: i64,
//! }
//!
//! # futures::executor::block_on(async {
//! let store = MemStore::new();
//! for at in [10, 30, 20] {
//!     store.put(&Op { uid: 7, at }, vec![Cell::new("d", "kind", "login")]).await?;
//! }
//! // The newest first, because #[desc_ts] reverses the order.
//! let rows: Vec<_> = store.query(&Op::scan().uid.eq(7).plan()?).try_collect().await?;
//! let ats: Vec<i64> = rows.iter().map(|r| r.key_as::<Op>().unwrap().at).collect();
//! assert_eq!(ats, [30, 20, 10]);
//! # Ok::<(), rowkey::store::StoreError>(())
//! # }).unwrap();
//! ```

// Where rustdoc links this crate's items from other crates' pages when
// its own docs are not built beside them: `cargo doc --no-deps` documents
// the workspace's crates in no set order, and a link to a crate whose
// docs are not there yet would be left as text. .ci/doc-links.sh checks
// the version.
#![doc(html_root_url = "https://docs.rs/rowkey-store/0.1.0")]
#![warn(missing_docs)]

pub mod admin;
mod atomic;
pub mod blocking;
pub mod cell;
mod cell_slice;
mod clock;
mod columns;
mod dyn_store;
mod error;
mod ext;
mod get_many;
mod guard;
mod index;
mod limits;
mod mem;
mod merge;
mod page;
mod query;
mod record;
mod record_error;
mod rekey;
mod request;
mod retry;
mod row;
mod store;
mod walks;
mod wide;

pub use atomic::{
    counter_value, CellCheck, CellCondition, ConditionalWrite, DeletesFirst, ModifyRule,
    ReadModifyWrite, RowEdit,
};
pub use cell_slice::CellSlice;
pub use clock::WriteClock;
pub use columns::Columns;
pub use dyn_store::DynStore;
pub use error::{BoxError, StoreError};
pub use ext::StoreExt;
pub use get_many::GET_MANY_BATCH;
pub use guard::{
    CheckedIndexedStore, CheckedTable, LayoutRegistry, RecordedLayout, LAYOUT_FAMILY,
    LAYOUT_FINGERPRINT, LAYOUT_JSON,
};
pub use index::{
    IndexJoin, IndexStats, IndexedStore, IndexedTable, PutRecordsOptions, PutRecordsProgress,
    Records, DEFAULT_JOIN_BATCH, INDEX_FAMILY, INDEX_QUALIFIER,
};
pub use limits::{KeyLimit, BIGTABLE_MAX_KEY_LEN};
pub use mem::MemStore;
pub use merge::{merge_sorted_stream, merge_sorted_stream_by_offset, MergeSortedStream};
pub use query::{QueryOptions, QueryStream};
pub use record::Record;
pub use record_error::RecordError;
pub use rekey::{
    Checkpoint, FileCheckpoint, IndexedRekey, MemCheckpoint, RecordMapping, Rekey, RekeyCheckpoint,
    RekeyError, RekeyIndex, RekeyMapping, RekeyTables, RekeyVerification, TypedMapping,
    ValueMapping, DEFAULT_REKEY_BATCH, DEFAULT_VERIFY_EVERY,
};
pub use request::{KeyRange, ReadRequest};
pub use retry::RetryPolicy;
pub use row::{Cell, Row};
pub use store::{read_keys_by_ranges, RowStream, Store};
pub use walks::{ParkedWalks, WriteEpoch, WriteGuard};
pub use wide::{
    CellOrder, CellPage, CellPart, CellQuery, CellQueryExt, Qualifier, RowCell, WideCellError,
    WideCells, WideColumn, WideStoreExt, DEFAULT_PAGE_CELLS,
};

/// What `#[derive(Record)]` expands to calls; not a public API.
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
