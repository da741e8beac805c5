//! [`HBaseStore`]: a table of HBase, natively or through its Thrift 1
//! server, as an async [`Store`].

use crate::client::{HBaseClient, Transport};
use crate::gateway::read::read;
use crate::gateway::write::{delete, write, WriteOptions};
use crate::gateway::Target;
use crate::native::write::NativeWriter;
use rowkey_store::{
    Columns, ConditionalWrite, KeyLimit, ParkedWalks, ReadModifyWrite, ReadRequest, RetryPolicy,
    Row, RowEdit, RowStream, Store, StoreError,
};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// A table of HBase, read and written natively (HBase's own RPC, from
/// an [`HBaseClient`] connected to `zk://...` or `hbase://...`) or
/// through HBase's Thrift 1 server (`host:port`). Both keep the
/// [`Store`] contract; how each gets there, and what only the native one
/// does, is in `docs/stores.md` ("Which transport").
///
/// # Natively
///
/// - **Reads** go straight to each region's server, a scanner per region,
///   at most [`with_read_page_rows`](Self::with_read_page_rows) rows a
///   round trip; a multi-range plan is one scan with a
///   `MultiRowRangeFilter`, a fuzzy plan a `FuzzyRowFilter` on the servers
///   (applied on the client for reversed reads: HBASE-28634). A scanner
///   lost to a move, a split, a lease or a dead server reopens after the
///   last row delivered, wherever the region went; a row outside the
///   range asked for is an error, never a result.
/// - **Writes** go as one `Multi` per region server; a row's clears and
///   cells are one atomic `RowMutations`, stamped once (see below), and a
///   failed action is retried alone.
/// - **Conditional writes and read-modify-writes** are HBase's own
///   `checkAndMutate` (every condition; the `on_true` branch with any
///   edits, clears and deletes included; no else-branch), sent once, and
///   one increment or one append with a nonce, retried
///   only on the server process that may have run them: an operation that
///   may have been applied returns its exact effect or
///   [`StoreError::OutcomeUnknown`], never a second apply.
/// - **Faults.** Stale locations are looked up again in `hbase:meta` and
///   the call retried as the [`RetryPolicy`] says, by default long enough
///   to outlast a region server's failover
///   ([`failover_retry`](crate::failover_retry)); an
///   [operation timeout](Self::with_operation_timeout) caps any one
///   operation.
/// - **Stamped writes** and **pages** as over Thrift 1, below.
///
/// # Over Thrift 1
///
/// - **Reads** open one scanner per range and ask for as many rows a
///   round trip as the read still wants (at most
///   [`with_read_page_rows`](Self::with_read_page_rows)); a dropped
///   stream closes its scanner. Reversed reads, reads of a record's
///   columns and fuzzy plans work as on every store: the fuzzy key is
///   applied on the client (Thrift 1's filter language has no
///   `FuzzyRowFilter`), so a fuzzy plan reads its ranges' rows over the
///   wire. [`StoreExt`](rowkey_store::StoreExt)'s `query`, `read_plan`
///   and `page` merge multi-range plans as on every store.
/// - **Writes** go out as `mutateRows` calls of at most
///   [`WriteOptions::batch_rows`] rows and about
///   [`WriteOptions::batch_bytes`] bytes, a few at a time; rows with the
///   same key are merged first (the last row's cells win, as in
///   `MemStore`). Keys are checked against HBase's limit before anything
///   is sent: 32,767 bytes less what locating a row's region adds
///   ([`key_limit`](Store::key_limit)).
/// - **Clears.** A row that clears columns ([`Row::clear`](rowkey_store::Row::clear):
///   a record rewritten with fewer cells) is sent as column deletes beside
///   its puts. Thrift 1 applies the two one after the other, not
///   atomically: a reader in between, or a failure in between, sees the
///   new cells beside the old values of the cleared columns, until the
///   write is made again. The native transport, Bigtable and `MemStore`
///   apply a row's clears and cells at once, in order.
/// - **Stamped writes.** Every write and delete carries one timestamp,
///   set on the client before its first try from a clock that strictly
///   increases within the [`HBaseClient`] ([`WriteClock`](rowkey_store::WriteClock)):
///   a retried write is the same write, a copy the network delivers late
///   loses to every later write of the client, and a put after a delete
///   of the client is never hidden by it. Between clients, stamps order
///   writes as well as their clocks agree (see `docs/stores.md`).
/// - **Faults.** A call that fails on its connection (cut, refused,
///   silent for the [`RetryPolicy`]'s idle timeout) is made again on a
///   new one, as the policy says; every wait (connect, first call, each
///   call) is at most the idle timeout. A read resumes strictly after the
///   last row it delivered, also when the server forgot its scanner or
///   restarted; a scanner id is used only on the connection that opened
///   it, and a row outside the range asked for is an error, never a
///   result. A missing table or family is [`StoreError::NoSuchTable`] or
///   [`StoreError::NoSuchFamily`].
/// - **Conditional writes and read-modify-writes** go as Thrift 1's
///   atomic calls, each sent once (Thrift 1 takes no nonce; a failure
///   after the request may have left is [`StoreError::OutcomeUnknown`]):
///   `checkAndPut` sets one cell, at the server's time, when one cell is
///   absent (or empty: HBase reads an empty expected value so) or equal
///   to a value; `atomicIncrement` adds to one counter and returns it;
///   `append` appends to distinct cells of one row and returns their new
///   values. Anything else (less or greater, an else-branch, clears and
///   deletes, several cells set, several increments) is
///   [`StoreError::Unsupported`], naming the native HBase transport as
///   the one that can: it is never emulated with a read and a write.
///   A cell set by `checkAndPut` carries the server's time, not the
///   client's stamp: a cell last written by this client with a stamp
///   ahead of the server's clock (more than 1,000 writes a second, or a
///   clock ahead) hides it until the server's clock passes the stamp.
/// - **Pages** may go on with a scanner parked by the page before (up to
///   20 s, or [`ParkedWalks::set_max_staleness`]), which shows the table
///   as of when it opened: other clients' writes since may be missing.
///   This client's writes and table changes drop parked scanners.
///
/// It is a cheap handle: clones share the [`HBaseClient`]'s connections.
/// Its futures and streams are `Send` and need no particular runtime:
/// the native client runs on a runtime of its own, the blocking Thrift
/// calls on the pool's own threads.
///
/// ```no_run
/// use futures::TryStreamExt;
/// use rowkey::store::StoreExt;
/// use rowkey_hbase::HBaseStore;
/// # #[derive(rowkey::RowKey)] struct Spend { #[text(width = 6)] month: u32, user: u64 }
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// // Natively, through the cluster's ZooKeeper; `"127.0.0.1:9090"`
/// // would go through a Thrift 1 server instead.
/// let store = HBaseStore::connect("zk://zk1:2181/hbase", "spend").await?;
/// let plan = Spend::scan().month.eq(202112).plan()?;
/// let rows: Vec<_> = store.query(&plan).try_collect().await?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct HBaseStore {
    client: HBaseClient,
    backend: Backend,
    writes: WriteOptions,
    /// Pages' walks of this table (see `Store::parked_walks`).
    walks: Arc<ParkedWalks>,
}

impl std::fmt::Debug for HBaseStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HBaseStore")
            .field("address", &self.client.address())
            .field("table", &self.table_name())
            .field("retry", &self.retry())
            .field("writes", &self.writes)
            .finish_non_exhaustive()
    }
}

impl HBaseClient {
    /// The store of `table`. Nothing is sent: a missing table is an error
    /// of the first read or write ([`StoreError::NoSuchTable`]).
    pub fn table(&self, table: &str) -> HBaseStore {
        HBaseStore::new(self.clone(), table)
    }
}

impl HBaseStore {
    fn new(client: HBaseClient, table: &str) -> Self {
        let backend = match &client.transport {
            Transport::Thrift(thrift) => Backend::Thrift(Target {
                pool: thrift.pool.clone(),
                parked: thrift.parked.clone(),
                epoch: client.epoch.clone(),
                clock: client.clock.clone(),
                table: table.into(),
                retry: RetryPolicy::default(),
                page_rows: 1000,
            }),
            Transport::Native(native) => {
                let retry = crate::failover_retry(crate::DEFAULT_SESSION_TIMEOUT);
                Backend::Native(NativeTarget {
                    writer: NativeWriter {
                        client: native.with_policy(crate::native::policy(&retry, None)),
                        table: table.into(),
                        clock: client.clock.clone(),
                        epoch: client.epoch.clone(),
                    },
                    retry,
                    operation_timeout: None,
                    page_rows: 1000,
                })
            }
        };
        let walks = match backend {
            // Thrift reads are pool jobs that run to their end unpolled:
            // walks park with them open.
            Backend::Thrift(_) => ParkedWalks::with_open_reads(client.epoch.clone()),
            // Native reads are streams whose scanners hold a lease on a
            // region server: a walk parks with their rows, not them.
            Backend::Native(_) => ParkedWalks::new(client.epoch.clone()),
        };
        HBaseStore {
            backend,
            walks: Arc::new(walks),
            client,
            writes: WriteOptions::default(),
        }
    }

    /// Connects to HBase at `address` for `table`: natively for
    /// `zk://...` or `hbase://...`, through a Thrift 1 server for
    /// `host:port` ([`HBaseClient::connect`] says more), with connections
    /// of its own (to share them between tables, make the stores from one
    /// client).
    pub async fn connect(address: &str, table: &str) -> Result<Self, StoreError> {
        Ok(HBaseClient::connect(address).await?.table(table))
    }

    /// The same store with another retry policy for reads and writes (its
    /// idle timeout bounds how long a call waits on a silent server).
    ///
    /// The defaults differ by transport. Natively the store is HBase's
    /// client and retries as it does, long enough to outlast a region
    /// server's failover: [`failover_retry`](crate::failover_retry)`(`[`DEFAULT_SESSION_TIMEOUT`](crate::DEFAULT_SESSION_TIMEOUT)`)`
    /// (give yours the cluster's `zookeeper.session.timeout`, and bound a
    /// call with [`with_operation_timeout`](Self::with_operation_timeout)).
    /// Over Thrift 1, the Thrift server's own client rides out a failover
    /// (as its `hbase-site.xml` says) and the store's
    /// [`RetryPolicy::default`] retries the connection to it.
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        match &mut self.backend {
            Backend::Thrift(target) => target.retry = retry,
            Backend::Native(native) => {
                native.retry = retry;
                native.reset_policy();
            }
        }
        self
    }

    /// The same store with each operation given at most `timeout`, its
    /// retries and the pauses between them included: a read until its
    /// last row, a write until its last batch is written, an atomic call
    /// until it is answered. No retry starts past it and no call waits
    /// beyond it; an operation that has not finished fails with a
    /// non-transient [`StoreError::Backend`] whose source is
    /// [`hbase_native::Error::OperationTimedOut`] (an atomic call that may
    /// have been applied: [`StoreError::OutcomeUnknown`]). By default
    /// there is none: the [`RetryPolicy`] alone bounds an operation.
    ///
    /// Natively only: over Thrift 1 a call runs to its end on the pool's
    /// threads, bounded by the policy's idle timeout and attempts, and
    /// this is not applied ([`operation_timeout`](Self::operation_timeout)
    /// says `None` there).
    pub fn with_operation_timeout(mut self, timeout: Duration) -> Self {
        if let Backend::Native(native) = &mut self.backend {
            native.operation_timeout = Some(timeout);
            native.reset_policy();
        }
        self
    }

    /// The operation timeout, if any (never over Thrift 1).
    pub fn operation_timeout(&self) -> Option<Duration> {
        match &self.backend {
            Backend::Thrift(_) => None,
            Backend::Native(native) => native.operation_timeout,
        }
    }

    /// The same store with other write batching.
    pub fn with_write_options(mut self, writes: WriteOptions) -> Self {
        self.writes = writes;
        self
    }

    /// The same store asking for at most `n` rows per round trip of a
    /// read (`scannerGetList`, and the scan's caching; default 1,000; 0 is
    /// taken as 1).
    pub fn with_read_page_rows(mut self, n: u32) -> Self {
        match &mut self.backend {
            Backend::Thrift(target) => target.page_rows = n.max(1),
            Backend::Native(native) => native.page_rows = n.max(1),
        }
        self
    }

    /// The table's name.
    pub fn table_name(&self) -> &str {
        match &self.backend {
            Backend::Thrift(target) => &target.table,
            Backend::Native(native) => &native.writer.table,
        }
    }

    /// The retry policy.
    pub fn retry(&self) -> RetryPolicy {
        match &self.backend {
            Backend::Thrift(target) => target.retry,
            Backend::Native(native) => native.retry,
        }
    }

    /// The client whose connections the store uses.
    pub fn client(&self) -> &HBaseClient {
        &self.client
    }
}

/// What a row's locating in `hbase:meta` adds to its key: HBase finds a
/// row's region by a scan of `hbase:meta` from `TABLE,ROW,99999999999999`
/// (the table's name, two commas, 14 nines), and a scan's start row may
/// not pass 32,767 bytes: so a table's keys may not pass 32,751 bytes less
/// its name. (A put of a 32,767-byte key into table `t` fails on a real
/// HBase 2.6 with "startRow's length must be less than or equal to 32767".)
const META_KEY_OVERHEAD: usize = 2 + 14;

/// How a store reaches its table.
#[derive(Clone)]
enum Backend {
    Thrift(Target<crate::thrift1::Thrift1Connector>),
    Native(NativeTarget),
}

/// A table on the native transport.
#[derive(Clone)]
struct NativeTarget {
    /// The client (with the store's retries) and what writes need.
    writer: NativeWriter,
    retry: RetryPolicy,
    operation_timeout: Option<Duration>,
    page_rows: u32,
}

impl NativeTarget {
    /// The client's policy, as the store's retries and timeout say.
    fn reset_policy(&mut self) {
        let policy = crate::native::policy(&self.retry, self.operation_timeout);
        self.writer.client = self.writer.client.with_policy(policy);
    }
}

/// HBase's key limit for rows of `table`.
fn key_limit_of(table: &str) -> KeyLimit {
    KeyLimit {
        max: KeyLimit::HBASE
            .max
            .saturating_sub(META_KEY_OVERHEAD + table.len()),
        store: "HBase",
    }
}

impl Store for HBaseStore {
    /// HBase's 32,767 bytes, less what locating a row's region adds: the
    /// table's name and 16 bytes (a 32,750-byte key in table `t`).
    fn key_limit(&self) -> KeyLimit {
        key_limit_of(self.table_name())
    }

    fn write_rows(&self, rows: Vec<Row>) -> impl Future<Output = Result<(), StoreError>> + Send {
        let backend = self.backend.clone();
        let options = self.writes;
        let limit = self.key_limit();
        async move {
            limit.check_rows(&rows)?;
            crate::puts::check_families(&rows)?;
            match backend {
                Backend::Thrift(target) => write(&target, rows, options).await,
                Backend::Native(native) => native.writer.write(rows, options).await,
            }
        }
    }

    fn delete_rows(
        &self,
        keys: Vec<Vec<u8>>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        let backend = self.backend.clone();
        let options = self.writes;
        let limit = self.key_limit();
        async move {
            for key in &keys {
                limit.check("delete rows", key)?;
            }
            match backend {
                Backend::Thrift(target) => delete(&target, keys, options).await,
                Backend::Native(native) => native.writer.delete(keys, options).await,
            }
        }
    }

    fn read_rows(&self, request: ReadRequest) -> RowStream {
        match &self.backend {
            Backend::Thrift(target) => read(target.clone(), request, self.walks.max_staleness()),
            Backend::Native(native) => crate::native::read::read(
                &native.writer.client,
                native.writer.table.clone(),
                request,
                native.page_rows,
            ),
        }
    }

    /// One Thrift 1 `getRowsWithColumns` per 1,000 keys (a scan would open
    /// a scanner per key).
    fn read_keys(&self, keys: Vec<Vec<u8>>, columns: Option<Columns>) -> RowStream {
        let limit = self.key_limit();
        if let Some(e) = keys.iter().find_map(|k| limit.check("read keys", k).err()) {
            return Box::pin(futures_util::stream::iter([Err(e)]));
        }
        match &self.backend {
            Backend::Thrift(target) => {
                crate::gateway::get::read_keys(target.clone(), keys, columns)
            }
            Backend::Native(native) => crate::native::read::read_keys(
                &native.writer.client,
                native.writer.table.clone(),
                keys,
                columns,
            ),
        }
    }

    fn parked_walks(&self) -> Option<&ParkedWalks> {
        Some(&self.walks)
    }

    fn check_and_write(
        &self,
        write: ConditionalWrite,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        let backend = self.backend.clone();
        let limit = self.key_limit();
        async move {
            limit.check("check and write", &write.key)?;
            write.validate()?;
            let cells = write
                .on_true
                .iter()
                .chain(&write.on_false)
                .filter_map(|e| match e {
                    RowEdit::Set(c) => Some(c.family.as_str()),
                    RowEdit::Clear { family, .. } => Some(family.as_str()),
                    _ => None,
                });
            check_family_names(
                &write.key,
                std::iter::once(write.check.family.as_str()).chain(cells),
            )?;
            match backend {
                Backend::Thrift(target) => {
                    crate::gateway::atomic::check_and_write(&target, write).await
                }
                Backend::Native(native) => {
                    let w = &native.writer;
                    crate::native::atomic::check_and_write(&w.client, &w.table, &w.clock, write)
                        .await
                }
            }
        }
    }

    fn read_modify_write(
        &self,
        change: ReadModifyWrite,
    ) -> impl Future<Output = Result<Row, StoreError>> + Send {
        let backend = self.backend.clone();
        let limit = self.key_limit();
        async move {
            limit.check("read-modify-write", &change.key)?;
            change.validate()?;
            check_family_names(&change.key, change.rules.iter().map(|r| r.column().0))?;
            match backend {
                Backend::Thrift(target) => {
                    crate::gateway::atomic::read_modify_write(&target, change).await
                }
                Backend::Native(native) => {
                    let w = &native.writer;
                    crate::native::atomic::read_modify_write(&w.client, &w.table, change).await
                }
            }
        }
    }
}

/// Families HBase cannot name in a Thrift column (holding the `:` that
/// ends one) refused before anything is sent.
fn check_family_names<'a>(
    key: &[u8],
    mut families: impl Iterator<Item = &'a str>,
) -> Result<(), StoreError> {
    match families.find(|f| f.contains(':')) {
        Some(family) => Err(StoreError::InvalidRequest {
            op: "write conditionally",
            key: key.to_vec(),
            why: format!("family {family:?} holds ':', which ends a family in HBase's columns"),
        }),
        None => Ok(()),
    }
}
