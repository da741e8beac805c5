//! [`HBaseClient`]: a pool of connections to one HBase Thrift server,
//! shared by the stores of its tables and its admin.

use crate::gateway::pool::{Pool, Slot};
use crate::gateway::retry::with_retries;
use crate::gateway::GatewayError;
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
    pub(crate) transport: Transport,
    /// Its writes, moved around each: pages' walks parked before one are
    /// not gone on with after it.
    pub(crate) epoch: Arc<rowkey_store::WriteEpoch>,
    /// Its writes' stamps: a retried write's late copy never wins.
    pub(crate) clock: Arc<rowkey_store::WriteClock>,
    address: Arc<str>,
}

/// How a client reaches HBase.
#[derive(Clone)]
pub(crate) enum Transport {
    /// Through a Thrift 1 gateway: a pool of blocking connections.
    Thrift(ThriftTransport),
    /// HBase's own RPC, to the region servers and masters.
    Native(hbase_native::Client),
}

/// The Thrift 1 transport's parts.
#[derive(Clone)]
pub(crate) struct ThriftTransport {
    pub(crate) pool: Pool<Thrift1Connector>,
    /// Scanners its reads left open for their next page.
    pub(crate) parked: Arc<crate::gateway::parked::Parked>,
}

impl std::fmt::Debug for HBaseClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut f = f.debug_struct("HBaseClient");
        f.field("address", &self.address);
        match &self.transport {
            Transport::Thrift(t) => f.field("connections", &t.pool.size()),
            Transport::Native(c) => f.field("native", c),
        };
        f.finish()
    }
}

impl HBaseClient {
    /// Connects to HBase with the default options, through the transport
    /// `address` names:
    ///
    /// - `zk://HOST:PORT[,HOST:PORT...][/ZNODE_PARENT]`: **natively**,
    ///   HBase's own RPC to its region servers, the cluster found through
    ///   ZooKeeper (`hbase.zookeeper.quorum`; the parent defaults to
    ///   `/hbase`); `hbase://MASTER:PORT[,...]` finds it through the
    ///   masters (HBase 2.5+). No gateway to run; tables can be created
    ///   pre-split; fuzzy plans and IN-lists are filtered on the servers.
    /// - `HOST:PORT`: through HBase's **Thrift 1 server** there (its
    ///   default port is 9090).
    ///
    /// Either way the cluster (or the one Thrift connection opened at
    /// once) is reached here, so that an address that is not what it
    /// should be is an error now, naming what was expected.
    ///
    /// ```no_run
    /// use rowkey_hbase::HBaseClient;
    /// # async fn run() -> Result<(), rowkey::store::StoreError> {
    /// let native = HBaseClient::connect("zk://zk1:2181,zk2:2181/hbase").await?;
    /// let gateway = HBaseClient::connect("127.0.0.1:9090").await?;
    /// # Ok(()) }
    /// ```
    pub async fn connect(address: &str) -> Result<Self, StoreError> {
        Self::connect_with(address, ClientOptions::default()).await
    }

    /// [`connect`](Self::connect) with other options.
    pub async fn connect_with(address: &str, options: ClientOptions) -> Result<Self, StoreError> {
        if hbase_native::Registry::is_native(address) {
            let retry = RetryPolicy::default();
            let native = hbase_native::Options::default()
                .connect_timeout(options.connect_timeout)
                .call_timeout(retry.idle_timeout)
                .attempts(retry.attempts)
                .backoff_between(retry.initial_backoff, retry.max_backoff);
            return Self::connect_native(address, native).await;
        }
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
            transport: Transport::Thrift(ThriftTransport {
                pool,
                parked: Arc::default(),
            }),
            epoch: rowkey_store::WriteEpoch::new(),
            clock: Arc::default(),
            address: Arc::from(address),
        };
        // Retried as reads are: a first connection cut on the way is not
        // a wrong server.
        let retry = RetryPolicy::default();
        let table = address.to_owned();
        client
            .thrift()
            .expect("made above")
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

    /// Connects natively (HBase's own RPC; `address` is `zk://...` or
    /// `hbase://...`, as for [`connect`](Self::connect)) with all of the
    /// native client's [`Options`](hbase_native::Options). A store's
    /// [`RetryPolicy`] still governs its own calls' retries and timeouts.
    pub async fn connect_native(
        address: &str,
        options: hbase_native::Options,
    ) -> Result<Self, StoreError> {
        let client = hbase_native::Client::connect_with(address, options)
            .await
            .map_err(|e| crate::native::store_error("connect", address, e))?;
        Ok(HBaseClient {
            transport: Transport::Native(client),
            epoch: rowkey_store::WriteEpoch::new(),
            clock: Arc::default(),
            address: Arc::from(address),
        })
    }

    /// The Thrift transport's parts, if the client uses it.
    pub(crate) fn thrift(&self) -> Option<&ThriftTransport> {
        match &self.transport {
            Transport::Thrift(t) => Some(t),
            Transport::Native(_) => None,
        }
    }

    /// Whether the client speaks HBase's own RPC (a `zk://` or `hbase://`
    /// address) rather than through a Thrift gateway.
    pub fn is_native(&self) -> bool {
        matches!(self.transport, Transport::Native(_))
    }

    /// The server's address, as given.
    pub fn address(&self) -> &str {
        &self.address
    }

    /// Drops the client's parked scanners: a table created or deleted
    /// since they were opened is not the table they read.
    pub(crate) fn unpark(&self) {
        if let Some(t) = self.thrift() {
            crate::gateway::read::unpark(&t.pool, &t.parked);
        }
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
        let Some(thrift) = self.thrift() else {
            unreachable!("only the Thrift transport makes gateway calls");
        };
        thrift
            .pool
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
