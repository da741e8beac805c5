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
//!
//! **Connections are told apart.** A gateway's scanner ids are its own:
//! a restarted Thrift server numbers its scanners from 0 again, and two
//! servers behind one address (a load balancer) each number theirs, so an
//! id used on another connection reads somebody else's scan. Every
//! connection a slot opens gets a [`ConnectionId`] never used before, and
//! a job can be sent to the one slot that holds a connection
//! ([`Pool::run_then_on`], [`Pool::spawn_on`]); what is open on a
//! connection is used only while [`Slot::existing`] finds it still the
//! slot's connection, and forgotten (never closed elsewhere) when it
//! is gone.

use super::{Connection, Connector, GatewayError};
use futures_channel::oneshot;
use rowkey_store::StoreError;
use std::collections::VecDeque;
use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// A connection idle for at least this long is checked before reuse.
const CHECK_IDLE_AFTER: Duration = Duration::from_secs(1);

type Job<C> = Box<dyn FnOnce(&mut Slot<C>) + Send>;

/// One connection of one slot, unique for the life of the process: what
/// the server gave on it (scanner ids) means nothing on any other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct ConnectionId {
    /// The slot (thread) that holds it.
    pub(crate) slot: usize,
    /// Which of the slot's connections, counted across the process.
    serial: u64,
}

impl ConnectionId {
    /// An id no slot's connection has.
    #[cfg(test)]
    pub(crate) fn for_tests(slot: usize) -> Self {
        ConnectionId {
            slot,
            serial: u64::MAX,
        }
    }
}

/// The connection a job runs with: opened on demand, checked after idling.
pub(crate) struct Slot<C: Connector> {
    index: usize,
    connector: Arc<C>,
    connection: Option<Open<C::Connection>>,
    /// How long a new connection may wait on the server at any step: the
    /// retry policy of the call in hand ([`Slot::wait_at_most`]).
    timeout: Duration,
}

struct Open<T> {
    conn: T,
    used: Instant,
    id: ConnectionId,
}

impl<C: Connector> Slot<C> {
    /// The thread's connection: the one it has when it still looks open,
    /// else a new one.
    pub(crate) fn connection(&mut self) -> Result<&mut C::Connection, GatewayError> {
        Ok(self.connection_with_id()?.0)
    }

    /// [`connection`](Self::connection) and its id.
    pub(crate) fn connection_with_id(
        &mut self,
    ) -> Result<(&mut C::Connection, ConnectionId), GatewayError> {
        static SERIAL: AtomicU64 = AtomicU64::new(0);
        if let Some(open) = &self.connection {
            if open.used.elapsed() >= CHECK_IDLE_AFTER && !open.conn.is_open() {
                self.connection = None;
            }
        }
        if self.connection.is_none() {
            let conn = self.connector.connect(self.timeout)?;
            self.connection = Some(Open {
                conn,
                used: Instant::now(),
                id: ConnectionId {
                    slot: self.index,
                    serial: SERIAL.fetch_add(1, Ordering::Relaxed),
                },
            });
        }
        let open = self.connection.as_mut().expect("opened above");
        open.used = Instant::now();
        Ok((&mut open.conn, open.id))
    }

    /// Bounds every wait of the connections opened from now on (each
    /// call sets its own, from its retry policy).
    pub(crate) fn wait_at_most(&mut self, timeout: Duration) {
        self.timeout = timeout.max(Duration::from_millis(1));
    }

    /// The connection `id`, if it is still this slot's (none is opened).
    pub(crate) fn existing(&mut self, id: ConnectionId) -> Option<&mut C::Connection> {
        match &mut self.connection {
            Some(open) if open.id == id => Some(&mut open.conn),
            _ => None,
        }
    }

    /// This slot's number: jobs for its connection go to it.
    pub(crate) fn index(&self) -> usize {
        self.index
    }

    /// Drops the connection (after it failed): the next call opens one,
    /// and whatever was open on this one is forgotten.
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

/// What the handles share; dropping the last closes the queue.
struct Shared<C: Connector> {
    queue: Arc<Queue<C>>,
    size: usize,
}

impl<C: Connector> Drop for Shared<C> {
    fn drop(&mut self) {
        self.queue.lock().closed = true;
        self.queue.ready.notify_all();
    }
}

/// The jobs waiting, each for any slot or for one.
struct Queue<C: Connector> {
    jobs: Mutex<Jobs<C>>,
    ready: Condvar,
}

struct Jobs<C: Connector> {
    waiting: VecDeque<(Option<usize>, Job<C>)>,
    closed: bool,
}

impl<C: Connector> Queue<C> {
    fn lock(&self) -> MutexGuard<'_, Jobs<C>> {
        self.jobs.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn push(&self, slot: Option<usize>, job: Job<C>) -> Result<(), ()> {
        let mut jobs = self.lock();
        if jobs.closed {
            return Err(());
        }
        jobs.waiting.push_back((slot, job));
        drop(jobs);
        // A job for one slot must wake that slot's thread: wake them all
        // (a handful of threads, woken per call).
        match slot {
            None => self.ready.notify_one(),
            Some(_) => self.ready.notify_all(),
        }
        Ok(())
    }

    /// The next job slot `me` may run; `None` once the queue is closed and
    /// nothing is left for it.
    fn next(&self, me: usize) -> Option<Job<C>> {
        let mut jobs = self.lock();
        loop {
            let mine = jobs
                .waiting
                .iter()
                .position(|(slot, _)| slot.is_none_or(|s| s == me));
            if let Some(i) = mine {
                let (slot, job) = jobs.waiting.remove(i).expect("found above");
                if slot.is_none() && jobs.waiting.iter().any(|(s, _)| s.is_none()) {
                    // Another thread may be idle while jobs for any wait.
                    self.ready.notify_one();
                }
                return Some(job);
            }
            if jobs.closed {
                return None;
            }
            jobs = self
                .ready
                .wait(jobs)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

impl<C: Connector> Pool<C> {
    /// `size` connections (at least 1) to what `connector` opens.
    pub(crate) fn new(connector: C, size: usize, timeout: Duration) -> Result<Self, StoreError> {
        let size = size.max(1);
        let connector = Arc::new(connector);
        let queue = Arc::new(Queue {
            jobs: Mutex::new(Jobs {
                waiting: VecDeque::new(),
                closed: false,
            }),
            ready: Condvar::new(),
        });
        for index in 0..size {
            let queue = queue.clone();
            let mut slot = Slot {
                index,
                connector: connector.clone(),
                connection: None,
                timeout,
            };
            std::thread::Builder::new()
                .name(format!("rowkey-hbase-{index}"))
                .spawn(move || {
                    while let Some(job) = queue.next(index) {
                        // Each job's own policy, or the client's.
                        slot.timeout = timeout;
                        // A panic in a job loses that job's answer (its
                        // caller sees the pool's error), not the thread.
                        if catch_unwind(AssertUnwindSafe(|| job(&mut slot))).is_err() {
                            slot.discard();
                        }
                    }
                })
                .map_err(|e| StoreError::backend("start the connection pool", e))?;
        }
        Ok(Pool {
            shared: Arc::new(Shared { queue, size }),
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
        self.run_then_on(
            None,
            op,
            move |slot| (job(slot), |_: &mut Slot<C>| {}),
            orphan,
        )
    }

    /// [`run`](Self::run) a `job` on slot `on` (any slot for `None`) that
    /// also leaves work for after its result is sent (closing a scanner
    /// it has read to its end): the caller has its rows one round trip
    /// sooner.
    pub(crate) fn run_then_on<R, F, O, A>(
        &self,
        on: Option<usize>,
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
        let sent = self.shared.queue.push(
            on.filter(|&slot| slot < self.shared.size),
            Box::new(move |slot: &mut Slot<C>| {
                let (result, after) = job(slot);
                if let Err(result) = tx.send(result) {
                    orphan(result, slot);
                }
                after(slot);
            }),
        );
        async move {
            sent.map_err(|()| StoreError::backend(op, "the connection pool has stopped"))?;
            rx.await.map_err(|_| {
                StoreError::backend(op, "a connection's thread failed during the call")
            })
        }
    }

    /// Runs `job` on slot `on` (any for `None`) without waiting for it.
    pub(crate) fn spawn_on(
        &self,
        on: Option<usize>,
        job: impl FnOnce(&mut Slot<C>) + Send + 'static,
    ) {
        // A pool that stopped has no connection to run it on.
        let _ = self
            .shared
            .queue
            .push(on.filter(|&slot| slot < self.shared.size), Box::new(job));
    }
}
