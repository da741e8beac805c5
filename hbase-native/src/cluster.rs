//! [`Cluster`]: what the client knows of a cluster and shares between
//! its calls: one connection per server and service, where `hbase:meta`
//! is, and each table's regions; and the retry loop that forgets what a
//! failure showed to be stale.

use crate::address::Registry;
use crate::connection::Connection;
use crate::error::{Error, Result};
use crate::options::{CallPolicy, Options};
use crate::proto;
use crate::regions::TableRegions;
use prost::Message;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::OnceCell;

/// The services a client talks to.
pub(crate) const CLIENT_SERVICE: &str = "ClientService";
pub(crate) const MASTER_SERVICE: &str = "MasterService";
pub(crate) const META_SERVICE: &str = "ClientMetaService";

type Slot<T> = Arc<OnceCell<T>>;

pub(crate) struct Cluster {
    pub(crate) options: Options,
    pub(crate) registry: Registry,
    connections: Mutex<HashMap<(String, &'static str), Slot<Connection>>>,
    /// `hbase:meta`'s server, once looked up.
    meta: Mutex<Slot<String>>,
    /// Each table's regions, once looked up.
    regions: Mutex<HashMap<String, Slot<Arc<TableRegions>>>>,
}

impl Cluster {
    pub(crate) fn new(registry: Registry, options: Options) -> Cluster {
        Cluster {
            options,
            registry,
            connections: Mutex::default(),
            meta: Mutex::default(),
            regions: Mutex::default(),
        }
    }

    /// The connection to `service` on `server` (`host:port`), opened if
    /// there is none or the last one broke.
    pub(crate) async fn connection(
        &self,
        server: &str,
        service: &'static str,
    ) -> Result<Connection> {
        let key = (server.to_owned(), service);
        loop {
            let slot = lock(&self.connections)
                .entry(key.clone())
                .or_default()
                .clone();
            let address = match &self.options.address_map {
                Some(map) => map(server),
                None => server.to_owned(),
            };
            let opened = slot
                .get_or_try_init(|| {
                    Connection::open(
                        server,
                        &address,
                        service,
                        &self.options.user,
                        self.options.connect_timeout,
                    )
                })
                .await;
            match opened {
                Ok(connection) if !connection.is_broken() => return Ok(connection.clone()),
                Ok(_) => {
                    let mut connections = lock(&self.connections);
                    if connections.get(&key).is_some_and(|s| Arc::ptr_eq(s, &slot)) {
                        connections.remove(&key);
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Calls `method` of `service` on `server`, decoding the answer as `R`;
    /// the cell block comes with it.
    pub(crate) async fn call<R: Message + Default>(
        &self,
        server: &str,
        service: &'static str,
        method: &'static str,
        request: &impl Message,
        timeout: std::time::Duration,
    ) -> Result<(R, bytes::Bytes)> {
        self.call_with_cells(server, service, method, request, &[], timeout)
            .await
    }

    /// [`call`](Self::call) with a cell block: the cells of the request's
    /// mutations that carry `associated_cell_count`, in their order.
    pub(crate) async fn call_with_cells<R: Message + Default>(
        &self,
        server: &str,
        service: &'static str,
        method: &'static str,
        request: &impl Message,
        cells: &[u8],
        timeout: std::time::Duration,
    ) -> Result<(R, bytes::Bytes)> {
        let connection = self.connection(server, service).await?;
        let (message, cells) = connection.call(method, request, cells, timeout).await?;
        let answer = crate::wire::decode(message, server, method)?;
        Ok((answer, cells))
    }

    /// Where `hbase:meta` is: `host:port` of its region server.
    pub(crate) async fn meta_server(&self) -> Result<String> {
        let slot = lock(&self.meta).clone();
        slot.get_or_try_init(|| crate::locate::find_meta(self))
            .await
            .cloned()
    }

    /// The active master's `host:port`.
    pub(crate) async fn master(&self) -> Result<String> {
        crate::locate::find_master(self).await
    }

    /// `table`'s regions, looked up in `hbase:meta` if not known.
    pub(crate) async fn regions(&self, table: &str) -> Result<Arc<TableRegions>> {
        let slot = lock(&self.regions)
            .entry(table.to_owned())
            .or_default()
            .clone();
        slot.get_or_try_init(|| crate::locate::table_regions(self, table))
            .await
            .cloned()
    }

    /// Forgets what `error` shows to be stale: `table`'s regions, and where
    /// `hbase:meta` is if its server failed.
    pub(crate) fn forget(&self, table: Option<&str>, error: &Error) {
        if !error.is_stale_location() && !matches!(error, Error::RegionsInTransition { .. }) {
            return;
        }
        if let Some(table) = table {
            lock(&self.regions).remove(table);
        }
        let failed = match error {
            Error::Connection { server, .. }
            | Error::Timeout { server, .. }
            | Error::Remote { server, .. } => Some(server.as_str()),
            _ => None,
        };
        let mut meta = lock(&self.meta);
        if failed.is_some_and(|s| meta.get().is_none_or(|m| m == s)) {
            *meta = Slot::default();
        }
        if let Some(server) = failed {
            if matches!(error, Error::Connection { .. } | Error::Timeout { .. }) {
                // Every table that had a region there may have it elsewhere now.
                lock(&self.regions)
                    .retain(|_, regions| regions.get().is_none_or(|r| !r.on_server(server)));
            }
        }
    }

    /// Forgets `table`'s regions (after a table change).
    pub(crate) fn forget_table(&self, table: &str) {
        lock(&self.regions).remove(table);
    }

    /// Runs `attempt` until it succeeds, fails in a way not worth
    /// retrying, or has been tried as often as `policy` allows, forgetting
    /// stale locations of `table` between tries and pausing as it says.
    pub(crate) async fn retrying<T, F, Fut>(
        &self,
        policy: &CallPolicy,
        table: Option<&str>,
        mut attempt: F,
    ) -> Result<T>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T>>,
    {
        let policy = policy.started();
        let mut tries = 0;
        loop {
            tries += 1;
            match attempt().await {
                Ok(value) => return Ok(value),
                Err(e) if e.is_retryable() => {
                    self.forget(table, &e);
                    tokio::time::sleep(policy.retry_after(tries, e)?).await;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The region specifier of a region name.
    pub(crate) fn region(name: &[u8]) -> proto::RegionSpecifier {
        proto::RegionSpecifier {
            r#type: proto::region_specifier::RegionSpecifierType::RegionName as i32,
            value: name.to_vec(),
        }
    }
}

pub(crate) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
