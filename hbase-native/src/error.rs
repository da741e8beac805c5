//! [`Error`]: what a call to HBase can fail with, naming the server, the
//! region and HBase's exception where there are some.

use std::fmt;
use std::time::Duration;

/// An exception a region server or master answered with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteException {
    /// The Java class, such as
    /// `org.apache.hadoop.hbase.NotServingRegionException`.
    pub class: String,
    /// Its message (the first line of the server's stack trace).
    pub message: String,
    /// The server said that trying again will not help.
    pub do_not_retry: bool,
}

impl RemoteException {
    /// The class's simple name (`NotServingRegionException`).
    pub fn simple_class(&self) -> &str {
        self.class.rsplit('.').next().unwrap_or(&self.class)
    }

    /// A stale location: the region is elsewhere, or not open here yet.
    pub fn is_stale_location(&self) -> bool {
        matches!(
            self.simple_class(),
            "NotServingRegionException"
                | "RegionMovedException"
                | "RegionOpeningException"
                | "RegionServerStoppedException"
                | "ServerNotRunningYetException"
                | "RegionServerAbortedException"
        )
    }

    /// A scanner the server no longer holds (its region closed or moved,
    /// its lease expired, a call out of order): the scan reopens after
    /// its last row. HBase marks these "do not retry", meaning the same
    /// call: the reopened scan is another.
    pub fn is_scanner_lost(&self) -> bool {
        matches!(
            self.simple_class(),
            "UnknownScannerException"
                | "OutOfOrderScannerNextException"
                | "ScannerResetException"
                | "LeaseException"
        )
    }

    /// Worth trying again after a pause (perhaps elsewhere).
    pub fn is_retryable(&self) -> bool {
        if self.is_stale_location() || self.is_scanner_lost() {
            return true;
        }
        if self.do_not_retry {
            return false;
        }
        matches!(
            self.simple_class(),
            "RegionTooBusyException"
                | "CallQueueTooBigException"
                | "CallDroppedException"
                | "RetryImmediatelyException"
                | "PleaseHoldException"
                | "MultiActionResultTooLarge"
                | "CallTimeoutException"
                | "TimeoutIOException"
                | "NotAllMetaRegionsOnlineException"
                | "MasterNotRunningException"
                | "PleaseRestartMasterException"
        )
    }
}

impl fmt::Display for RemoteException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.message.is_empty() {
            write!(f, "{}", self.class)
        } else {
            write!(f, "{}: {}", self.class, self.message)
        }
    }
}

/// What failed, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The address given to `connect` is not one this client reads.
    InvalidAddress {
        /// As given.
        address: String,
        /// What is wrong with it.
        why: String,
    },
    /// ZooKeeper did not say where HBase is.
    ZooKeeper {
        /// The quorum, as given.
        quorum: String,
        /// What went wrong.
        why: String,
    },
    /// A connection to `server` could not be made or broke.
    Connection {
        /// `host:port`.
        server: String,
        /// What happened.
        why: String,
    },
    /// `server` did not answer within `after`.
    Timeout {
        /// `host:port`.
        server: String,
        /// The call (`Scan`, `Multi`, ...).
        call: &'static str,
        /// How long it waited.
        after: Duration,
    },
    /// `server` answered `call` with an exception.
    Remote {
        /// `host:port`.
        server: String,
        /// The region the call was for, when it was for one.
        region: Option<String>,
        /// The call.
        call: &'static str,
        /// What HBase said.
        exception: RemoteException,
    },
    /// `server` sent what HBase's protocol does not allow.
    Protocol {
        /// `host:port`.
        server: String,
        /// What was wrong.
        why: String,
    },
    /// The server wants what this client was not set up for: SASL
    /// (Kerberos without [`Options::kerberos`](crate::Options), tokens) or
    /// TLS.
    Unsupported {
        /// `host:port`.
        server: String,
        /// What it wants.
        what: String,
    },
    /// The Kerberos login or the SASL exchange with `server` failed: no
    /// ticket, an expired one, an unknown principal, a KDC that does not
    /// answer, a protection level the client does not allow, a delegation
    /// token refused. `why` says what to fix. Not retried: another try
    /// meets the same.
    Authentication {
        /// `host:port`.
        server: String,
        /// What failed, and what to do about it.
        why: String,
    },
    /// The TLS handshake with `server` failed for a reason another try
    /// meets again: a certificate not valid for the server's name or not
    /// signed by a trusted CA, a client certificate the server wants, a
    /// server that speaks plaintext. Not retried.
    Tls {
        /// `host:port`.
        server: String,
        /// What failed, and what to do about it.
        why: String,
    },
    /// Bytes that are no delegation token, or a cluster that gave none.
    InvalidToken {
        /// Why.
        why: String,
    },
    /// No such table.
    TableNotFound {
        /// Its name.
        table: String,
    },
    /// The table exists already (a create).
    TableExists {
        /// Its name.
        table: String,
    },
    /// The table's regions are moving, splitting or opening and did not
    /// settle in time.
    RegionsInTransition {
        /// The table.
        table: String,
        /// What was seen last.
        why: String,
    },
    /// A procedure on the master (create, disable, delete) failed.
    Procedure {
        /// What it was.
        what: String,
        /// Why it failed.
        why: String,
    },
    /// A scan HBase cannot run exactly, or that makes no sense.
    InvalidScan {
        /// Why.
        why: String,
    },
    /// A mutation that makes no sense (nothing to write, a check HBase
    /// would read otherwise than meant).
    InvalidMutation {
        /// Why.
        why: String,
    },
    /// A call that is not safe to repeat (a conditional mutation, an
    /// increment, an append) failed after it may have run: whether it was
    /// applied is not known, and it was not sent where it could run again
    /// (`outcome.rs` says when). It was applied at most once. Read the row
    /// to find out.
    OutcomeUnknown {
        /// The failure.
        last: Box<Error>,
    },
    /// The operation did not finish within its
    /// [operation timeout](crate::Options::operation_timeout): no try was
    /// started past it, and no call waited beyond it. It is not retried.
    OperationTimedOut {
        /// The timeout.
        timeout: Duration,
        /// How many tries were made.
        attempts: u32,
        /// The last failure.
        last: Box<Error>,
    },
    /// The call was tried `attempts` times; the last failure is `last`.
    RetriesExhausted {
        /// How many tries.
        attempts: u32,
        /// The last failure.
        last: Box<Error>,
    },
    /// The client was dropped, or its runtime went away, while a call ran.
    ClientClosed,
}

impl Error {
    /// A transient failure: the same call may work on another try (after
    /// the region's location is looked up again).
    pub fn is_retryable(&self) -> bool {
        match self {
            Error::Connection { .. }
            | Error::Timeout { .. }
            | Error::RegionsInTransition { .. } => true,
            Error::Remote { exception, .. } => exception.is_retryable(),
            _ => false,
        }
    }

    /// The cached location of a region (or of `hbase:meta`) may be
    /// wrong: look it up again before the next try.
    pub fn is_stale_location(&self) -> bool {
        match self {
            Error::Connection { .. } | Error::Timeout { .. } => true,
            Error::Remote { exception, .. } => exception.is_stale_location(),
            _ => false,
        }
    }

    /// The exception HBase answered with, if this is one (the last try's,
    /// after retries).
    pub fn remote(&self) -> Option<&RemoteException> {
        match self {
            Error::Remote { exception, .. } => Some(exception),
            Error::RetriesExhausted { last, .. } | Error::OperationTimedOut { last, .. } => {
                last.remote()
            }
            _ => None,
        }
    }

    /// The error of the last try, after retries.
    pub fn last(&self) -> &Error {
        match self {
            Error::RetriesExhausted { last, .. } | Error::OperationTimedOut { last, .. } => {
                last.last()
            }
            other => other,
        }
    }

    pub(crate) fn connection(server: &str, why: impl fmt::Display) -> Error {
        Error::Connection {
            server: server.to_owned(),
            why: why.to_string(),
        }
    }

    pub(crate) fn protocol(server: &str, why: impl fmt::Display) -> Error {
        Error::Protocol {
            server: server.to_owned(),
            why: why.to_string(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidAddress { address, why } => {
                write!(f, "cannot connect to {address:?}: {why}")
            }
            Error::ZooKeeper { quorum, why } => write!(f, "ZooKeeper at {quorum}: {why}"),
            Error::Connection { server, why } => write!(f, "connection to {server}: {why}"),
            Error::Timeout {
                server,
                call,
                after,
            } => write!(
                f,
                "{server} did not answer {call} within {:.1} s",
                after.as_secs_f64()
            ),
            Error::Remote {
                server,
                region,
                call,
                exception,
            } => {
                write!(f, "{call} on {server}")?;
                if let Some(region) = region {
                    write!(f, " (region {region})")?;
                }
                write!(f, ": {exception}")
            }
            Error::Protocol { server, why } => {
                write!(f, "{server} broke HBase's RPC protocol: {why}")
            }
            Error::Unsupported { server, what } => write!(f, "{server} asks for {what}"),
            Error::Authentication { server, why } => {
                write!(f, "authentication with {server} failed: {why}")
            }
            Error::Tls { server, why } => write!(f, "TLS with {server} failed: {why}"),
            Error::InvalidToken { why } => write!(f, "no delegation token: {why}"),
            Error::TableNotFound { table } => write!(f, "table {table} does not exist"),
            Error::TableExists { table } => write!(f, "table {table} exists already"),
            Error::RegionsInTransition { table, why } => {
                write!(f, "the regions of {table} did not settle: {why}")
            }
            Error::InvalidScan { why } => write!(f, "invalid scan: {why}"),
            Error::InvalidMutation { why } => write!(f, "invalid mutation: {why}"),
            Error::OutcomeUnknown { last } => write!(
                f,
                "the outcome is unknown (the call may have been applied, once at most; \
                 read what is there before trying again): {last}"
            ),
            Error::Procedure { what, why } => write!(f, "{what} failed on the master: {why}"),
            Error::RetriesExhausted { attempts, last } => {
                write!(f, "gave up after {attempts} tries: {last}")
            }
            Error::OperationTimedOut {
                timeout,
                attempts,
                last,
            } => write!(
                f,
                "the operation did not finish within its timeout of {:.1} s ({attempts} \
                 tries); the last: {last}",
                timeout.as_secs_f64()
            ),
            Error::ClientClosed => write!(f, "the HBase client was closed while the call ran"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::RetriesExhausted { last, .. }
            | Error::OperationTimedOut { last, .. }
            | Error::OutcomeUnknown { last } => Some(last.as_ref()),
            _ => None,
        }
    }
}

/// A result of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Cluster;
    use crate::options::{CallPolicy, Options};
    use std::sync::atomic::{AtomicU32, Ordering};

    fn remote(class: &str, do_not_retry: bool) -> Error {
        Error::Remote {
            server: "s:1".into(),
            region: None,
            call: "Multi",
            exception: RemoteException {
                class: format!("org.apache.hadoop.hbase.{class}"),
                message: String::new(),
                do_not_retry,
            },
        }
    }

    /// Every kind of error, and whether a call is tried again after it:
    /// the table docs/stores.md shows ("Errors of the native transport").
    fn kinds() -> Vec<(Error, bool)> {
        let e = || Box::new(Error::ClientClosed);
        let mut kinds = vec![
            (
                Error::InvalidAddress {
                    address: "x".into(),
                    why: "y".into(),
                },
                false,
            ),
            (
                Error::ZooKeeper {
                    quorum: "zk://a".into(),
                    why: "no znode".into(),
                },
                false,
            ),
            (Error::connection("s:1", "reset"), true),
            (
                Error::Timeout {
                    server: "s:1".into(),
                    call: "Scan",
                    after: Duration::from_secs(1),
                },
                true,
            ),
            (Error::protocol("s:1", "garbage"), false),
            (
                Error::Unsupported {
                    server: "s:1".into(),
                    what: "TLS".into(),
                },
                false,
            ),
            (
                Error::Authentication {
                    server: "s:1".into(),
                    why: "no ticket".into(),
                },
                false,
            ),
            (Error::InvalidToken { why: "x".into() }, false),
            (
                Error::Tls {
                    server: "s:1".into(),
                    why: "a name".into(),
                },
                false,
            ),
            (Error::TableNotFound { table: "t".into() }, false),
            (Error::TableExists { table: "t".into() }, false),
            (
                Error::RegionsInTransition {
                    table: "t".into(),
                    why: "a split".into(),
                },
                true,
            ),
            (
                Error::Procedure {
                    what: "create".into(),
                    why: "no".into(),
                },
                false,
            ),
            (Error::InvalidScan { why: "x".into() }, false),
            (Error::InvalidMutation { why: "x".into() }, false),
            (Error::OutcomeUnknown { last: e() }, false),
            (
                Error::RetriesExhausted {
                    attempts: 2,
                    last: e(),
                },
                false,
            ),
            (
                Error::OperationTimedOut {
                    timeout: Duration::from_secs(1),
                    attempts: 2,
                    last: e(),
                },
                false,
            ),
            (Error::ClientClosed, false),
        ];
        for class in [
            "NotServingRegionException",
            "RegionMovedException",
            "RegionOpeningException",
            "RegionServerStoppedException",
            "ServerNotRunningYetException",
            "RegionServerAbortedException",
            "UnknownScannerException",
            "OutOfOrderScannerNextException",
            "ScannerResetException",
            "LeaseException",
        ] {
            // A stale location or a lost scanner: tried again even when
            // HBase marks it "do not retry" (meaning the same call).
            kinds.push((remote(class, true), true));
        }
        for class in [
            "RegionTooBusyException",
            "CallQueueTooBigException",
            "CallDroppedException",
            "RetryImmediatelyException",
            "PleaseHoldException",
            "MultiActionResultTooLarge",
            "CallTimeoutException",
            "TimeoutIOException",
            "NotAllMetaRegionsOnlineException",
            "MasterNotRunningException",
            "PleaseRestartMasterException",
        ] {
            kinds.push((remote(class, false), true));
            kinds.push((remote(class, true), false));
        }
        for class in [
            "DoNotRetryIOException",
            "NoSuchColumnFamilyException",
            "OperationConflictException",
            "AccessDeniedException",
            "SomethingNobodyKnows",
        ] {
            kinds.push((remote(class, false), false));
        }
        kinds
    }

    #[tokio::test]
    async fn each_kind_of_error_is_retried_as_the_table_says() {
        let cluster = Cluster::new("zk://127.0.0.1:1".parse().unwrap(), Options::default());
        let policy = CallPolicy::new(3, Duration::ZERO, Duration::ZERO, Duration::from_secs(1));
        for (error, retried) in kinds() {
            assert_eq!(error.is_retryable(), retried, "{error:?}");
            let tries = AtomicU32::new(0);
            let got = cluster
                .retrying(&policy, Some("t"), || {
                    tries.fetch_add(1, Ordering::SeqCst);
                    let error = error.clone();
                    async move { Err::<(), _>(error) }
                })
                .await
                .unwrap_err();
            let tries = tries.load(Ordering::SeqCst);
            if retried {
                assert_eq!(tries, 3, "{error:?} is tried as often as allowed");
                assert!(
                    matches!(&got, Error::RetriesExhausted { attempts: 3, last } if **last == error),
                    "{got:?}"
                );
            } else {
                assert_eq!(tries, 1, "{error:?} is not tried again");
                assert_eq!(got, error);
            }
        }
    }
}
