//! [`BigtableStore`]: a table of Cloud Bigtable (or its emulator) as an
//! async [`Store`].

use crate::read::{read, Target};
use crate::write::{delete, write, WriteOptions};
use bigtable_rs::bigtable::{BigTable, BigTableConnection};
use rowkey_store::{KeyLimit, ReadRequest, RetryPolicy, Row, RowStream, Store, StoreError};
use std::future::Future;
use std::sync::Arc;

/// The largest response message the client accepts: Bigtable cells go up
/// to 100 MB and rows to 256 MB; tonic's default of 4 MiB would refuse a
/// 5 MiB cell ("decoded message length too large").
pub const MAX_MESSAGE_BYTES: usize = 256 << 20;

/// A table of Cloud Bigtable, or of the emulator.
///
/// Reads stream: rows arrive as the server sends them, each read resumes
/// after the last row it delivered when a stream is cut or stalls
/// ([`RetryPolicy`]), and [`StoreExt::query`](rowkey_store::StoreExt::query) reads a salted plan's buckets
/// concurrently and merges them. Writes go out in batches with a bounded
/// number in flight ([`WriteOptions`]). Keys are checked against
/// Bigtable's 4 KiB limit before anything is sent.
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
        BigtableStore {
            target: Target {
                client,
                table: table.into(),
                app_profile: Arc::from(""),
                retry: RetryPolicy::default(),
                page_rows: 10_000,
            },
            writes: WriteOptions::default(),
        }
    }

    /// The same store with another retry policy for reads and writes.
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.target.retry = retry;
        self
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
    /// make (`get_client()` reaches the raw v2 API).
    pub fn client(&self) -> BigTable {
        self.target.client.clone()
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
        if let Some(bad) = request
            .ranges()
            .iter()
            .flat_map(|r| std::iter::once(&r.start).chain(r.stop.as_ref()))
            .find(|k| k.len() > KeyLimit::BIGTABLE.max + 1)
        {
            // A bound past any key Bigtable can hold: refused like a key.
            let e = KeyLimit::BIGTABLE.check("read rows", bad);
            return Box::pin(futures_util::stream::iter(e.err().map(Err)));
        }
        read(self.target.clone(), request)
    }
}
