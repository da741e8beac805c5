//! Which gRPC failures are worth retrying.

use rowkey_store::StoreError;
use tonic::{Code, Status};

/// Whether a failed call may succeed if sent again: the server or the
/// connection went away (UNAVAILABLE, a cut stream), it ran out of time
/// (DEADLINE_EXCEEDED), it asked for a retry (ABORTED), or the HTTP/2
/// stream was reset under it (INTERNAL with RST_STREAM, which Google's own
/// clients retry).
pub(crate) fn is_transient(status: &Status) -> bool {
    match status.code() {
        Code::Unavailable | Code::DeadlineExceeded | Code::Aborted => true,
        Code::Internal => {
            let m = status.message().to_ascii_lowercase();
            m.contains("rst_stream") || m.contains("rst stream") || m.contains("unexpected eos")
        }
        // h2 closing the connection under us (its flood guard: too many
        // small frames left unread) comes back as RESOURCE_EXHAUSTED with
        // the h2 error as its source; the server's own quota errors have
        // no source.
        Code::ResourceExhausted => {
            std::error::Error::source(status).is_some()
                && status.message().starts_with("h2 protocol error")
        }
        // tonic reports a connection that broke mid-stream as UNKNOWN or
        // CANCELLED with the transport error as its source.
        Code::Unknown | Code::Cancelled => {
            std::error::Error::source(status).is_some() || {
                let m = status.message().to_ascii_lowercase();
                [
                    "transport",
                    "h2 protocol",
                    "connection",
                    "error reading",
                    "broken pipe",
                ]
                .iter()
                .any(|w| m.contains(w))
            }
        }
        _ => false,
    }
}

/// `status` as a store error for `op`, transient or not.
pub(crate) fn store_error(op: &'static str, status: Status) -> StoreError {
    if is_transient(&status) {
        StoreError::transient(op, status)
    } else {
        StoreError::backend(op, status)
    }
}

/// Whether an entry status of MutateRows (a `google.rpc.Status` code) is
/// worth retrying.
pub(crate) fn is_transient_code(code: i32) -> bool {
    matches!(
        Code::from_i32(code),
        Code::Unavailable | Code::DeadlineExceeded | Code::Aborted
    )
}

/// `%`-encodes a value of the `x-goog-request-params` routing header.
pub(crate) fn url_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies() {
        assert!(is_transient(&Status::unavailable("down")));
        assert!(is_transient(&Status::deadline_exceeded("slow")));
        assert!(is_transient(&Status::internal(
            "Received RST_STREAM with code 2"
        )));
        assert!(!is_transient(&Status::internal("bad")));
        assert!(!is_transient(&Status::not_found("no table")));
        assert!(!is_transient(&Status::invalid_argument(
            "Row keys must be non-empty"
        )));
        assert!(is_transient_code(14) && !is_transient_code(3));
        assert_eq!(
            url_encode("projects/p/tables/t"),
            "projects%2Fp%2Ftables%2Ft"
        );
    }
}
