//! What any HBase gateway shares, whatever its wire: a pool of blocking
//! connections on threads of their own ([`pool`]), the scanner loop that
//! resumes after the last row it delivered ([`read`]), batched point reads
//! ([`get`]), batched writes and deletes ([`write`]), retries ([`retry`]) and the errors a connection
//! reports ([`GatewayError`]).
//!
//! A gateway's wire (HBase's Thrift 1 server today, `crate::thrift1`)
//! implements [`Connector`] and [`Connection`]: open a connection, open,
//! advance and close a scanner, get rows by key, write and delete rows, list a table's
//! families, and tell cheaply whether an idle connection is still open.
//! Thrift 2 would add a module beside `thrift1`, not a copy of this one.

pub(crate) mod atomic;
pub(crate) mod get;
pub(crate) mod parked;
pub(crate) mod pool;
pub(crate) mod read;
pub(crate) mod retry;
pub(crate) mod write;

use pool::Pool;
use rowkey_store::{BoxError, Cell, CellSlice, Columns, RetryPolicy, Row, StoreError};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// Why a call on a connection failed, as the gateway loops need to know
/// it: retry on a new connection, reopen the scanner, or give up with a
/// precise error.
#[derive(Debug)]
pub(crate) enum GatewayError {
    /// The connection failed, broke or timed out: the call may succeed on
    /// a new connection.
    Transport(BoxError),
    /// The server asked for a retry (HBase's `IOError.canRetry`).
    Retryable(String),
    /// The server no longer knows the scanner (its lease expired, or the
    /// region moved): reopen it after the last row delivered.
    ScannerLost(String),
    /// The table does not exist.
    NoSuchTable,
    /// The table has no such column family.
    NoSuchFamily(String),
    /// The server is not the one expected (another protocol, transport or
    /// service): what was expected and what was seen.
    WrongServer(String),
    /// The server refused the call for good (its message).
    Refused(String),
    /// The server answered what the call cannot have asked for (a row
    /// outside the scanner's range, or out of order): the answer is
    /// dropped whole, never taken as rows, and the connection with it.
    Inconsistent(String),
    /// An answer that cannot be read as rows.
    Store(StoreError),
}

impl GatewayError {
    /// Whether the call may succeed if made again.
    pub(crate) fn is_transient(&self) -> bool {
        matches!(
            self,
            GatewayError::Transport(_) | GatewayError::Retryable(_) | GatewayError::ScannerLost(_)
        )
    }

    /// Whether the connection it came on is done for: dropped, and
    /// whatever was open on it (scanners) forgotten.
    pub(crate) fn breaks_connection(&self) -> bool {
        matches!(
            self,
            GatewayError::Transport(_)
                | GatewayError::WrongServer(_)
                | GatewayError::Inconsistent(_)
        )
    }

    /// The store error for `op` on `table` after `attempts` attempts.
    pub(crate) fn into_store_error(
        self,
        op: &'static str,
        table: &str,
        attempts: u32,
    ) -> StoreError {
        let transient = self.is_transient();
        let source: BoxError = match self {
            GatewayError::NoSuchTable => {
                return StoreError::NoSuchTable {
                    op,
                    table: table.to_owned(),
                }
            }
            GatewayError::NoSuchFamily(family) => {
                return StoreError::NoSuchFamily {
                    op,
                    table: table.to_owned(),
                    family,
                }
            }
            GatewayError::Store(e) => return e,
            GatewayError::Transport(e) => e,
            GatewayError::Retryable(m)
            | GatewayError::ScannerLost(m)
            | GatewayError::WrongServer(m)
            | GatewayError::Inconsistent(m)
            | GatewayError::Refused(m) => m.into(),
        };
        let e = if transient {
            StoreError::transient(op, source)
        } else {
            StoreError::backend(op, source)
        };
        e.after_attempts(attempts)
    }
}

impl fmt::Display for GatewayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GatewayError::Transport(e) => write!(f, "connection failed: {e}"),
            GatewayError::Retryable(m)
            | GatewayError::ScannerLost(m)
            | GatewayError::WrongServer(m)
            | GatewayError::Inconsistent(m)
            | GatewayError::Refused(m) => f.write_str(m),
            GatewayError::NoSuchTable => f.write_str("no such table"),
            GatewayError::NoSuchFamily(family) => write!(f, "no column family {family:?}"),
            GatewayError::Store(e) => fmt::Display::fmt(e, f),
        }
    }
}

/// One scanner's bounds as the server reads them: from `start_row`
/// (inclusive; empty: the table's first row, or its last when reversed)
/// to `stop_row` (exclusive; `None`: the table's end, or its start when
/// reversed), and the cells to return.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ServerScan {
    pub(crate) start_row: Vec<u8>,
    pub(crate) stop_row: Option<Vec<u8>>,
    pub(crate) reversed: bool,
    /// Only these cells (and only rows with one of them).
    pub(crate) columns: Option<Columns>,
    /// Only the cells of this slice (its family, qualifier ranges and
    /// per-row cap go to the server; the reader checks them again).
    pub(crate) cells: Option<CellSlice>,
    /// Rows per round trip between the gateway and the region server.
    pub(crate) caching: u32,
}

/// A server-side scanner's id.
pub(crate) type ScannerId = i32;

/// One open connection to a gateway. Calls block; the pool runs them on
/// threads of its own.
pub(crate) trait Connection: Send + 'static {
    /// Opens a scanner on `table`.
    fn open_scanner(&mut self, table: &str, scan: &ServerScan) -> Result<ScannerId, GatewayError>;
    /// Up to `n` more rows of a scanner; fewer than `n` only at its end.
    fn next_rows(&mut self, scanner: ScannerId, n: u32) -> Result<Vec<Row>, GatewayError>;
    /// Closes a scanner (the server frees it).
    fn close_scanner(&mut self, scanner: ScannerId) -> Result<(), GatewayError>;
    /// The rows of `keys` (sorted, distinct) that exist, in their order,
    /// with only `columns` when given: one multi-get.
    fn get_rows(
        &mut self,
        table: &str,
        keys: &[Vec<u8>],
        columns: Option<&Columns>,
    ) -> Result<Vec<Row>, GatewayError>;
    /// Writes rows (keys distinct), each all or nothing, every cell (and
    /// every clear) stamped `stamp` (milliseconds).
    fn put_rows(&mut self, table: &str, rows: &[Row], stamp: i64) -> Result<(), GatewayError>;
    /// Deletes every cell of these rows in `families` stamped at or
    /// before `stamp`.
    fn delete_rows(
        &mut self,
        table: &str,
        keys: &[Vec<u8>],
        families: &[String],
        stamp: i64,
    ) -> Result<(), GatewayError>;
    /// The table's column families.
    fn families(&mut self, table: &str) -> Result<Vec<String>, GatewayError>;
    /// Sets `put` in row `key` if cell `family:qualifier` holds `expected`
    /// (empty: is absent or empty, as HBase reads an empty expected
    /// value), as one step of the server, at the server's time; whether
    /// it did.
    fn check_and_put(
        &mut self,
        table: &str,
        key: &[u8],
        checked: (&str, &[u8]),
        expected: &[u8],
        put: &Cell,
    ) -> Result<bool, GatewayError>;
    /// Adds `by` to the 8-byte counter `family:qualifier` of row `key`;
    /// the new count.
    fn increment(
        &mut self,
        table: &str,
        key: &[u8],
        column: (&str, &[u8]),
        by: i64,
    ) -> Result<i64, GatewayError>;
    /// Appends each cell's value to its column of row `key` (columns
    /// distinct), as one step; the new values, in the order of `cells`.
    fn append(
        &mut self,
        table: &str,
        key: &[u8],
        cells: &[Cell],
    ) -> Result<Vec<Vec<u8>>, GatewayError>;
    /// Whether the connection still looks open, without a round trip (an
    /// idle connection the server closed reads as closed).
    fn is_open(&self) -> bool;
    /// A call that hears nothing for `timeout` fails (a stalled server).
    fn set_idle_timeout(&mut self, timeout: Duration) -> Result<(), GatewayError>;
}

/// Opens connections to one gateway.
pub(crate) trait Connector: Send + Sync + 'static {
    /// The connections it opens.
    type Connection: Connection;
    /// A new connection, checked to be the gateway expected, its every
    /// wait (connecting, the first call, every later call) at most
    /// `timeout`.
    fn connect(&self, timeout: Duration) -> Result<Self::Connection, GatewayError>;
}

/// Where a store's calls go: its pool, its table, its retries.
pub(crate) struct Target<C: Connector> {
    pub(crate) pool: Pool<C>,
    /// The client's parked scanners (shared by its tables' stores).
    pub(crate) parked: Arc<parked::Parked>,
    /// The client's writes (shared by its tables' stores): moved around
    /// each write and delete.
    pub(crate) epoch: Arc<rowkey_store::WriteEpoch>,
    /// The client's write stamps (shared by its tables' stores).
    pub(crate) clock: Arc<rowkey_store::WriteClock>,
    pub(crate) table: Arc<str>,
    pub(crate) retry: RetryPolicy,
    /// The most rows one round trip of a read asks for.
    pub(crate) page_rows: u32,
}

impl<C: Connector> Clone for Target<C> {
    fn clone(&self) -> Self {
        Target {
            pool: self.pool.clone(),
            parked: self.parked.clone(),
            epoch: self.epoch.clone(),
            clock: self.clock.clone(),
            table: self.table.clone(),
            retry: self.retry,
            page_rows: self.page_rows,
        }
    }
}
