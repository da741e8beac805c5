//! The proxy's clients: `CreateClient` makes one (a [`BigtableStore`]
//! connection to the data target, with the app profile and operation
//! timeout asked for), `CloseClient` makes it refuse new requests (those
//! in flight finish), `RemoveClient` forgets it.

use crate::proto::google::bigtable::testproxy::CreateClientRequest;
use rowkey_bigtable::BigtableStore;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;
use tonic::Status;

/// The table a client's store is made for: every request names its own
/// table, and is served by [`BigtableStore::for_table`].
const NO_TABLE: &str = "-";

/// One client: its store, and whether it was closed.
#[derive(Clone)]
struct Client {
    store: BigtableStore,
    closed: bool,
}

/// The clients by id.
#[derive(Default)]
pub struct Clients {
    clients: Mutex<HashMap<String, Client>>,
}

impl Clients {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Client>> {
        self.clients.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Makes the client a `CreateClient` asks for.
    pub async fn create(&self, request: CreateClientRequest) -> Result<(), Status> {
        if request.client_id.is_empty() {
            return Err(Status::invalid_argument("a client needs an id"));
        }
        if self.lock().contains_key(&request.client_id) {
            return Err(Status::already_exists(format!(
                "client {:?} exists already",
                request.client_id
            )));
        }
        if let Some(security) = &request.security_options {
            if security.use_ssl || !security.access_token.is_empty() {
                return Err(Status::unimplemented(
                    "this proxy connects to plaintext data targets only (mock servers, \
                     the emulator): TLS and access tokens are not supported",
                ));
            }
        }
        let host = match request.data_target.as_str() {
            "emulator" => std::env::var("BIGTABLE_EMULATOR_HOST").map_err(|_| {
                Status::failed_precondition(
                    "data target \"emulator\", but BIGTABLE_EMULATOR_HOST is not set",
                )
            })?,
            "" => return Err(Status::invalid_argument("no data target")),
            target => target.to_owned(),
        };
        let mut store = BigtableStore::connect_emulator(
            &host,
            &request.project_id,
            &request.instance_id,
            NO_TABLE,
        )
        .await
        .map_err(|e| Status::unavailable(format!("connecting to {host}: {e}")))?;
        if !request.app_profile_id.is_empty() {
            store = store.with_app_profile(&request.app_profile_id);
        }
        if let Some(timeout) = request.per_operation_timeout {
            let timeout = u64::try_from(timeout.seconds)
                .ok()
                .zip(u32::try_from(timeout.nanos).ok())
                .map(|(s, n)| Duration::new(s, 0) + Duration::from_nanos(n.into()))
                .filter(|t| !t.is_zero())
                .ok_or_else(|| {
                    Status::invalid_argument(format!(
                        "per_operation_timeout {timeout:?} is not a positive duration"
                    ))
                })?;
            store = store.with_operation_timeout(timeout);
        }
        let mut clients = self.lock();
        if clients.contains_key(&request.client_id) {
            return Err(Status::already_exists(format!(
                "client {:?} exists already",
                request.client_id
            )));
        }
        clients.insert(
            request.client_id,
            Client {
                store,
                closed: false,
            },
        );
        Ok(())
    }

    /// The store of client `id` for `table`, unless the client is closed
    /// or unknown.
    pub fn store(&self, id: &str, table: &str) -> Result<BigtableStore, Status> {
        if table.is_empty() {
            return Err(Status::invalid_argument("the request names no table"));
        }
        match self.lock().get(id) {
            None => Err(Status::not_found(format!("no client {id:?}"))),
            Some(c) if c.closed => Err(Status::failed_precondition(format!(
                "client {id:?} is closed: it takes no new requests"
            ))),
            Some(c) => Ok(c.store.for_table(table)),
        }
    }

    /// Closes client `id`: requests in flight go on, new ones are refused.
    pub fn close(&self, id: &str) -> Result<(), Status> {
        match self.lock().get_mut(id) {
            Some(c) => {
                c.closed = true;
                Ok(())
            }
            None => Err(Status::not_found(format!("no client {id:?}"))),
        }
    }

    /// Forgets client `id`.
    pub fn remove(&self, id: &str) -> Result<(), Status> {
        match self.lock().remove(id) {
            Some(_) => Ok(()),
            None => Err(Status::not_found(format!("no client {id:?}"))),
        }
    }
}
