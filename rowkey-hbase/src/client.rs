//! [`HBaseClient`]: a pool of connections to one HBase Thrift server,
//! shared by the stores of its tables and its admin.

use crate::admin::HBaseAdmin;
use crate::gateway::pool::{Pool, Slot};
use crate::gateway::retry::with_retries;
use crate::gateway::GatewayError;
use crate::store::HBaseStore;
use crate::thrift1::Thrift1Connector;
use rowkey_store::{RetryPolicy, StoreError};
use std::sync::Arc;
use std::time::Duration;

/// How a client connects.
///
/// ```
/// use rowkey_hbase::ClientOptions;
/// use std::time::Duration;
/// let o = ClientOptions::default().connections(16).connect_timeout(Duration::from_secs(3));
/// assert_eq!((o.connections, o.connect_timeout), (16, Duration::from_secs(3)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ClientOptions {
    /// The most connections open at once, each on a thread of its own
    /// that makes the blocking Thrift calls: the most calls in flight.
    pub connections: usize,
    /// How long opening a connection may take.
    pub connect_timeout: Duration,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            connections: 8,
            connect_timeout: Duration::from_secs(10),
        }
    }
}

impl ClientOptions {
    /// The same options with at most `n` connections (0 is taken as 1).
    pub fn connections(mut self, n: usize) -> Self {
        self.connections = n.max(1);
        self
    }

    /// The same options with connections given up after `timeout`.
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }
}

/// Connections to one HBase Thrift 1 server: a bounded pool whose
/// blocking calls run on threads of their own, never on an async
/// runtime's. Cheap to clone; clones share the pool, as do the stores
/// ([`table`](Self::table)) and the admin ([`admin`](Self::admin)) made
/// from it. The pool's threads stop when the last of them is dropped.
///
/// ```no_run
/// use rowkey_hbase::HBaseClient;
/// # async fn run() -> Result<(), rowkey::store::StoreError> {
/// let client = HBaseClient::connect("127.0.0.1:9090").await?;
/// let spends = client.table("spend");
/// let index = client.table("spend_by_user");
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct HBaseClient {
    pub(crate) pool: Pool<Thrift1Connector>,
    /// Scanners its reads left open for their next page.
    pub(crate) parked: Arc<crate::gateway::parked::Parked>,
    /// Its writes, moved around each: pages' walks parked before one are
    /// not gone on with after it.
    pub(crate) epoch: Arc<rowkey_store::WriteEpoch>,
    /// Its writes' stamps: a retried write's late copy never wins.
    pub(crate) clock: Arc<rowkey_store::WriteClock>,
    address: Arc<str>,
}

impl std::fmt::Debug for HBaseClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HBaseClient")
            .field("address", &self.address)
            .field("connections", &self.pool.size())
            .finish()
    }
}

impl HBaseClient {
    /// Connects to HBase's Thrift 1 server at `address` (`host:port`;
    /// the server's default port is 9090) with the default options.
    ///
    /// One connection is opened at once, so that a server that is not
    /// there, or is not HBase's Thrift 1 server with its default transport
    /// and protocol (a framed, compact or Thrift 2 server), is an error
    /// here, naming what was expected.
    pub async fn connect(address: &str) -> Result<Self, StoreError> {
        Self::connect_with(address, ClientOptions::default()).await
    }

    /// [`connect`](Self::connect) with other options.
    pub async fn connect_with(address: &str, options: ClientOptions) -> Result<Self, StoreError> {
        let connector = Thrift1Connector {
            address: address.to_owned(),
            connect_timeout: options.connect_timeout,
        };
        // Calls without a store's policy (admin calls, this first
        // connection) wait as the default policy says; a store's calls as
        // its own (`HBaseStore::with_retry`).
        let pool = Pool::new(
            connector,
            options.connections,
            RetryPolicy::default().idle_timeout,
        )?;
        let client = HBaseClient {
            pool,
            parked: Arc::default(),
            epoch: rowkey_store::WriteEpoch::new(),
            clock: Arc::default(),
            address: Arc::from(address),
        };
        // Retried as reads are: a first connection cut on the way is not
        // a wrong server.
        let retry = RetryPolicy::default();
        let table = address.to_owned();
        client
            .pool
            .run(
                "connect",
                move |slot| {
                    with_retries(slot, &retry, |_, _| Ok(()))
                        .map_err(|(e, n)| e.into_store_error("connect", &table, n))
                },
                |_, _| {},
            )
            .await??;
        Ok(client)
    }

    /// The store of `table`. Nothing is sent: a missing table is an error
    /// of the first read or write ([`StoreError::NoSuchTable`]).
    pub fn table(&self, table: &str) -> HBaseStore {
        HBaseStore::new(self.clone(), table)
    }

    /// The admin API: create and delete tables.
    pub fn admin(&self) -> HBaseAdmin {
        HBaseAdmin::new(self.clone())
    }

    /// The server's address, as given.
    pub fn address(&self) -> &str {
        &self.address
    }

    /// Drops the client's parked scanners: a table created or deleted
    /// since they were opened is not the table they read.
    pub(crate) fn unpark(&self) {
        crate::gateway::read::unpark(&self.pool, &self.parked);
    }

    /// Marks a change of tables (created, deleted) as a write: parked
    /// scanners are dropped now and when the guard goes, and pages' walks
    /// parked before it are not gone on with.
    pub(crate) fn changing_tables(&self) -> rowkey_store::WriteGuard {
        let guard = self.epoch.writing();
        self.unpark();
        guard
    }

    /// Runs one blocking call on a pooled connection, once (no retry:
    /// admin calls are not all safe to repeat), its error as a
    /// [`StoreError`] for `op` on `table` (the server's address for a
    /// call on no table).
    pub(crate) async fn call<R: Send + 'static>(
        &self,
        op: &'static str,
        table: &str,
        call: impl FnOnce(&mut Slot<Thrift1Connector>) -> Result<R, GatewayError> + Send + 'static,
    ) -> Result<R, StoreError> {
        let table = table.to_owned();
        self.pool
            .run(
                op,
                move |slot| {
                    call(slot).map_err(|e| {
                        if matches!(e, GatewayError::Transport(_) | GatewayError::WrongServer(_)) {
                            slot.discard();
                        }
                        e
                    })
                },
                |_, _| {},
            )
            .await?
            .map_err(|e| e.into_store_error(op, &table, 1))
    }
}
