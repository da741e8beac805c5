//! hbase-thrift's errors as the gateway loops need them.
//!
//! HBase's Thrift 1 handler reports a server-side failure as an `IOError`
//! whose message is the Java exception's whole stack trace and whose
//! `canRetry` says whether it is worth retrying; the exception's class
//! names what went wrong (`TableNotFoundException`,
//! `NoSuchColumnFamilyException`, `UnknownScannerException`).

use crate::gateway::GatewayError;
use hbase_thrift::hbase::{AlreadyExists, IOError, IllegalArgument};
use thrift::{ApplicationErrorKind, Error, TransportErrorKind};

/// `e`, from a call that was not the first on a connection whose calls
/// wait at most `timeout`.
pub(crate) fn from_thrift_within(e: Error, timeout: Option<std::time::Duration>) -> GatewayError {
    match e {
        Error::Transport(t) => {
            let m = t.message.to_ascii_lowercase();
            let why = if is_timeout(&t) {
                match timeout {
                    Some(t) => format!(
                        "no answer within {} s (the retry policy's idle timeout): a stopped or \
                         stalled server or network",
                        t.as_secs_f32()
                    ),
                    None => {
                        "no answer within the idle timeout (a stalled server or network)".to_owned()
                    }
                }
            } else if t.kind == TransportErrorKind::EndOfFile || m.contains("eof") {
                "the server closed the connection".to_owned()
            } else {
                format!("the connection failed: {}", t.message)
            };
            GatewayError::Transport(format!("HBase's Thrift server: {why}").into())
        }
        // Bytes that do not parse: the connection is out of step, as
        // good as broken.
        Error::Protocol(p) => GatewayError::Transport(
            format!(
                "HBase's Thrift server: an answer that does not parse: {}",
                p.message
            )
            .into(),
        ),
        Error::Application(a) => match a.kind {
            ApplicationErrorKind::UnknownMethod => GatewayError::WrongServer(format!(
                "the server does not know a Thrift 1 call ({}): it is not HBase's Thrift 1 server",
                a.message
            )),
            _ => GatewayError::Refused(format!("HBase's Thrift server failed: {}", a.message)),
        },
        Error::User(user) => {
            if let Some(io) = user.downcast_ref::<IOError>() {
                return from_io_error(io);
            }
            if let Some(arg) = user.downcast_ref::<IllegalArgument>() {
                let message = arg.message.clone().unwrap_or_default();
                if message.contains("scanner ID is invalid") {
                    return GatewayError::ScannerLost(message);
                }
                return GatewayError::Refused(first_line(&message));
            }
            if let Some(exists) = user.downcast_ref::<AlreadyExists>() {
                return GatewayError::Refused(format!(
                    "already exists: {}",
                    exists.message.as_deref().unwrap_or("")
                ));
            }
            GatewayError::Refused(user.to_string())
        }
    }
}

/// Whether a transport error is a socket's read or write timeout: Linux
/// reports one as `EAGAIN` ("Resource temporarily unavailable"), which
/// thrift turns into an `Unknown` transport error, not `TimedOut`.
pub(crate) fn is_timeout(t: &thrift::TransportError) -> bool {
    let m = t.message.to_ascii_lowercase();
    t.kind == TransportErrorKind::TimedOut
        || m.contains("timed out")
        || m.contains("temporarily unavailable")
        || m.contains("would block")
}

fn from_io_error(io: &IOError) -> GatewayError {
    let message = io.message.as_deref().unwrap_or("");
    if message.contains("TableNotFoundException") {
        return GatewayError::NoSuchTable;
    }
    if message.contains("NoSuchColumnFamilyException") {
        return GatewayError::NoSuchFamily(family_in(message));
    }
    if [
        "UnknownScannerException",
        "LeaseException",
        "OutOfOrderScannerNextException",
    ]
    .iter()
    .any(|name| message.contains(name))
    {
        return GatewayError::ScannerLost(first_line(message));
    }
    if io.can_retry == Some(true) {
        return GatewayError::Retryable(first_line(message));
    }
    GatewayError::Refused(first_line(message))
}

/// The family a `NoSuchColumnFamilyException` names: "Column family X
/// does not exist in region ..." (HBase 2), or "... family X does not
/// exist" in other wordings.
fn family_in(message: &str) -> String {
    let after = message
        .find("Column family ")
        .map(|i| &message[i + "Column family ".len()..])
        .or_else(|| {
            message
                .find("family ")
                .map(|i| &message[i + "family ".len()..])
        });
    after
        .and_then(|rest| rest.split_whitespace().next())
        .map(|f| f.trim_matches(|c| c == '\'' || c == '"').to_owned())
        .unwrap_or_else(|| first_line(message))
}

/// The first line of a Java stack trace: the exception and its message.
fn first_line(message: &str) -> String {
    message.lines().next().unwrap_or("").trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_name_what_went_wrong() {
        let io = |m: &str, retry| {
            from_thrift_within(
                Error::User(Box::new(IOError::new(m.to_owned(), retry))),
                None,
            )
        };
        assert!(matches!(
            io(
                "org.apache.hadoop.hbase.TableNotFoundException: t\n\tat x",
                false
            ),
            GatewayError::NoSuchTable
        ));
        match io(
            "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: Column family x does not exist in region t,,1.abc in table 't'\n\tat y",
            false,
        ) {
            GatewayError::NoSuchFamily(f) => assert_eq!(f, "x"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            io(
                "org.apache.hadoop.hbase.UnknownScannerException: gone",
                false
            ),
            GatewayError::ScannerLost(_)
        ));
        assert!(io("org.apache.hadoop.hbase.RegionTooBusyException: busy", true).is_transient());
        match io("java.io.IOException: bad\n\tat z", false) {
            GatewayError::Refused(m) => assert_eq!(m, "java.io.IOException: bad"),
            other => panic!("{other:?}"),
        }
    }
}
