//! [`Store`]: what a backend provides, and nothing more; the typed
//! operations built on it are [`StoreExt`](crate::StoreExt)'s.

use crate::{
    Columns, ConditionalWrite, KeyLimit, KeyRange, ParkedWalks, ReadModifyWrite, ReadRequest, Row,
    StoreError,
};
use futures_core::Stream;
use std::future::Future;
use std::pin::Pin;

/// The rows of a read, in key order, each a `Result`. A stream ends after
/// its first error.
pub type RowStream = Pin<Box<dyn Stream<Item = Result<Row, StoreError>> + Send + 'static>>;

/// A sorted table of rows, read by key ranges as HBase and Bigtable are:
/// the four operations a backend implements (and, optionally, a batched
/// point read of its own, [`read_keys`](Self::read_keys), where pages park
/// their walks, and the writes that depend on what a row holds).
///
/// Everything else (`put`, `get`, `delete`, `scan`, `query`, `read_plan`,
/// `page`, index tables) is built on these four by
/// [`StoreExt`](crate::StoreExt), which every store has through a blanket
/// impl: a backend cannot override the typed operations, so they behave
/// the same on every backend. `rowkey_fixtures::conformance::run`, in
/// the repository's unpublished `fixtures` crate, checks a backend
/// against the whole contract.
///
/// A store is a cheap handle (`Clone`, like a client): clones share the
/// same table, and streams own what they need (`'static`), so they can be
/// returned from functions and moved into tasks. Every future and stream
/// is `Send`, for tokio's multi-thread runtime.
///
/// **Cancellation.** Dropping a read stream cancels the read: nothing
/// more is fetched, and the store is usable as before. Dropping a write
/// or delete future before it completes leaves the rows written (or
/// deleted) as far as the backend got: each row is all or nothing, the
/// batch is not.
///
/// **Checks.** `write_rows`, `delete_rows` and `read_rows` refuse empty
/// keys and keys over [`key_limit`](Self::key_limit)
/// ([`KeyLimit::check`], [`KeyLimit::check_rows`]) and rows without cells
/// before sending anything.
///
/// `Store` is not object safe (its futures are `impl Future`, and it is
/// `Clone`): to pick a backend at run time, hold a
/// [`DynStore`](crate::DynStore).
pub trait Store: Clone + Send + Sync + 'static {
    /// The longest key the store accepts, and whose limit that is.
    fn key_limit(&self) -> KeyLimit;

    /// Writes rows: each row's columns to clear ([`Row::clear`]) are
    /// removed, then its cells are set, replacing cells with the same
    /// family and qualifier; the row's other cells stay as they are.
    fn write_rows(&self, rows: Vec<Row>) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Deletes the rows with these keys, every cell of each; a key with
    /// no row is not an error (a delete is idempotent). Keys are checked
    /// as writes check them (empty, over the limit) before anything is
    /// sent.
    fn delete_rows(
        &self,
        keys: Vec<Vec<u8>>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The rows of `request`, in key order (last key first for a
    /// [reversed](ReadRequest::reversed) request), only those matching its
    /// [fuzzy key](ReadRequest::with_fuzzy), at most its
    /// [limit](ReadRequest::limit). A request with no ranges yields
    /// nothing and sends nothing.
    fn read_rows(&self, request: ReadRequest) -> RowStream;

    /// The rows with these keys that exist, in key order, each once
    /// (keys may repeat and come in any order), with only `columns` when
    /// given (a row with none of them is left out): a batched point read,
    /// as index joins and [`get_many`](crate::StoreExt::get_many) send
    /// it. Keys are checked as [`read_rows`](Self::read_rows) checks its
    /// bounds (empty, over the limit) before anything is sent; no keys
    /// send nothing.
    ///
    /// The default is one [`read_rows`](Self::read_rows) of one-row
    /// ranges (one `ReadRows` with a row set of keys on Bigtable). A
    /// backend with a multi-get of its own overrides it (HBase's Thrift 1
    /// `getRowsWithColumns`: one call per batch, where a scan would open a
    /// scanner per key). Wrappers that change what is read (a filter, a
    /// prefix) override neither or both; [`DynStore`](crate::DynStore)
    /// forwards it.
    fn read_keys(&self, keys: Vec<Vec<u8>>, columns: Option<Columns>) -> RowStream {
        read_keys_by_ranges(self, keys, columns)
    }

    /// Where [`page`](crate::StoreExt::page) parks a walk's query between
    /// pages, so that the next page goes on with it rather than asking
    /// every range again (see [`ParkedWalks`]). `None`, the default: every
    /// page reads afresh.
    ///
    /// A store that returns one must move its [`WriteEpoch`](crate::WriteEpoch)
    /// around every write and delete it sends, by any path, so that no
    /// page goes on with rows read before a write of its client.
    ///
    /// A wrapper may forward its inner store's only if it reads exactly
    /// as the inner store does: walks are told apart by cursor and by
    /// store type, so two wrappers of one type that read differently (a
    /// prefix per tenant, a filter) would go on with each other's walks.
    fn parked_walks(&self) -> Option<&ParkedWalks> {
        None
    }

    /// Applies `write`'s edits for whether its check holds, as one step
    /// of the server that no other write of the row comes between, and
    /// says whether the check held.
    ///
    /// A store applies only what its backend applies atomically, and
    /// refuses the rest with [`StoreError::Unsupported`] before sending
    /// anything (never a read then a write). Not idempotent: once the
    /// request may have reached the server, a failure is
    /// [`StoreError::OutcomeUnknown`], never a retry. The key is checked
    /// as writes check it, and the write by
    /// [`ConditionalWrite::validate`].
    ///
    /// The default refuses every conditional write: a store of your own
    /// (a wrapper) keeps compiling, and forwards to its inner store to
    /// offer them.
    fn check_and_write(
        &self,
        write: ConditionalWrite,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        let _ = write;
        std::future::ready(Err(StoreError::Unsupported {
            op: "check and write",
            store: std::any::type_name::<Self>(),
            what: "apply a conditional write".into(),
            supported_by: None,
        }))
    }

    /// Applies `change`'s counters and appends to its row as one step of
    /// the server, and returns the new value of each cell changed (a row
    /// of just those cells). As for
    /// [`check_and_write`](Self::check_and_write): what the backend
    /// cannot do atomically is [`StoreError::Unsupported`], a failure
    /// after the request may have reached the server is
    /// [`StoreError::OutcomeUnknown`] (retried only where the server
    /// takes a nonce), and the default refuses.
    fn read_modify_write(
        &self,
        change: ReadModifyWrite,
    ) -> impl Future<Output = Result<Row, StoreError>> + Send {
        let _ = change;
        std::future::ready(Err(StoreError::Unsupported {
            op: "read-modify-write",
            store: std::any::type_name::<Self>(),
            what: "apply a read-modify-write".into(),
            supported_by: None,
        }))
    }
}

/// [`Store::read_keys`] as one [`read_rows`](Store::read_rows) of one-row
/// ranges: the default, and what a backend without a multi-get sends.
pub fn read_keys_by_ranges<S: Store>(
    store: &S,
    keys: Vec<Vec<u8>>,
    columns: Option<Columns>,
) -> RowStream {
    let limit = store.key_limit();
    if let Some(e) = keys.iter().find_map(|k| limit.check("read keys", k).err()) {
        return failed(e);
    }
    // No keys: a request with no ranges, which sends nothing.
    let mut request = ReadRequest::new(keys.iter().map(|k| KeyRange::row(k)));
    if let Some(columns) = columns {
        request = request.with_columns(columns);
    }
    store.read_rows(request)
}

/// A stream of one error: a read refused before anything is sent.
pub(crate) fn failed(error: StoreError) -> RowStream {
    struct Failed(Option<StoreError>);
    impl Stream for Failed {
        type Item = Result<Row, StoreError>;
        fn poll_next(
            mut self: Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Self::Item>> {
            std::task::Poll::Ready(self.0.take().map(Err))
        }
    }
    Box::pin(Failed(Some(error)))
}
