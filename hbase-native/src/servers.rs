//! [`Servers`]: the connections a client holds, one per server and
//! service, and calls over them. The bottom of the client: location
//! (`locate.rs`, `scanner.rs`) calls through it, and the cluster's caches
//! (`cluster.rs`) sit above both.

use crate::address::Registry;
use crate::connection::Connection;
use crate::error::Result;
use crate::options::Options;
use crate::proto;
use crate::transport::Security;
use prost::Message;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::OnceCell;

/// The services a client talks to.
pub(crate) const CLIENT_SERVICE: &str = "ClientService";
pub(crate) const MASTER_SERVICE: &str = "MasterService";
pub(crate) const META_SERVICE: &str = "ClientMetaService";

pub(crate) type Slot<T> = Arc<OnceCell<T>>;

/// How to reach a cluster's servers, and the connections open to them.
pub(crate) struct Servers {
    pub(crate) options: Options,
    pub(crate) registry: Registry,
    pub(crate) security: Security,
    connections: Mutex<HashMap<(String, &'static str), Slot<Connection>>>,
}

impl Servers {
    pub(crate) fn new(registry: Registry, options: Options) -> Servers {
        Servers {
            security: Security::new(&options),
            options,
            registry,
            connections: Mutex::default(),
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
                        &self.security,
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
