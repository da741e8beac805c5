//! [`ParkingExecutor`]: the executor of stores that need no I/O reactor,
//! and the blocking [`MemStore`] types driven by it.

use super::{BlockOn, BlockingIndexedStore, BlockingStore};
use crate::StoreError;
use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::Thread;

/// The blocking [`MemStore`](crate::MemStore).
pub type MemStore = BlockingStore<crate::MemStore, ParkingExecutor>;

/// The blocking [`IndexedStore`](crate::IndexedStore) over two
/// [`MemStore`](crate::MemStore)s (main table, index table).
pub type IndexedMemStore = BlockingIndexedStore<crate::MemStore, crate::MemStore, ParkingExecutor>;

/// Runs a future on the calling thread, parking it while the future
/// waits. Enough for stores that need no I/O reactor, such as
/// [`MemStore`](crate::MemStore), whose futures never wait.
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
