//! [`Client`]: a connection to a cluster, and [`Scanner`], a scan's rows
//! as a stream.

use crate::address::Registry;
use crate::cluster::Cluster;
use crate::error::{Error, Result};
use crate::options::{CallPolicy, Options};
use crate::types::{Get, RowMutation, RowResult, Scan};
use futures_core::Stream;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::sync::mpsc;

/// The client's own runtime, which runs its connections and calls, and
/// what it knows of the cluster. The runtime stops when the last handle
/// (client clone, admin or scanner) goes.
struct Handle {
    runtime: Option<tokio::runtime::Runtime>,
    cluster: Arc<Cluster>,
}

impl Drop for Handle {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            // Allowed inside another runtime's task, unlike a plain drop.
            runtime.shutdown_background();
        }
    }
}

/// A client of one HBase cluster, speaking HBase's own RPC to its masters
/// and region servers: no Thrift or REST gateway in between.
///
/// It finds `hbase:meta` through ZooKeeper (`zk://`) or the masters
/// (`hbase://`), caches where each table's regions are, and looks again
/// when a region has moved, split or merged, or its server died. Its
/// futures and streams need no particular runtime: the connections run on
/// a small runtime of the client's own. Cheap to clone; clones share
/// connections and caches.
///
/// ```no_run
/// use futures::TryStreamExt;
/// use hbase_native::{Client, RowMutation, Scan};
/// # async fn run() -> Result<(), hbase_native::Error> {
/// let client = Client::connect("zk://127.0.0.1:2181/hbase").await?;
/// client
///     .mutate("people", vec![RowMutation::put(b"ada".to_vec()).set(b"d", b"born", b"1815")])
///     .await?;
/// let rows: Vec<_> = client.scan("people", Scan::all()).try_collect().await?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Client {
    handle: Arc<Handle>,
    policy: CallPolicy,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("registry", &self.handle.cluster.registry.to_string())
            .finish_non_exhaustive()
    }
}

impl Client {
    /// Connects with the default [`Options`] to the cluster `address`
    /// names: `zk://HOST:PORT[,HOST:PORT...][/ZNODE_PARENT]` (the parent
    /// defaults to `/hbase`) or `hbase://MASTER:PORT[,...]`.
    ///
    /// `hbase:meta` is located at once, so that an address that is not an
    /// HBase cluster's is an error here, saying what was found instead.
    pub async fn connect(address: &str) -> Result<Client> {
        Self::connect_with(address, Options::default()).await
    }

    /// [`connect`](Self::connect) with other options.
    pub async fn connect_with(address: &str, options: Options) -> Result<Client> {
        let registry: Registry = address.parse()?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(options.threads.max(1))
            .thread_name("hbase-native")
            .enable_all()
            .build()
            .map_err(|e| Error::connection(address, format!("cannot start a runtime: {e}")))?;
        let client = Client {
            policy: options.policy(),
            handle: Arc::new(Handle {
                runtime: Some(runtime),
                cluster: Arc::new(Cluster::new(registry, options)),
            }),
        };
        client
            .run(|cluster, _| async move {
                // A Kerberos login fails here, not at the first call.
                cluster.login().await?;
                cluster.meta_server().await
            })
            .await?;
        Ok(client)
    }

    /// The options it was connected with.
    pub fn options(&self) -> &Options {
        &self.handle.cluster.options
    }

    /// How its calls retry and wait.
    pub fn policy(&self) -> CallPolicy {
        self.policy
    }

    /// The same client (the same connections and caches) retrying and
    /// waiting as `policy` says.
    pub fn with_policy(&self, policy: CallPolicy) -> Client {
        Client {
            handle: self.handle.clone(),
            policy,
        }
    }

    /// Runs `work` on the client's runtime; its result, wherever awaited.
    /// Dropping the future does not stop the work (a write goes on to its
    /// end, as with a dropped request to any server).
    pub(crate) fn run<T, F, Fut>(&self, work: F) -> impl Future<Output = Result<T>> + Send + 'static
    where
        F: FnOnce(Arc<Cluster>, CallPolicy) -> Fut,
        Fut: Future<Output = Result<T>> + Send + 'static,
        T: Send + 'static,
    {
        let handle = self.handle.clone();
        let task = handle
            .runtime
            .as_ref()
            .expect("the runtime lives as long as its handle")
            .spawn(work(handle.cluster.clone(), self.policy.started()));
        async move {
            let _alive = handle;
            task.await.map_err(|_| Error::ClientClosed)?
        }
    }

    /// Applies `mutations` to `table`: each row all or nothing, the rows
    /// grouped by region server, one call per server, all servers at once;
    /// rows whose region moved are sent again where it went. A row's
    /// versions are ordered by their timestamps, so give repeated writes
    /// of a row increasing ones ([`RowMutation::at`]).
    pub fn mutate(
        &self,
        table: &str,
        mutations: Vec<RowMutation>,
    ) -> impl Future<Output = Result<()>> + Send + 'static {
        let table = table.to_owned();
        self.run(move |cluster, policy| async move {
            crate::mutate::mutate(&cluster, &policy, &table, &mutations).await
        })
    }

    /// Reads `rows` of `table` by key: one answer per row, in the order
    /// asked, `None` for a row that is not there. Only `columns` are read
    /// ((family, qualifier); a `None` qualifier takes the whole family;
    /// none: every column). The rows are grouped by region server, one
    /// `Multi` of gets per server, all servers at once.
    pub fn get(
        &self,
        table: &str,
        rows: Vec<Vec<u8>>,
        columns: Vec<(Vec<u8>, Option<Vec<u8>>)>,
    ) -> impl Future<Output = Result<Vec<Option<RowResult>>>> + Send + 'static {
        self.get_with(table, rows, Get::columns(columns))
    }

    /// Reads `rows` of `table` by key as `get` says: its columns, a
    /// filter the region servers apply to each row's cells, and at most
    /// so many cells of each family (a slice of a wide row in one round
    /// trip). One answer per row, in the order asked; `None` for a row
    /// that is not there or that the filter leaves with no cell.
    pub fn get_with(
        &self,
        table: &str,
        rows: Vec<Vec<u8>>,
        get: Get,
    ) -> impl Future<Output = Result<Vec<Option<RowResult>>>> + Send + 'static {
        let table = table.to_owned();
        self.run(move |cluster, policy| async move {
            crate::get::get(&cluster, &policy, &table, &rows, &get).await
        })
    }

    /// Applies `mutation` to its row of `table` if `check` holds of one of
    /// the row's cells, as one step of the region server; whether it held.
    /// Never sent again once it may have run (its request went out whole
    /// and no answer came): such a failure is [`Error::OutcomeUnknown`].
    /// Its deletes and puts apply as [`RowMutation`] says.
    pub fn check_and_mutate(
        &self,
        table: &str,
        check: crate::Check,
        mutation: RowMutation,
    ) -> impl Future<Output = Result<bool>> + Send + 'static {
        let table = table.to_owned();
        self.run(move |cluster, policy| async move {
            crate::atomic::check_and_mutate(&cluster, &policy, &table, &check, &mutation).await
        })
    }

    /// Increments counters or appends bytes of `row` of `table` as one
    /// step of the region server; the new values of the cells changed.
    /// Carries a nonce: once a copy may have run, it is sent again only to
    /// the region server process that may have run it, which does not run
    /// a repeat; if the region is now elsewhere (or its server restarted),
    /// or the retries run out, the error is [`Error::OutcomeUnknown`].
    pub fn read_modify_write(
        &self,
        table: &str,
        row: Vec<u8>,
        modify: crate::Modify,
    ) -> impl Future<Output = Result<RowResult>> + Send + 'static {
        let table = table.to_owned();
        self.run(move |cluster, policy| async move {
            crate::atomic::read_modify_write(&cluster, &policy, &table, &row, &modify).await
        })
    }

    /// The rows of `scan`, as a stream: read a page (the scan's caching)
    /// ahead of the consumer, never more. Dropping it closes the scanner
    /// on its server.
    pub fn scan(&self, table: &str, scan: Scan) -> Scanner {
        let (tx, rx) = mpsc::channel(1);
        let cluster = self.handle.cluster.clone();
        let table = table.to_owned();
        self.handle
            .runtime
            .as_ref()
            .expect("the runtime lives as long as its handle")
            .spawn(crate::scan::run(
                cluster,
                self.policy.started(),
                table,
                scan,
                tx,
            ));
        Scanner {
            pages: rx,
            page: Vec::new().into_iter(),
            _handle: self.handle.clone(),
        }
    }

    /// The table admin.
    pub fn admin(&self) -> crate::Admin {
        crate::Admin::new(self.clone())
    }

    /// Forgets where `table`'s regions are (after a change of the table).
    pub(crate) fn forget_table(&self, table: &str) {
        self.handle.cluster.forget_table(table);
    }
}

/// A scan's rows, in order, as a `futures_core::Stream`; or page by page with
/// [`next_page`](Self::next_page).
pub struct Scanner {
    pages: mpsc::Receiver<Result<Vec<RowResult>>>,
    page: std::vec::IntoIter<RowResult>,
    _handle: Arc<Handle>,
}

impl fmt::Debug for Scanner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scanner").finish_non_exhaustive()
    }
}

impl Scanner {
    /// The next page of rows (`None`: the scan is over). Rows of the
    /// current page not yet taken through the stream come first.
    pub async fn next_page(&mut self) -> Option<Result<Vec<RowResult>>> {
        let rest: Vec<RowResult> = self.page.by_ref().collect();
        if !rest.is_empty() {
            return Some(Ok(rest));
        }
        self.pages.recv().await
    }
}

impl Stream for Scanner {
    type Item = Result<RowResult>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            if let Some(row) = self.page.next() {
                return Poll::Ready(Some(Ok(row)));
            }
            match self.pages.poll_recv(cx) {
                Poll::Ready(Some(Ok(page))) => self.page = page.into_iter(),
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(e))),
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}
