//! [`Pool`]: a bounded set of gateway connections, each owned by a thread
//! of its own that runs the blocking calls handed to it. Async callers
//! never block: a call is a job sent to the threads, and its result comes
//! back on a oneshot channel, so the store works on any executor (tokio's
//! runtimes, `futures::executor`, the blocking facade's parking one).
//!
//! Connections open on first use, and a connection left idle is checked
//! before it is used again ([`Connection::is_open`]): HBase's Thrift
//! server closes a socket that has been silent for its read timeout (60 s
//! by default), and a call on such a socket would fail. A connection that
//! failed is dropped and the next call opens a new one.

use super::{Connection, Connector, GatewayError};
use futures_channel::oneshot;
use rowkey_store::StoreError;
use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A connection idle for at least this long is checked before reuse.
const CHECK_IDLE_AFTER: Duration = Duration::from_secs(1);

type Job<C> = Box<dyn FnOnce(&mut Slot<C>) + Send>;

/// The connection a job runs with: opened on demand, checked after idling.
pub(crate) struct Slot<C: Connector> {
    connector: Arc<C>,
    connection: Option<(C::Connection, Instant)>,
}

impl<C: Connector> Slot<C> {
    /// The thread's connection: the one it has when it still looks open,
    /// else a new one.
    pub(crate) fn connection(&mut self) -> Result<&mut C::Connection, GatewayError> {
        if let Some((c, used)) = &self.connection {
            if used.elapsed() >= CHECK_IDLE_AFTER && !c.is_open() {
                self.connection = None;
            }
        }
        if self.connection.is_none() {
            self.connection = Some((self.connector.connect()?, Instant::now()));
        }
        let (c, used) = self.connection.as_mut().expect("opened above");
        *used = Instant::now();
        Ok(c)
    }

    /// Drops the connection (after it failed): the next call opens one.
    pub(crate) fn discard(&mut self) {
        self.connection = None;
    }
}

/// A handle on the connections' threads; clones share them. The threads
/// stop (closing their connections) when the last handle is dropped and
/// the jobs sent before have run.
pub(crate) struct Pool<C: Connector> {
    shared: Arc<Shared<C>>,
}

impl<C: Connector> Clone for Pool<C> {
    fn clone(&self) -> Self {
        Pool {
            shared: self.shared.clone(),
        }
    }
}

struct Shared<C: Connector> {
    jobs: mpsc::Sender<Job<C>>,
    size: usize,
}

impl<C: Connector> Pool<C> {
    /// `size` connections (at least 1) to what `connector` opens.
    pub(crate) fn new(connector: C, size: usize) -> Result<Self, StoreError> {
        let size = size.max(1);
        let connector = Arc::new(connector);
        let (jobs, queue) = mpsc::channel::<Job<C>>();
        let queue = Arc::new(Mutex::new(queue));
        for n in 0..size {
            let queue = queue.clone();
            let mut slot = Slot {
                connector: connector.clone(),
                connection: None,
            };
            std::thread::Builder::new()
                .name(format!("rowkey-hbase-{n}"))
                .spawn(move || loop {
                    // The lock is held only while waiting for a job.
                    let job = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
                    let Ok(job) = job else { return };
                    // A panic in a job loses that job's answer (its caller
                    // sees the pool's error), not the thread.
                    if catch_unwind(AssertUnwindSafe(|| job(&mut slot))).is_err() {
                        slot.discard();
                    }
                })
                .map_err(|e| StoreError::backend("start the connection pool", e))?;
        }
        Ok(Pool {
            shared: Arc::new(Shared { jobs, size }),
        })
    }

    /// How many connections the pool holds at most.
    pub(crate) fn size(&self) -> usize {
        self.shared.size
    }

    /// Runs `job` on a connection's thread; its result, once it has run.
    /// If the caller stops waiting (the future is dropped), `orphan` gets
    /// the result on that thread, to release what it holds (an open
    /// scanner).
    pub(crate) fn run<R, F, O>(
        &self,
        op: &'static str,
        job: F,
        orphan: O,
    ) -> impl Future<Output = Result<R, StoreError>> + Send + 'static
    where
        R: Send + 'static,
        F: FnOnce(&mut Slot<C>) -> R + Send + 'static,
        O: FnOnce(R, &mut Slot<C>) + Send + 'static,
    {
        self.run_then(op, move |slot| (job(slot), |_: &mut Slot<C>| {}), orphan)
    }

    /// [`run`](Self::run) a `job` that also leaves work for after its
    /// result is sent (closing a scanner it has read to its end): the
    /// caller has its rows one round trip sooner.
    pub(crate) fn run_then<R, F, O, A>(
        &self,
        op: &'static str,
        job: F,
        orphan: O,
    ) -> impl Future<Output = Result<R, StoreError>> + Send + 'static
    where
        R: Send + 'static,
        F: FnOnce(&mut Slot<C>) -> (R, A) + Send + 'static,
        O: FnOnce(R, &mut Slot<C>) + Send + 'static,
        A: FnOnce(&mut Slot<C>),
    {
        let (tx, rx) = oneshot::channel();
        let sent = self.shared.jobs.send(Box::new(move |slot: &mut Slot<C>| {
            let (result, after) = job(slot);
            if let Err(result) = tx.send(result) {
                orphan(result, slot);
            }
            after(slot);
        }));
        async move {
            sent.map_err(|_| StoreError::backend(op, "the connection pool has stopped"))?;
            rx.await.map_err(|_| {
                StoreError::backend(op, "a connection's thread failed during the call")
            })
        }
    }

    /// Runs `job` on a connection's thread without waiting for it.
    pub(crate) fn spawn(&self, job: impl FnOnce(&mut Slot<C>) + Send + 'static) {
        // A pool that stopped has no connection to run it on.
        let _ = self.shared.jobs.send(Box::new(job));
    }
}
