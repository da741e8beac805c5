//! [`IndexedTable`]: a table of records with any number of indexes,
//! sparse ones included, kept consistent by every write.

use super::key_fn::{self, IndexKeyFn};
use super::write::{self, Target};
use super::DEFAULT_JOIN_BATCH;
use super::{load, lock, IndexJoin, PutRecordsOptions, PutRecordsProgress, Records};
use crate::{Record, Store, StoreError, StoreExt};
use futures_core::Stream;
use rowkey_core::scan::ScanPlan;
use rowkey_core::{Layout, RowKey, SparseIndexOf};
use std::fmt;
use std::pin::pin;
use std::task::{Context, Poll};
use std::time::Duration;

/// A main table of records `R` and its index tables, one per index key
/// type, each an [`IndexOf`](rowkey_core::IndexOf) (a row for every
/// record) or a [`SparseIndexOf`] (rows for some records only).
///
/// Every write keeps all of them consistent, in the write orders of
/// [`IndexedStore`](super::IndexedStore), applied to each index at once:
///
/// - [`put_record`](Self::put_record) writes the main row, then (once it
///   has landed) the record's row in each index that holds it, the index
///   tables together;
/// - [`update_record`](Self::update_record) reads the stored record, then
///   writes the rows of indexes whose key changed or that the record moves
///   into, then the main row, then deletes the rows the record left (a
///   key that changed, a sparse index it moves out of);
/// - [`delete_record`](Self::delete_record) deletes the main row, then
///   the record's index rows;
/// - [`put_records`](Self::put_records) and
///   [`put_record_stream`](Self::put_record_stream) load in batches: a
///   batch's main rows, then its rows of every index (one write per index
///   table, together).
///
/// So an index row is never trusted without its record: a query through
/// an index ([`query`](Self::query)) joins each hit to its main row and
/// keeps it only if the record still indexes to that hit, skipping (and
/// counting) stale and missing hits. A write cut short anywhere leaves
/// every record readable by its key and found through each index at most
/// once, as what it is or was; running the write again heals it.
///
/// Each index table holds one cell per row, `i:k` (family
/// [`INDEX_FAMILY`](crate::INDEX_FAMILY), qualifier
/// [`INDEX_QUALIFIER`](crate::INDEX_QUALIFIER)), the main row's key.
/// The tables are of one store type `I` (all Bigtable, all HBase, all
/// MemStore; [`DynStore`](crate::DynStore) mixes them).
///
/// ```
/// use futures::TryStreamExt;
/// use rowkey::store::{BoxError, Cell, RecordError, IndexedTable, MemStore, Record, Row};
/// use rowkey::{RowKey, SparseIndexOf};
///
/// #[derive(RowKey)]
/// struct MessageKey { channel: u32, at_ms: i64 }
///
/// #[derive(Debug, Clone, PartialEq)]
/// struct Message { channel: u32, at_ms: i64, sender: u32, thread: Option<i64> }
/// # impl Record for Message {
/// #     type Key = MessageKey;
/// #     fn key(&self) -> MessageKey { MessageKey { channel: self.channel, at_ms: self.at_ms } }
/// #     fn cells(&self) -> Vec<Cell> {
/// #         // An empty d:t for no thread: a write leaves the cells it does not name as they were.
/// #         let thread = self.thread.map_or(Vec::new(), |t| t.to_be_bytes().to_vec());
/// #         vec![Cell::new("d", "s", self.sender.to_be_bytes()), Cell::new("d", "t", thread)]
/// #     }
/// #     fn from_row(row: &Row) -> Result<Self, RecordError> {
/// #         let key: MessageKey = row.key_as()?;
/// #         let sender = u32::from_be_bytes(row.value("d", "s").ok_or("no d:s")?.try_into()?);
/// #         let t = row.value("d", "t").ok_or("no d:t")?;
/// #         let thread = (!t.is_empty()).then(|| t.try_into().map(i64::from_be_bytes)).transpose()?;
/// #         Ok(Message { channel: key.channel, at_ms: key.at_ms, sender, thread })
/// #     }
/// # }
///
/// /// Every message, by sender, newest first.
/// #[derive(RowKey)]
/// #[rowkey(index_of = Message)]
/// struct BySender { sender: u32, #[desc_ts] at_ms: i64, channel: u32 }
///
/// /// Replies only, by thread: top-level messages have no row.
/// #[derive(RowKey)]
/// struct ReplyByThread { channel: u32, thread: i64, at_ms: i64 }
/// impl SparseIndexOf<Message> for ReplyByThread {
///     fn sparse_index_key(m: &Message) -> Option<Self> {
///         Some(ReplyByThread { channel: m.channel, thread: m.thread?, at_ms: m.at_ms })
///     }
/// }
///
/// # futures::executor::block_on(async {
/// let messages = IndexedTable::new(MemStore::new())
///     .with_index::<BySender>(MemStore::new())
///     .with_index::<ReplyByThread>(MemStore::new());
/// let top = Message { channel: 1, at_ms: 10, sender: 7, thread: None };
/// let reply = Message { channel: 1, at_ms: 11, sender: 8, thread: Some(10) };
/// messages.put_records([top.clone(), reply.clone()]).await?;
/// assert_eq!(messages.index::<ReplyByThread>().unwrap().len(), 1, "no row for the top-level message");
///
/// // The reply becomes a top-level message by sender 7: it leaves the
/// // thread index and moves in the sender index.
/// let moved = Message { sender: 7, thread: None, ..reply };
/// messages.update_record(&moved).await?;
/// let by_seven: Vec<Message> = messages
///     .query::<BySender, _>(&BySender::scan().sender.eq(7).plan()?)
///     .try_collect()
///     .await?;
/// assert_eq!(by_seven, [moved.clone(), top]);
/// let plan = ReplyByThread::scan().channel.eq(1).thread.eq(10).plan()?;
/// let replies: Vec<Message> = messages.query::<ReplyByThread, _>(&plan).try_collect().await?;
/// assert!(replies.is_empty());
/// assert!(messages.index::<ReplyByThread>().unwrap().is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
pub struct IndexedTable<R, S, I = S> {
    main: S,
    indexes: Vec<Index<R, I>>,
    batch: usize,
    /// The lease of record locks, when updates and deletes take them.
    lease: Option<Duration>,
}

/// One index table: its store, how it keys records, and its key's layout
/// (which names it, and finds it for [`IndexedTable::query`]).
struct Index<R, I> {
    store: I,
    key: IndexKeyFn<R>,
    layout: &'static Layout,
    /// Whether a second record with one index key is refused.
    unique: bool,
}

impl<R, I: Clone> Clone for Index<R, I> {
    fn clone(&self) -> Self {
        Index {
            store: self.store.clone(),
            key: self.key,
            layout: self.layout,
            unique: self.unique,
        }
    }
}

impl<R, S: Clone, I: Clone> Clone for IndexedTable<R, S, I> {
    fn clone(&self) -> Self {
        IndexedTable {
            main: self.main.clone(),
            indexes: self.indexes.clone(),
            batch: self.batch,
            lease: self.lease,
        }
    }
}

/// The index tables by their key types' names.
struct IndexTables<'a, R, I>(&'a [Index<R, I>]);

impl<R, I: fmt::Debug> fmt::Debug for IndexTables<'_, R, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|i| (i.layout.name, &i.store)))
            .finish()
    }
}

/// The main table and the index tables, by their key types' names.
impl<R, S: fmt::Debug, I: fmt::Debug> fmt::Debug for IndexedTable<R, S, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IndexedTable")
            .field("main", &self.main)
            .field("indexes", &IndexTables(&self.indexes))
            .field("join_batch", &self.batch)
            .field("record_locks", &self.lease)
            .finish()
    }
}

impl<R: Record, S: Store, I: Store> IndexedTable<R, S, I> {
    /// The main table `main`, with no index yet.
    pub fn new(main: S) -> Self {
        IndexedTable {
            main,
            indexes: Vec::new(),
            batch: DEFAULT_JOIN_BATCH,
            lease: None,
        }
    }

    /// Makes [`update_record`](Self::update_record) and
    /// [`delete_record`](Self::delete_record) safe against concurrent
    /// writers of the same record: each takes the record's lock, a cell
    /// of its main row set with a conditional write
    /// ([`Store::check_and_write`]), for the read, the writes and the
    /// deletes, so that after any interleaving of them the index rows are
    /// exactly those of the record that is there. A lock is held for at
    /// most `lease`: one left by a crashed writer is taken over once it
    /// has expired (by the clocks of the writers, which must agree to
    /// well within it).
    ///
    /// Opt-in, since it writes a cell the table did not have: the lock is
    /// cell `\x00rowkey.lock` of the family of the record's first cell,
    /// cleared on release (on HBase's Thrift 1 gateway, which clears
    /// nothing conditionally, set empty instead: a record that names its
    /// columns never reads it). `put_record` and bulk loads take no lock:
    /// they are for new records.
    ///
    /// Under locks, `delete_record` deletes the index rows of the record
    /// as stored (and of the one given) before its main row: a reader in
    /// between finds the record by its key but not through the indexes.
    ///
    /// ```
    /// use rowkey::store::{IndexedTable, MemStore};
    /// # use rowkey::store::{Cell, Record, RecordError, Row};
    /// # #[derive(rowkey::RowKey)] struct K { id: u32 }
    /// # #[derive(Clone)] struct Doc { id: u32, owner: u32 }
    /// # impl Record for Doc {
    /// #     type Key = K;
    /// #     fn key(&self) -> K { K { id: self.id } }
    /// #     fn cells(&self) -> Vec<Cell> { vec![Cell::new("d", "o", self.owner.to_be_bytes())] }
    /// #     fn from_row(row: &Row) -> Result<Self, RecordError> {
    /// #         let o = row.value("d", "o").ok_or("no d:o")?.try_into().map_err(RecordError::other)?;
    /// #         Ok(Doc { id: row.key_as::<K>()?.id, owner: u32::from_be_bytes(o) })
    /// #     }
    /// # }
    /// #[derive(rowkey::RowKey)]
    /// #[rowkey(index_of = Doc)]
    /// struct ByOwner { owner: u32, id: u32 }
    ///
    /// # futures::executor::block_on(async {
    /// let docs = IndexedTable::new(MemStore::new())
    ///     .with_index::<ByOwner>(MemStore::new())
    ///     .with_record_locks(std::time::Duration::from_secs(30));
    /// let (a, b) = (Doc { id: 1, owner: 7 }, Doc { id: 1, owner: 8 });
    /// let (x, y) = futures::future::join(docs.update_record(&a), docs.update_record(&b)).await;
    /// x?; y?;
    /// assert_eq!(docs.index::<ByOwner>().unwrap().len(), 1, "only the winner's index row");
    /// # Ok::<(), rowkey::store::StoreError>(())
    /// # }).unwrap();
    /// ```
    pub fn with_record_locks(mut self, lease: Duration) -> Self {
        self.lease = Some(lease);
        self
    }

    /// Adds the index keyed by `X`, held in `table` (give each index its
    /// own table). Adding `X` again (or a key type of the same name and
    /// layout) replaces its table.
    pub fn with_index<X: SparseIndexOf<R>>(self, table: I) -> Self {
        self.add_index::<X>(table, false)
    }

    /// Adds the index keyed by `X` as [`with_index`](Self::with_index)
    /// does, as a unique index: a record whose key in it is another
    /// record's is refused ([`StoreError::DuplicateIndexKey`], both
    /// records' main keys named) before anything of it is written.
    ///
    /// Each index row is claimed with a conditional write (set where
    /// absent; a row whose record no longer indexes to it is taken over,
    /// one whose record is not stored holds its key until that record is
    /// put again or deleted) and deleted only while it still points at
    /// its record. Bulk loads (`put_records`) refuse a table with a
    /// unique index ([`StoreError::Unsupported`]): its rows are claimed
    /// one by one, by `put_record`. HBase's Thrift 1 gateway cannot
    /// delete conditionally, so there a write that removes a unique
    /// index row is refused with its `Unsupported`.
    ///
    /// ```
    /// use rowkey::store::{IndexedTable, MemStore, StoreError, StoreExt};
    /// # use rowkey::store::{Cell, Record, RecordError, Row};
    /// # #[derive(rowkey::RowKey)] struct K { id: u32 }
    /// # #[derive(Clone)] struct User { id: u32, email: String }
    /// # impl Record for User {
    /// #     type Key = K;
    /// #     fn key(&self) -> K { K { id: self.id } }
    /// #     fn cells(&self) -> Vec<Cell> { vec![Cell::new("d", "e", &self.email)] }
    /// #     fn from_row(row: &Row) -> Result<Self, RecordError> {
    /// #         let e = String::from_utf8(row.value("d", "e").ok_or("no d:e")?.to_vec())?;
    /// #         Ok(User { id: row.key_as::<K>()?.id, email: e })
    /// #     }
    /// # }
    /// #[derive(rowkey::RowKey)]
    /// struct ByEmail { #[max_len(254)] email: String }
    /// impl rowkey::IndexOf<User> for ByEmail {
    ///     fn index_key(u: &User) -> Self { ByEmail { email: u.email.clone() } }
    /// }
    ///
    /// # futures::executor::block_on(async {
    /// let users = IndexedTable::new(MemStore::new()).with_unique_index::<ByEmail>(MemStore::new());
    /// users.put_record(&User { id: 1, email: "ada@example.com".into() }).await?;
    /// let e = users.put_record(&User { id: 2, email: "ada@example.com".into() }).await.unwrap_err();
    /// assert!(matches!(e, StoreError::DuplicateIndexKey { .. }), "{e}");
    /// assert!(users.main().get_record::<User>(&K { id: 2 }).await?.is_none(), "nothing written");
    /// # Ok::<(), StoreError>(())
    /// # }).unwrap();
    /// ```
    pub fn with_unique_index<X: SparseIndexOf<R>>(self, table: I) -> Self {
        self.add_index::<X>(table, true)
    }

    fn add_index<X: SparseIndexOf<R>>(mut self, table: I, unique: bool) -> Self {
        let index = Index {
            store: table,
            key: key_fn::index_key_fn::<X, R>(),
            layout: X::layout(),
            unique,
        };
        match self.position::<X>() {
            Some(at) => self.indexes[at] = index,
            None => self.indexes.push(index),
        }
        self
    }

    /// Joins index hits `n` main keys per read (0 is taken as 1; the
    /// default is [`DEFAULT_JOIN_BATCH`]).
    pub fn join_batch(mut self, n: usize) -> Self {
        self.batch = n.max(1);
        self
    }

    /// The main table.
    pub fn main(&self) -> &S {
        &self.main
    }

    /// The table of the index keyed by `X`, if this table has that index.
    pub fn index<X: RowKey>(&self) -> Option<&I> {
        self.position::<X>().map(|at| &self.indexes[at].store)
    }

    /// The names of the indexes' key types, in the order they were added.
    pub fn index_names(&self) -> impl ExactSizeIterator<Item = &'static str> + '_ {
        self.indexes.iter().map(|i| i.layout.name)
    }

    /// Each index's table, how it keys records, and its key's layout, in
    /// the order they were added (for re-keys).
    pub(crate) fn index_parts(
        &self,
    ) -> impl Iterator<Item = (&I, key_fn::IndexKeyFn<R>, &'static Layout)> + '_ {
        self.indexes.iter().map(|i| (&i.store, i.key, i.layout))
    }

    /// Where the index keyed by `X` is. Indexes are told apart by their
    /// key's layout, compared by value (its name and every field), not by
    /// address: a layout is a constant, which need not have one address in
    /// every crate and codegen unit that asks for it.
    fn position<X: RowKey>(&self) -> Option<usize> {
        let layout = X::layout();
        self.indexes.iter().position(|i| i.layout == layout)
    }

    fn targets(&self) -> Vec<Target<'_, R, I>> {
        self.indexes
            .iter()
            .map(|i| Target {
                store: &i.store,
                key: i.key,
                unique: i.unique.then_some(i.layout.name),
            })
            .collect()
    }

    /// The record stored under `key`, read with only its columns; `None`
    /// if there is none ([`StoreExt::get_record`]).
    pub async fn get_record(&self, key: &R::Key) -> Result<Option<R>, StoreError> {
        self.main.get_record::<R>(key).await
    }

    /// Writes `record`'s main row, then its row in every index that holds
    /// it, the index tables together. Every key is encoded and checked
    /// against its table's limit before anything is written.
    ///
    /// For a new record, or one whose index keys did not change: a record
    /// put again with another index key leaves its old index rows behind,
    /// stale ([`query`](Self::query) skips them); use
    /// [`update_record`](Self::update_record) for records already stored.
    pub async fn put_record(&self, record: &R) -> Result<(), StoreError> {
        write::put_record(&self.main, &self.targets(), record).await
    }

    /// Writes `record` over the one stored under its key, moving each
    /// index row whose key changed, adding the rows of sparse indexes it
    /// moves into and deleting those of indexes it moves out of. Reads
    /// the stored record first (one point read), then writes (1) the new
    /// index rows of moved and entered indexes, (2) the main row, (3) the
    /// unchanged index rows again, and deletes the old rows.
    ///
    /// At each step each index finds the record under at most one key:
    /// stopped after (1), as it was (the new rows are stale: they lead to
    /// a record that does not index to them); after (2), as it is (the old
    /// rows are stale). Run it again to finish; stopped after (2), the old
    /// rows are no longer known and stay behind, skipped and counted by
    /// readers. Without a stored record it is
    /// [`put_record`](Self::put_record). A stored row that does not read
    /// back as a record is an error ([`StoreError::BadRecord`]) and
    /// nothing is written.
    pub async fn update_record(&self, record: &R) -> Result<(), StoreError> {
        match self.lease {
            Some(lease) => lock::update_record(&self.main, &self.targets(), record, lease).await,
            None => write::update_record(&self.main, &self.targets(), record).await,
        }
    }

    /// Deletes `record`'s main row, then its row in every index that holds
    /// it. Pass the record as stored: the index rows of another version
    /// are not found. Stopped in between, the index rows lead nowhere
    /// (readers skip and count them as missing); deleting again removes
    /// them.
    pub async fn delete_record(&self, record: &R) -> Result<(), StoreError> {
        match self.lease {
            Some(lease) => lock::delete_record(&self.main, &self.targets(), record, lease).await,
            None => write::delete_record(&self.main, &self.targets(), record).await,
        }
    }

    /// Writes many records and their index rows in batches, with the
    /// default [`PutRecordsOptions`]; see
    /// [`put_record_stream`](Self::put_record_stream).
    pub async fn put_records(
        &self,
        records: impl IntoIterator<Item = R>,
    ) -> Result<PutRecordsProgress, StoreError> {
        self.put_records_with(records, PutRecordsOptions::default(), |_| {})
            .await
    }

    /// [`put_records`](Self::put_records) with chosen batching, calling
    /// `progress` after each write that lands.
    pub async fn put_records_with(
        &self,
        records: impl IntoIterator<Item = R>,
        options: PutRecordsOptions,
        progress: impl FnMut(PutRecordsProgress),
    ) -> Result<PutRecordsProgress, StoreError> {
        let mut records = records.into_iter();
        let next = |_: &mut Context<'_>| Poll::Ready(records.next());
        load::run(&self.main, &self.targets(), next, options, progress).await
    }

    /// Writes the records of a stream and their rows in every index, in
    /// batches: each batch's main rows, then (once they have landed) its
    /// rows of each index, one write per index table, together. A batch
    /// commits when all have landed. Otherwise as
    /// [`IndexedStore::put_record_stream`](super::IndexedStore::put_record_stream):
    /// the tables end as `put_record` of each record in turn would leave
    /// them (no batch in flight shares a main or index key with another),
    /// a failed or dropped load leaves no index row pointing at nothing
    /// and can be run again, memory stays bounded, and `progress` is
    /// called after each write that lands (`rows` counts main and index
    /// rows).
    pub async fn put_record_stream(
        &self,
        records: impl Stream<Item = R>,
        options: PutRecordsOptions,
        progress: impl FnMut(PutRecordsProgress),
    ) -> Result<PutRecordsProgress, StoreError> {
        let mut records = pin!(records);
        let next = |cx: &mut Context<'_>| records.as_mut().poll_next(cx);
        load::run(&self.main, &self.targets(), next, options, progress).await
    }

    /// The records of the rows `plan` selects in the index keyed by `X`,
    /// in index order, each read from the main table and kept only if it
    /// still indexes to the hit: stale and missing hits are skipped and
    /// counted ([`Records::stats`]). The plan's limit caps the index rows
    /// read. Through an index this table was not given, the stream yields
    /// [`StoreError::NoSuchIndex`].
    pub fn query<X, const N: usize>(&self, plan: &ScanPlan<N>) -> Records<S, I, R>
    where
        X: SparseIndexOf<R>,
    {
        let key = key_fn::index_key_fn::<X, R>();
        match self.index::<X>() {
            Some(index) => {
                let hits = index.query(plan);
                let join = IndexJoin::new(self.main.clone(), hits, self.batch);
                Records::new(join.with_columns(R::columns()), key)
            }
            None => Records::failed(
                StoreError::NoSuchIndex {
                    index: X::layout().name,
                },
                key,
            ),
        }
    }
}
