//! [`BigtableStore`]: a table of Cloud Bigtable (or its emulator) as an
//! async [`Store`].

use crate::conditional::{check_and_mutate, newest, read_modify_write, Conditional};
use crate::mutate::{mutate_row, MutateRowsError, Mutation, RowMutation};
use crate::read::read;
use crate::sample::{sample_row_keys, KeySample};
use crate::target::{Target, MAX_MESSAGE_BYTES};
use crate::versions::VersionedRow;
use crate::versions::VersionedRowStream;
use crate::write::{delete, mutate_rows, write, WriteOptions, MAX_MUTATIONS};
use bigtable_rs::bigtable::{BigTable, BigTableConnection};
use bigtable_rs::google::bigtable::v2::RowFilter;
use rowkey_store::{
    ConditionalWrite, KeyLimit, ModifyRule, ParkedWalks, ReadModifyWrite, ReadRequest, RetryPolicy,
    Row, RowStream, Store, StoreError, WriteEpoch,
};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// A table of Cloud Bigtable, or of the emulator.
///
/// Reads stream: rows arrive as the server sends them, each read resumes
/// after the last row it delivered when a stream is cut or stalls
/// ([`RetryPolicy`]), and [`StoreExt::query`](rowkey_store::StoreExt::query) reads a salted plan's buckets
/// concurrently and merges them. Writes go out in batches with a bounded
/// number in flight ([`WriteOptions`]). Keys are checked against
/// Bigtable's 4 KiB limit before anything is sent.
///
/// Every call behaves as Cloud Bigtable's own clients do: it carries the
/// routing headers (`x-goog-request-params`, `bigtable-features`); a
/// retry waits the delay the server asked for (`RetryInfo`) or else the
/// policy's exponential backoff, and sends back the routing cookies the
/// server set (`x-goog-cbt-cookie*`); a read resumes after the last row
/// the server delivered or said it scanned, asking for the rows still
/// owed; a bulk write sends again only the rows that failed; and an
/// operation never outlives its [timeout](Self::with_operation_timeout).
/// Beside the [`Store`] operations it has Bigtable's own:
/// [`read_versions`](Self::read_versions) (every version, timestamps),
/// [`mutate_row`](Self::mutate_row), [`mutate_rows`](Self::mutate_rows)
/// (each row's outcome) and [`sample_row_keys`](Self::sample_row_keys).
///
/// **Retries.** A write's cells carry one timestamp, taken before its
/// first send from a clock that strictly increases per client (clones and
/// [`for_table`](Self::for_table) share it; whole milliseconds), so a
/// retried write resends the same cells, and a copy of it that reaches
/// the server late writes the same version again and never beats a later
/// write of this client. Column clears end at the write's stamp. A row
/// delete takes no timestamp: it is sent again only after a failure known
/// not to have been applied, and otherwise fails with
/// [`StoreError::OutcomeUnknown`]. Between clients, stamps order writes
/// only as well as their clocks agree: a write can lose to another
/// client's write made up to their clocks' difference earlier (see the
/// guide's chapter on stores, "Retries and late replays").
///
/// It is a cheap handle: clones share the connection. It works on tokio's
/// current-thread and multi-thread runtimes.
///
/// ```no_run
/// use futures::TryStreamExt;
/// use rowkey::store::StoreExt;
/// use rowkey_bigtable::BigtableStore;
/// # #[derive(rowkey::RowKey)] struct Spend { #[text(width = 6)] month: u32, user: u64 }
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let store = BigtableStore::connect("my-project", "my-instance", "spend").await?;
/// let plan = Spend::scan().month.eq(202112).plan()?;
/// let rows: Vec<_> = store.query(&plan).try_collect().await?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct BigtableStore {
    target: Target,
    writes: WriteOptions,
    /// Pages' walks of this table (see `Store::parked_walks`).
    walks: Arc<ParkedWalks>,
}

impl std::fmt::Debug for BigtableStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BigtableStore")
            .field("table", &self.target.table)
            .field("retry", &self.target.retry)
            .field("writes", &self.writes)
            .finish_non_exhaustive()
    }
}

impl BigtableStore {
    /// Connects to `table` of `project`/`instance`: the emulator at
    /// `BIGTABLE_EMULATOR_HOST` when that is set, Cloud Bigtable with
    /// application default credentials otherwise.
    pub async fn connect(project: &str, instance: &str, table: &str) -> Result<Self, StoreError> {
        let connection = BigTableConnection::new(project, instance, false, 1, None)
            .await
            .map_err(|e| StoreError::backend("connect", e))?;
        Ok(Self::from_client(connection.client(), table))
    }

    /// Connects to the emulator at `host` (`127.0.0.1:8086`), whatever the
    /// environment says. The connection is made on first use.
    pub async fn connect_emulator(
        host: &str,
        project: &str,
        instance: &str,
        table: &str,
    ) -> Result<Self, StoreError> {
        let connection =
            BigTableConnection::new_with_emulator(host, project, instance, false, 1, None)
                .map_err(|e| StoreError::backend("connect", e))?;
        Ok(Self::from_client(connection.client(), table))
    }

    /// A store over a bigtable_rs client you already have (its
    /// connection, credentials and channel pool are used as they are), for
    /// `table` (its id, or its full name `projects/../tables/..`).
    pub fn from_client(mut client: BigTable, table: &str) -> Self {
        client.configure_inner_client(|c| c.max_decoding_message_size(MAX_MESSAGE_BYTES));
        let table = if table.starts_with("projects/") {
            table.to_string()
        } else {
            client.get_full_table_name(table)
        };
        let epoch = WriteEpoch::new();
        BigtableStore {
            walks: Arc::new(ParkedWalks::new(epoch.clone())),
            target: Target {
                client,
                table: table.into(),
                app_profile: Arc::from(""),
                retry: RetryPolicy::default(),
                timeout: None,
                page_rows: 10_000,
                epoch,
                clock: Arc::default(),
            },
            writes: WriteOptions::default(),
        }
    }

    /// The same store with another retry policy for reads and writes.
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.target.retry = retry;
        self
    }

    /// The same store with every operation given at most `timeout`,
    /// retries and the waits between them included: a read until its
    /// stream ends (however fast its rows are taken), a write until its
    /// last batch is written. One that has not finished by then fails with
    /// a [`StoreError::Backend`] whose source is a DEADLINE_EXCEEDED
    /// `tonic::Status`; a retry that could not start before then is not
    /// made. Each request tells the server the time left (`grpc-timeout`).
    /// By default there is none: only the [`RetryPolicy`] bounds an
    /// operation.
    pub fn with_operation_timeout(mut self, timeout: Duration) -> Self {
        self.target.timeout = Some(timeout);
        self
    }

    /// The operation timeout, if any.
    pub fn operation_timeout(&self) -> Option<Duration> {
        self.target.timeout
    }

    /// The same connection and settings, for another table of the
    /// instance (its id, or its full name `projects/../tables/..`).
    pub fn for_table(&self, table: &str) -> Self {
        let mut store = self.clone();
        store.target.table = if table.starts_with("projects/") {
            table.into()
        } else {
            store.target.client.get_full_table_name(table).into()
        };
        // Its own walks; the same client's writes.
        store.walks = Arc::new(ParkedWalks::new(store.target.epoch.clone()));
        store
    }

    /// The same store with other write batching.
    pub fn with_write_options(mut self, writes: WriteOptions) -> Self {
        self.writes = writes;
        self
    }

    /// The same store asking for at most `n` rows per `ReadRows` request
    /// (default 10,000; 0 is taken as 1). A long read is sent as requests
    /// of this many rows, each resuming after the last, which bounds what
    /// the HTTP/2 layer holds unread for a slow reader. A page of a
    /// multi-range read (`read_plan`) names only the ranges it is likely to
    /// reach, sized by the page before: the emulator's cost of a request
    /// grows with the rows of its whole `RowSet`, whatever its limit.
    pub fn with_read_page_rows(mut self, n: u64) -> Self {
        self.target.page_rows = n.max(1);
        self
    }

    /// The same store using an app profile of the instance.
    pub fn with_app_profile(mut self, app_profile: &str) -> Self {
        self.target.app_profile = Arc::from(app_profile);
        self
    }

    /// The table's full name: `projects/P/instances/I/tables/T`.
    pub fn table_name(&self) -> &str {
        &self.target.table
    }

    /// The retry policy.
    pub fn retry(&self) -> RetryPolicy {
        self.target.retry
    }

    /// The bigtable_rs client underneath, for calls this store does not
    /// make (`get_client()` reaches the raw v2 API). Writes made through
    /// it are another client's to this store: a walk of pages parked
    /// before one goes on without it (see
    /// [`Store::parked_walks`](rowkey_store::Store::parked_walks)).
    pub fn client(&self) -> BigTable {
        self.target.client.clone()
    }

    /// The rows of `request` with every version of their cells, each with
    /// its timestamp ([`VersionedRow`](crate::VersionedRow)), where
    /// [`read_rows`](Store::read_rows) keeps the newest value of each
    /// column. Everything else is as there: the request's ranges, order,
    /// limit, fuzzy key and columns; resumed reads; the same checks.
    pub fn read_versions(&self, request: ReadRequest) -> VersionedRowStream {
        if let Err(e) = check_bounds(&request) {
            return Box::pin(futures_util::stream::iter([Err(e)]));
        }
        read(self.target.clone(), request, false)
    }

    /// Applies one row's mutations together (all or none) with one
    /// `MutateRow` call. It is retried on transient failures only when
    /// every mutation is [idempotent](crate::Mutation::is_idempotent): a
    /// cell set at the server's time is never sent twice. The key is
    /// checked as writes check it, before anything is sent.
    ///
    /// ```no_run
    /// use rowkey_bigtable::{BigtableStore, Mutation, RowMutation};
    /// # async fn run(store: BigtableStore) -> Result<(), rowkey::store::StoreError> {
    /// let row = RowMutation::new("user#7", vec![
    ///     Mutation::set_cell_at("d", "name", 1_700_000_000_000_000, "Ada"),
    ///     Mutation::DeleteFamily { family: "old".into() },
    /// ]);
    /// store.mutate_row(row).await?;
    /// # Ok(()) }
    /// ```
    pub async fn mutate_row(&self, row: RowMutation) -> Result<(), StoreError> {
        KeyLimit::BIGTABLE.check("mutate row", &row.key)?;
        if row.mutations.len() > MAX_MUTATIONS {
            return Err(StoreError::TooManyCells {
                key: row.key,
                cells: row.mutations.len(),
                max: MAX_MUTATIONS,
            });
        }
        mutate_row(&self.target, row).await
    }

    /// Applies many rows' mutations with `MutateRows` calls, batched as
    /// [`WriteOptions`] say, and reports each row that was not written
    /// ([`MutateRowsError::failed`]: its index, key and own error, the
    /// server's status as the error's source); every other row was. Rows
    /// that failed transiently are sent again, alone of their batch, when
    /// they are idempotent. A row the store refuses (a bad key, too many
    /// mutations) fails without being sent.
    pub async fn mutate_rows(&self, rows: Vec<RowMutation>) -> Result<(), MutateRowsError> {
        mutate_rows(&self.target, rows, self.writes).await
    }

    /// Bigtable's `CheckAndMutateRow`: applies `true_mutations` to row
    /// `key` when `predicate` yields any cell of it (no predicate: when
    /// the row has any cell), `false_mutations` when not, as one step of
    /// the server; whether the predicate matched. One call, sent once: a
    /// failure after it may have reached the server is
    /// [`StoreError::OutcomeUnknown`] (Google's clients do not retry it
    /// either). The key and the number of mutations are checked before
    /// anything is sent.
    ///
    /// [`Store::check_and_write`] is built on it, for one cell's
    /// condition in the store's own terms.
    ///
    /// ```no_run
    /// use rowkey_bigtable::{BigtableStore, Mutation};
    /// use rowkey_bigtable::RowFilter;
    /// # async fn run(store: BigtableStore) -> Result<(), rowkey::store::StoreError> {
    /// // Mark the row seen, unless it has any cell at all.
    /// let matched = store
    ///     .check_and_mutate_row(b"user#7".to_vec(), None, vec![], vec![Mutation::set_cell("d", "seen", "1")])
    ///     .await?;
    /// # let _ = (matched, RowFilter::default());
    /// # Ok(()) }
    /// ```
    pub async fn check_and_mutate_row(
        &self,
        key: Vec<u8>,
        predicate: Option<RowFilter>,
        true_mutations: Vec<Mutation>,
        false_mutations: Vec<Mutation>,
    ) -> Result<bool, StoreError> {
        KeyLimit::BIGTABLE.check("check and mutate row", &key)?;
        let n = true_mutations.len().max(false_mutations.len());
        if n > MAX_MUTATIONS {
            return Err(StoreError::TooManyCells {
                key,
                cells: n,
                max: MAX_MUTATIONS,
            });
        }
        check_and_mutate(
            &self.target,
            key,
            predicate,
            &true_mutations,
            &false_mutations,
        )
        .await
    }

    /// Bigtable's `ReadModifyWriteRow`: applies `rules` (increments of
    /// 8-byte big-endian counters, appends) to row `key` in order, as one
    /// step of the server, and returns the cells they changed with their
    /// new values and timestamps. One call, sent once, as
    /// [`check_and_mutate_row`](Self::check_and_mutate_row).
    /// [`Store::read_modify_write`] is built on it.
    pub async fn read_modify_write_row(
        &self,
        key: Vec<u8>,
        rules: Vec<ModifyRule>,
    ) -> Result<VersionedRow, StoreError> {
        KeyLimit::BIGTABLE.check("read-modify-write row", &key)?;
        read_modify_write(&self.target, key, &rules).await
    }

    /// Samples of the table's keys, in key order: the keys that end its
    /// tablets with the bytes of the rows before each (the last has an
    /// empty key, the end of the table), for cutting a full scan into
    /// parts of about equal size. Retried whole on transient failures.
    pub async fn sample_row_keys(&self) -> Result<Vec<KeySample>, StoreError> {
        sample_row_keys(&self.target).await
    }
}

/// Refuses a request with a bound past any key Bigtable can hold, as a
/// key would be refused.
fn check_bounds(request: &ReadRequest) -> Result<(), StoreError> {
    match request
        .ranges()
        .iter()
        .flat_map(|r| std::iter::once(&r.start).chain(r.stop.as_ref()))
        .find(|k| k.len() > KeyLimit::BIGTABLE.max + 1)
    {
        Some(bad) => KeyLimit::BIGTABLE.check("read rows", bad),
        None => Ok(()),
    }
}

impl Store for BigtableStore {
    fn key_limit(&self) -> KeyLimit {
        KeyLimit::BIGTABLE
    }

    fn write_rows(&self, rows: Vec<Row>) -> impl Future<Output = Result<(), StoreError>> + Send {
        let target = self.target.clone();
        let options = self.writes;
        async move {
            KeyLimit::BIGTABLE.check_rows(&rows)?;
            write(&target, rows, options).await
        }
    }

    fn delete_rows(
        &self,
        keys: Vec<Vec<u8>>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        let target = self.target.clone();
        let options = self.writes;
        async move {
            for key in &keys {
                KeyLimit::BIGTABLE.check("delete rows", key)?;
            }
            delete(&target, keys, options).await
        }
    }

    fn read_rows(&self, request: ReadRequest) -> RowStream {
        if let Err(e) = check_bounds(&request) {
            return Box::pin(futures_util::stream::iter([Err(e)]));
        }
        read(self.target.clone(), request, true)
    }

    fn parked_walks(&self) -> Option<&ParkedWalks> {
        Some(&self.walks)
    }

    /// One `CheckAndMutateRow`: every condition and both branches, cells
    /// set at the store's write clock (as its writes are).
    fn check_and_write(
        &self,
        write: ConditionalWrite,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        let store = self.clone();
        async move {
            KeyLimit::BIGTABLE.check("check and write", &write.key)?;
            write.validate()?;
            let stamp = store.target.clock.next().saturating_mul(1000);
            let c = Conditional::of(&write, stamp)?;
            let matched = store
                .check_and_mutate_row(write.key, Some(c.predicate), c.on_match, c.on_no_match)
                .await?;
            Ok(matched == c.holds_on_match)
        }
    }

    /// One `ReadModifyWriteRow`: any increments and appends of the row.
    fn read_modify_write(
        &self,
        change: ReadModifyWrite,
    ) -> impl Future<Output = Result<Row, StoreError>> + Send {
        let store = self.clone();
        async move {
            KeyLimit::BIGTABLE.check("read-modify-write", &change.key)?;
            change.validate()?;
            let row = store
                .read_modify_write_row(change.key, change.rules)
                .await?;
            Ok(newest(row))
        }
    }
}
