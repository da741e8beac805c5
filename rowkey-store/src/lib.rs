//! Stores that hold keyed rows: the async [`Store`] trait, what it reads
//! and writes ([`Row`], [`Cell`], [`ReadRequest`]), how a plan's ranges
//! are read and merged ([`QueryStream`], [`QueryOptions`]), retries
//! ([`RetryPolicy`]), the checks every store makes before sending
//! anything ([`KeyLimit`]), records stored as rows ([`Record`]), index
//! tables joined back to their main table ([`IndexedStore`]), and a
//! blocking facade ([`blocking`]).
//!
//! The `rowkey` crate re-exports this module as `rowkey::store`, with
//! `MemStore`, the embedded default; `rowkey-bigtable` implements
//! [`Store`] for Cloud Bigtable.
//!
//! ```
//! use futures::TryStreamExt;
//! use rowkey::store::{Cell, MemStore, Store};
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

pub mod blocking;
mod error;
mod index;
mod limits;
mod mem;
mod merge;
mod query;
mod record;
mod request;
mod retry;
mod row;

pub use error::{BoxError, StoreError};
pub use index::{
    IndexJoin, IndexStats, IndexedStore, Records, DEFAULT_JOIN_BATCH, INDEX_FAMILY, INDEX_QUALIFIER,
};
pub use limits::{KeyLimit, BIGTABLE_MAX_KEY_LEN};
pub use mem::MemStore;
pub use merge::{merge_sorted_stream, merge_sorted_stream_by_offset, MergeSortedStream};
pub use query::{QueryOptions, QueryStream};
pub use record::Record;
pub use request::{KeyRange, ReadRequest};
pub use retry::RetryPolicy;
pub use row::{Cell, Row};

use futures_core::Stream;
use rowkey_core::scan::{Cursor, Page, ScanPlan, ScanRange};
use rowkey_core::RowKey;
use std::future::Future;
use std::pin::Pin;

/// The rows of a read, in key order, each a `Result`. A stream ends after
/// its first error.
pub type RowStream = Pin<Box<dyn Stream<Item = Result<Row, StoreError>> + Send + 'static>>;

/// A sorted table of rows, read by key ranges as HBase and Bigtable are.
///
/// A store is a cheap handle (`Clone`, like a client): clones share the
/// same table, and streams own what they need (`'static`), so they can be
/// returned from functions and moved into tasks. Every future and stream
/// is `Send`, for tokio's multi-thread runtime; dropping one cancels it.
///
/// Implement the four raw operations (`key_limit`, `write_rows`,
/// `delete_rows`, `read_rows`); the typed ones (`put`, `get`, `delete`,
/// `scan`, `query`, `read_plan`, `page`) come with them. Every store
/// refuses empty keys, keys over its [`KeyLimit`] and rows without cells
/// before sending anything.
pub trait Store: Clone + Send + Sync + 'static {
    /// The longest key the store accepts, and whose limit that is.
    fn key_limit(&self) -> KeyLimit;

    /// Writes rows: each row's cells are set, replacing cells with the
    /// same family and qualifier.
    fn write_rows(&self, rows: Vec<Row>) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Deletes the rows with these keys, every cell of each; a key with
    /// no row is not an error (a delete is idempotent). Keys are checked
    /// as writes check them (empty, over the limit) before anything is
    /// sent.
    fn delete_rows(
        &self,
        keys: Vec<Vec<u8>>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The rows of `request`, in key order. A request with no ranges
    /// yields nothing and sends nothing.
    fn read_rows(&self, request: ReadRequest) -> RowStream;

    /// The row with exactly this key.
    fn read_row(&self, key: &[u8]) -> impl Future<Output = Result<Option<Row>, StoreError>> + Send {
        let rows = self
            .key_limit()
            .check("read row", key)
            .map(|()| self.read_rows(ReadRequest::row(key)));
        async move {
            let mut rows = rows?;
            let first = std::future::poll_fn(|cx| rows.as_mut().poll_next(cx)).await;
            first.transpose()
        }
    }

    /// Writes one row under a typed key.
    fn put<K: RowKey>(
        &self,
        key: &K,
        cells: Vec<Cell>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        let row = key.to_vec().map(|key| Row { key, cells });
        let store = self.clone();
        async move { store.write_rows(vec![row?]).await }
    }

    /// Deletes the row of a typed key, if there is one.
    fn delete<K: RowKey>(&self, key: &K) -> impl Future<Output = Result<(), StoreError>> + Send {
        let key = key.to_vec();
        let store = self.clone();
        async move { store.delete_rows(vec![key?]).await }
    }

    /// The row of a typed key (a point get).
    fn get<K: RowKey>(
        &self,
        key: &K,
    ) -> impl Future<Output = Result<Option<Row>, StoreError>> + Send {
        let key = key.to_vec();
        let store = self.clone();
        async move { store.read_row(&key?).await }
    }

    /// The rows of one range, in key order.
    fn scan<const N: usize>(&self, range: &ScanRange<N>) -> RowStream {
        self.read_rows(ReadRequest::range(range))
    }

    /// The rows of a plan in logical key order (the salt prefix ignored,
    /// so a salted key's buckets come back as one sorted sequence), cut at
    /// the plan's limit. Ranges are read concurrently and merged with
    /// bounded memory: see [`QueryOptions`] for the defaults.
    fn query<const N: usize>(&self, plan: &ScanPlan<N>) -> QueryStream<Self> {
        QueryStream::new(self.clone(), plan, QueryOptions::default())
    }

    /// [`query`](Self::query) with chosen concurrency and page size.
    fn query_with<const N: usize>(
        &self,
        plan: &ScanPlan<N>,
        options: QueryOptions,
    ) -> QueryStream<Self> {
        QueryStream::new(self.clone(), plan, options)
    }

    /// The rows of a plan in stored key order (bucket after bucket, not
    /// merged), in one multi-range read. Cheaper than
    /// [`query`](Self::query) when the order does not matter: one request
    /// instead of one per bucket.
    fn read_plan<const N: usize>(&self, plan: &ScanPlan<N>) -> RowStream {
        self.read_rows(ReadRequest::plan(plan))
    }

    /// One keyset page of a plan: up to `size` rows (at least 1) after
    /// `resume`, the previous page's [`Page::next`]. A plan's own limit
    /// caps the rows of all its pages together (the cursor counts them).
    ///
    /// A cursor the plan did not give out, or one changed on the way back
    /// (see [`Cursor`]), is [`StoreError::InvalidCursor`], before anything
    /// is read.
    ///
    /// Pages read what the table holds when each is read: there is no
    /// snapshot. A row written behind the cursor after its page was read
    /// is not in a later page, and neither is an indexed record that
    /// [`IndexedStore::update_record`] moves back past the cursor (its
    /// new index row sorts before it) while the pages run.
    fn page<const N: usize>(
        &self,
        plan: &ScanPlan<N>,
        resume: Option<&Cursor>,
        size: usize,
    ) -> impl Future<Output = Result<Page<Row>, StoreError>> + Send {
        let resumed = rowkey_core::scan::Resume::new(plan, resume, size);
        // One row more than the page tells whether another page follows.
        let mut rows = match &resumed {
            Ok(r) if r.want() > 0 => {
                Some(self.query(&r.plan().clone().with_limit(r.want().saturating_add(1))))
            }
            _ => None,
        };
        async move {
            let resumed = resumed?;
            let mut page = Vec::with_capacity(resumed.want().min(1024));
            let mut more = false;
            if let Some(rows) = rows.as_mut() {
                while let Some(row) =
                    std::future::poll_fn(|cx| Pin::new(&mut *rows).poll_next(cx)).await
                {
                    // The look-ahead row only tells that more follow: an
                    // error there is the next page's to report.
                    if page.len() == resumed.want() {
                        more = true;
                        break;
                    }
                    page.push(row?);
                }
            }
            Ok(resumed.page(page, more)?)
        }
    }
}
