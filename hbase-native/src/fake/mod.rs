//! A hostile cluster for the client's own tests (issue 46): a fake
//! ZooKeeper and fake region servers on 127.0.0.1 that answer as a
//! [`Mode`] says (garbage, huge lengths, cut frames, wrong call ids, odd
//! exceptions, lying counts, rows out of place, short `Multi` answers,
//! silence), and tests that each mode ends in an error (or, where the
//! mode is benign, the right answer) within a bound, without a panic,
//! with memory following what the server sent rather than what it claimed.
//!
//! The cluster is three listeners: ZooKeeper ([`Zk`]), naming the meta
//! server; the meta server, serving `hbase:meta`'s scan as a [`Meta`]
//! says (one region of the whole table on the data server, unless a test
//! wants it broken); and the data server, holding the table's regions and
//! answering its calls as the [`Mode`] says. Each listener is a task of
//! the test's runtime; the client runs on its own, as it always does.

mod answers;
mod rs;
mod zk;

mod answer_tests;
mod frame_tests;
mod order_tests;
mod registry_tests;

use answers::Meta;
use rs::Mode;
use zk::Zk;

use crate::{Client, Error, Options, RowResult, Scan};
use futures_util::StreamExt;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// The table every fake serves.
const TABLE: &str = "t";
/// Tries of a call: enough to see retries, few enough to stay quick.
const ATTEMPTS: u32 = 3;
/// How long a call or a connection may take.
const TIMEOUT: Duration = Duration::from_millis(500);
/// No test may take longer than this, whatever the server does.
const BOUND: Duration = Duration::from_secs(10);

/// The client's options for a fake: short timeouts, a few quick retries.
fn options() -> Options {
    Options::default()
        .attempts(ATTEMPTS)
        .backoff_between(Duration::from_millis(10), Duration::from_millis(40))
        .call_timeout(TIMEOUT)
        .connect_timeout(TIMEOUT)
}

/// What the fake servers saw.
#[derive(Default)]
struct Stats {
    /// The data server's calls, by method, in order.
    calls: Mutex<Vec<String>>,
    /// Scans of `hbase:meta` opened.
    meta_scans: AtomicUsize,
    /// Connections the data server accepted.
    connections: AtomicUsize,
    /// Scanners the client closed on the data server.
    closed: AtomicUsize,
}

impl Stats {
    fn record(&self, method: &str) {
        self.calls
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(method.to_owned());
    }

    /// How many calls of `method` the data server had.
    fn calls(&self, method: &str) -> usize {
        let calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        calls.iter().filter(|m| *m == method).count()
    }

    fn meta_scans(&self) -> usize {
        self.meta_scans.load(Ordering::SeqCst)
    }
}

/// A fake cluster; its servers stop when it is dropped.
struct Fake {
    zk: String,
    stats: Arc<Stats>,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for Fake {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl Fake {
    /// An honest ZooKeeper and `hbase:meta`, and a data server in `mode`.
    async fn start(mode: Mode) -> Fake {
        Fake::with(Zk::Honest, Meta::Whole, mode).await
    }

    /// A cluster each of whose servers answers as told.
    async fn with(zk: Zk, meta: Meta, mode: Mode) -> Fake {
        let listen = || async { TcpListener::bind("127.0.0.1:0").await.expect("a port") };
        let (zk_listener, meta_listener, data_listener) =
            (listen().await, listen().await, listen().await);
        let address = |l: &TcpListener| l.local_addr().expect("bound").to_string();
        let zk_address = address(&zk_listener);
        let meta_port = meta_listener.local_addr().expect("bound").port();
        let rows = meta.rows(&address(&data_listener));
        let stats = Arc::new(Stats::default());
        let tasks = vec![
            tokio::spawn(zk::serve(zk_listener, zk, meta_port)),
            tokio::spawn(rs::serve(
                meta_listener,
                rs::Role::Meta(Arc::new(rows)),
                stats.clone(),
            )),
            tokio::spawn(rs::serve(
                data_listener,
                rs::Role::Data(Arc::new(mode)),
                stats.clone(),
            )),
        ];
        Fake {
            zk: zk_address,
            stats,
            tasks,
        }
    }

    /// The cluster's `zk://` address.
    fn address(&self) -> String {
        format!("zk://{}", self.zk)
    }

    /// A client of the cluster (its ZooKeeper must be honest).
    async fn client(&self) -> Client {
        Client::connect_with(&self.address(), options())
            .await
            .expect("the fake ZooKeeper names the meta server")
    }
}

/// `work`'s result and how long it took; the test fails if it takes
/// [`BOUND`] (a hang is a failure, never a stuck test run).
async fn timed<T>(what: &str, work: impl Future<Output = T>) -> (T, Duration) {
    let start = Instant::now();
    let out = tokio::time::timeout(BOUND, work)
        .await
        .unwrap_or_else(|_| panic!("{what}: no result within {BOUND:?}"));
    let took = start.elapsed();
    eprintln!("{what}: {took:.2?}");
    (out, took)
}

/// The rows a scan delivered before it ended, and the error it ended
/// with, if any.
async fn scan(client: &Client, scan: Scan) -> (Vec<Vec<u8>>, Option<Error>) {
    let mut stream = client.scan(TABLE, scan);
    let mut rows = Vec::new();
    while let Some(row) = stream.next().await {
        match row {
            Ok(RowResult { row, .. }) => rows.push(row),
            Err(e) => return (rows, Some(e)),
        }
    }
    (rows, None)
}

/// The last error of a call retried [`ATTEMPTS`] times.
#[track_caller]
fn exhausted(e: &Error) -> &Error {
    match e {
        Error::RetriesExhausted { attempts, last } => {
            assert_eq!(*attempts, ATTEMPTS, "{e}");
            last
        }
        other => panic!("expected the retries to run out, got {other:?}"),
    }
}

/// The error's text says `what`.
#[track_caller]
fn says(e: &Error, what: &str) {
    let text = e.to_string();
    assert!(text.contains(what), "{text:?} does not say {what:?}");
}
