//! The blocking [`BigtableStore`], as `reqwest::blocking` is for reqwest:
//! the same operations, each run to completion on a runtime the store
//! owns; reads are iterators pulling one row at a time.
//!
//! Called on a thread that runs an async runtime (inside
//! `#[tokio::main]`, say), every operation returns
//! [`StoreError::InsideAsyncRuntime`] instead of blocking the runtime or
//! panicking: use the async [`crate::BigtableStore`] there.
//!
//! ```no_run
//! use rowkey_bigtable::blocking;
//! # #[derive(rowkey::RowKey)] struct Op { uid: u64, seq: u32 }
//! let store = blocking::connect_emulator("127.0.0.1:8086", "p", "i", "ops")?;
//! for row in store.query(&Op::scan().uid.eq(7).plan()?) {
//!     println!("{:?}", row?);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::admin::{BigtableAdmin, TableSpec, TableStatus};
use rowkey_store::blocking::{BlockOn, BlockingIndexedStore, BlockingStore};
use rowkey_store::StoreError;
use std::future::Future;

/// The blocking store.
pub type BigtableStore = BlockingStore<crate::BigtableStore, Runtime>;

/// The blocking [`IndexedStore`](rowkey_store::IndexedStore) over a
/// main table and an index table: connect both async stores on a
/// [`Runtime`] with [`Runtime::block_on`](BlockOn::block_on), then
/// [`BlockingIndexedStore::with_executor`] that runtime.
pub type IndexedBigtableStore =
    BlockingIndexedStore<crate::BigtableStore, crate::BigtableStore, Runtime>;

/// A tokio runtime of one thread that runs blocking calls; it refuses to
/// run on a thread that already runs a runtime.
#[derive(Debug)]
pub struct Runtime {
    runtime: Option<tokio::runtime::Runtime>,
}

impl Runtime {
    /// A new runtime.
    pub fn new() -> Result<Self, StoreError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| StoreError::backend("start the client runtime", e))?;
        Ok(Runtime {
            runtime: Some(runtime),
        })
    }
}

impl BlockOn for Runtime {
    fn block_on<F: Future>(&self, op: &'static str, future: F) -> Result<F::Output, StoreError> {
        if tokio::runtime::Handle::try_current().is_ok() {
            return Err(StoreError::InsideAsyncRuntime { op });
        }
        match &self.runtime {
            Some(rt) => Ok(rt.block_on(future)),
            None => Err(StoreError::backend(op, "the runtime was shut down")),
        }
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        // Dropping a runtime inside another panics: let it go quietly.
        if let Some(rt) = self.runtime.take() {
            if tokio::runtime::Handle::try_current().is_ok() {
                rt.shutdown_background();
            }
        }
    }
}

/// Connects as [`crate::BigtableStore::connect`] does, blocking.
pub fn connect(project: &str, instance: &str, table: &str) -> Result<BigtableStore, StoreError> {
    let rt = Runtime::new()?;
    let store = rt.block_on(
        "connect",
        crate::BigtableStore::connect(project, instance, table),
    )??;
    Ok(BlockingStore::with_executor(store, rt))
}

/// Connects as [`crate::BigtableStore::connect_emulator`] does, blocking.
pub fn connect_emulator(
    host: &str,
    project: &str,
    instance: &str,
    table: &str,
) -> Result<BigtableStore, StoreError> {
    let rt = Runtime::new()?;
    let store = rt.block_on(
        "connect",
        crate::BigtableStore::connect_emulator(host, project, instance, table),
    )??;
    Ok(BlockingStore::with_executor(store, rt))
}

/// Creates a table as [`BigtableAdmin::create_table`] does, blocking:
/// through the emulator at `emulator` when given, else as
/// [`BigtableAdmin::connect`] chooses.
pub fn create_table(
    emulator: Option<&str>,
    project: &str,
    instance: &str,
    spec: &TableSpec<'_>,
) -> Result<(), StoreError> {
    Runtime::new()?.block_on("create table", async {
        admin(emulator, project, instance)
            .await?
            .create_table(spec)
            .await
    })?
}

/// Creates a table if it is missing, as
/// [`BigtableAdmin::create_table_if_missing`] does (and compares what it
/// does), blocking; `emulator` as for [`create_table`].
pub fn create_table_if_missing(
    emulator: Option<&str>,
    project: &str,
    instance: &str,
    spec: &TableSpec<'_>,
) -> Result<TableStatus, StoreError> {
    Runtime::new()?.block_on("create table", async {
        admin(emulator, project, instance)
            .await?
            .create_table_if_missing(spec)
            .await
    })?
}

/// The admin API of the emulator at `emulator` when given, else as
/// [`BigtableAdmin::connect`] chooses.
async fn admin(
    emulator: Option<&str>,
    project: &str,
    instance: &str,
) -> Result<BigtableAdmin, StoreError> {
    match emulator {
        Some(host) => BigtableAdmin::connect_emulator(host, project, instance),
        None => BigtableAdmin::connect(project, instance).await,
    }
}
