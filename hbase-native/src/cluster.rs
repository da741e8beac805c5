//! [`Cluster`]: what the client knows of a cluster and shares between
//! its calls, above its [`Servers`] (the connections) and the lookups of
//! `locate.rs`: where `hbase:meta` is and each table's regions, and the
//! retry loop that forgets what a failure showed to be stale.

use crate::address::Registry;
use crate::error::{Error, Result};
use crate::options::{CallPolicy, Options};
use crate::regions::TableRegions;
use crate::servers::{lock, Servers, Slot};
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};

pub(crate) struct Cluster {
    servers: Servers,
    /// `hbase:meta`'s server, once looked up.
    meta: Mutex<Slot<String>>,
    /// Each table's regions, once looked up.
    regions: Mutex<HashMap<String, Slot<Arc<TableRegions>>>>,
}

impl Cluster {
    pub(crate) fn new(registry: Registry, options: Options) -> Cluster {
        Cluster {
            servers: Servers::new(registry, options),
            meta: Mutex::default(),
            regions: Mutex::default(),
        }
    }

    /// Logs in now if the client uses Kerberos (see `Security::login`).
    pub(crate) async fn login(&self) -> Result<()> {
        let registry = self.servers.registry.to_string();
        self.servers.security.login(&registry).await
    }

    /// Where `hbase:meta` is: `host:port` of its region server.
    pub(crate) async fn meta_server(&self) -> Result<String> {
        let slot = lock(&self.meta).clone();
        slot.get_or_try_init(|| crate::locate::find_meta(&self.servers))
            .await
            .cloned()
    }

    /// The active master's `host:port`.
    pub(crate) async fn master(&self) -> Result<String> {
        crate::locate::find_master(&self.servers).await
    }

    /// `table`'s regions, looked up in `hbase:meta` if not known.
    pub(crate) async fn regions(&self, table: &str) -> Result<Arc<TableRegions>> {
        let slot = lock(&self.regions)
            .entry(table.to_owned())
            .or_default()
            .clone();
        slot.get_or_try_init(|| async {
            let meta = self.meta_server().await?;
            crate::locate::table_regions(&self.servers, &meta, table).await
        })
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
}

/// A cluster's calls go through its servers' connections.
impl std::ops::Deref for Cluster {
    type Target = Servers;

    fn deref(&self) -> &Servers {
        &self.servers
    }
}
