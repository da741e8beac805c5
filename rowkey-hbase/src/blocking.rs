//! The blocking [`HBaseStore`](crate::HBaseStore), as `reqwest::blocking`
//! is for reqwest: the same operations, each run to completion on the
//! calling thread; reads are iterators pulling one row at a time.
//!
//! Either transport works: the native client runs on a runtime of its
//! own and the Thrift calls on the client's own threads, so the calling
//! thread only waits: no async runtime is started or needed.
//!
//! ```no_run
//! use rowkey_hbase::blocking;
//! # #[derive(rowkey::RowKey)] struct Op { uid: u64, seq: u32 }
//! // Natively; a Thrift 1 server's `"127.0.0.1:9090"` works the same way.
//! let store = blocking::connect("zk://127.0.0.1:2181/hbase", "ops")?;
//! for row in store.query(&Op::scan().uid.eq(7).plan()?) {
//!     println!("{:?}", row?);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use rowkey_store::blocking::{BlockOn, BlockingIndexedStore, BlockingStore, ParkingExecutor};
use rowkey_store::StoreError;

/// The blocking store.
pub type HBaseStore = BlockingStore<crate::HBaseStore, ParkingExecutor>;

/// The blocking [`IndexedStore`](rowkey_store::IndexedStore) over a main
/// table and an index table of one client.
pub type IndexedHBaseStore =
    BlockingIndexedStore<crate::HBaseStore, crate::HBaseStore, ParkingExecutor>;

/// Connects as [`crate::HBaseStore::connect`] does, blocking.
pub fn connect(address: &str, table: &str) -> Result<HBaseStore, StoreError> {
    let store =
        ParkingExecutor.block_on("connect", crate::HBaseStore::connect(address, table))??;
    Ok(BlockingStore::with_executor(store, ParkingExecutor))
}

/// Connects a client as [`crate::HBaseClient::connect`] does, blocking;
/// make blocking stores of its tables with
/// [`BlockingStore::with_executor`]`(client.table(..), ParkingExecutor)`.
pub fn client(address: &str) -> Result<crate::HBaseClient, StoreError> {
    ParkingExecutor.block_on("connect", crate::HBaseClient::connect(address))?
}

/// Runs an admin call (or any future of this crate) to completion on the
/// calling thread.
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    ParkingExecutor
        .block_on("block on", future)
        .expect("the parking executor always runs the future")
}
