//! Which gRPC failures are worth retrying, and after how long.

use googleapis_tonic_google_rpc::google::rpc::{RetryInfo, Status as RpcStatus};
use prost::Message;
use rowkey_store::StoreError;
use std::time::Duration;
use tonic::{Code, Status};

/// The type URL of `google.rpc.RetryInfo` in a status's details.
const RETRY_INFO: &str = "type.googleapis.com/google.rpc.RetryInfo";

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

/// The delay the server asked for before a retry: the `RetryInfo` among
/// the status's details (`grpc-status-details-bin`, a `google.rpc.Status`).
/// Cloud Bigtable sends one to clients that say they honour it (the
/// `retry_info` feature flag); a status that carries one may be retried,
/// whatever its code, after that delay.
pub(crate) fn retry_delay(status: &Status) -> Option<Duration> {
    if status.details().is_empty() {
        return None;
    }
    let details = RpcStatus::decode(status.details()).ok()?;
    let info = details.details.iter().find(|a| a.type_url == RETRY_INFO)?;
    let delay = RetryInfo::decode(info.value.as_slice()).ok()?.retry_delay?;
    let seconds = u64::try_from(delay.seconds).ok()?;
    let nanos = u32::try_from(delay.nanos).ok()?;
    Some(Duration::new(seconds, 0).saturating_add(Duration::from_nanos(nanos.into())))
}

/// The gRPC status a store error came from, if it came from one.
pub(crate) fn status_of(e: &StoreError) -> Option<&Status> {
    e.backend_source()?.downcast_ref::<Status>()
}

/// `status` as a store error for `op`: transient when the code is one
/// worth retrying or the server asked for a retry (`RetryInfo`).
pub(crate) fn store_error(op: &'static str, status: Status) -> StoreError {
    if is_transient(&status) || retry_delay(&status).is_some() {
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
        assert_eq!(retry_delay(&Status::unavailable("no details")), None);
        assert_eq!(
            url_encode("projects/p/tables/t"),
            "projects%2Fp%2Ftables%2Ft"
        );
    }

    /// A status carrying `RetryInfo { retry_delay: 2.5 s }`, as Cloud
    /// Bigtable (and the conformance suite's mock server) send it, is
    /// transient whatever its code, and says how long to wait.
    #[test]
    fn retry_info_is_read_from_the_details() {
        use googleapis_tonic_google_rpc::google::rpc::RetryInfo;
        let info = RetryInfo {
            retry_delay: Some(prost_types::Duration {
                seconds: 2,
                nanos: 500_000_000,
            }),
        };
        let details = RpcStatus {
            code: Code::PermissionDenied as i32,
            message: "slow down".into(),
            details: vec![prost_types::Any {
                type_url: RETRY_INFO.into(),
                value: info.encode_to_vec(),
            }],
        };
        let status = Status::with_details(
            Code::PermissionDenied,
            "slow down",
            details.encode_to_vec().into(),
        );
        assert_eq!(retry_delay(&status), Some(Duration::from_millis(2500)));
        let e = store_error("read rows", status);
        assert!(e.is_transient());
        assert_eq!(
            status_of(&e).map(Status::code),
            Some(Code::PermissionDenied)
        );
        // Details that are not a google.rpc.Status are no delay.
        let junk = Status::with_details(Code::Unavailable, "x", vec![0xFF, 0xFF].into());
        assert_eq!(retry_delay(&junk), None);
    }
}
