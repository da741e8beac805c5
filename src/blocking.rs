//! Blocking stores for code that is not async, as `reqwest::blocking` is
//! for reqwest: the operations of [`Store`](crate::store::Store), each run
//! to completion on the calling thread; reads are iterators that pull one
//! row at a time.
//!
//! ```
//! use rowkey::blocking::MemStore;
//! use rowkey::store::Cell;
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct Op { uid: u64, seq: u32 }
//!
//! let store = MemStore::default();
//! for seq in 0..3 {
//!     store.put(&Op { uid: 1, seq }, vec![Cell::new("d", "v", "x")])?;
//! }
//! let rows = store.query(&Op::scan().uid.eq(1).plan()?).collect::<Result<Vec<_>, _>>()?;
//! assert_eq!(rows.len(), 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`IndexedMemStore`] (any [`BlockingIndexedStore`]) is the blocking
//! [`IndexedStore`](crate::store::IndexedStore): index queries are
//! iterators too. With the `bigtable` feature, `rowkey::bigtable::blocking`
//! has the blocking `BigtableStore` and `IndexedBigtableStore`.

pub use rowkey_core::store::blocking::{
    BlockOn, BlockingIndexedStore, BlockingStore, IndexRows, RecordRows, Rows,
};

use rowkey_core::store::StoreError;
use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::Thread;

/// The blocking [`MemStore`](crate::store::MemStore).
pub type MemStore = BlockingStore<crate::store::MemStore, ParkingExecutor>;

/// The blocking [`IndexedStore`](crate::store::IndexedStore) over two
/// [`MemStore`](crate::store::MemStore)s (main table, index table).
pub type IndexedMemStore =
    BlockingIndexedStore<crate::store::MemStore, crate::store::MemStore, ParkingExecutor>;

/// Runs a future on the calling thread, parking it while the future
/// waits. Enough for stores that need no I/O reactor, such as
/// [`MemStore`](crate::store::MemStore), whose futures never wait.
#[derive(Debug, Clone, Copy, Default)]
pub struct ParkingExecutor;

struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

impl BlockOn for ParkingExecutor {
    fn block_on<F: Future>(&self, _op: &'static str, future: F) -> Result<F::Output, StoreError> {
        let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
        let mut cx = Context::from_waker(&waker);
        let mut future = pin!(future);
        loop {
            if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
                return Ok(out);
            }
            std::thread::park();
        }
    }
}
