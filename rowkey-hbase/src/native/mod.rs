//! The native transport: HBase's own RPC through [`hbase_native`], with
//! no gateway in between. What is the store's (rows, stamps, requests,
//! errors) maps onto the client's (mutations, scans, filters) here.

pub(crate) mod admin;
pub(crate) mod atomic;
pub(crate) mod read;
pub(crate) mod write;

use rowkey_store::{RetryPolicy, StoreError};

/// The client's retries and call timeout, as the store's policy says,
/// and its operation timeout.
pub(crate) fn policy(
    retry: &RetryPolicy,
    operation_timeout: Option<std::time::Duration>,
) -> hbase_native::CallPolicy {
    hbase_native::CallPolicy::new(
        retry.attempts,
        retry.initial_backoff,
        retry.max_backoff,
        retry.idle_timeout,
    )
    .with_operation_timeout(operation_timeout)
}

/// A client error as the store's: a missing table or family as such, a
/// transient failure (retried already) as transient, an outcome unknown
/// as such.
pub(crate) fn store_error(op: &'static str, table: &str, e: hbase_native::Error) -> StoreError {
    // May have been applied: never a transient error, which a caller
    // would retry into a second apply.
    if let hbase_native::Error::OutcomeUnknown { .. } = e {
        return StoreError::outcome_unknown(op, e);
    }
    // Out of time: not transient, whatever the last try's failure was.
    if let hbase_native::Error::OperationTimedOut { attempts, .. } = e {
        return StoreError::backend(op, e).after_attempts(attempts);
    }
    let last = e.last();
    if let hbase_native::Error::TableNotFound { .. } = last {
        return StoreError::NoSuchTable {
            op,
            table: table.to_owned(),
        };
    }
    if let Some(remote) = e.remote() {
        match remote.simple_class() {
            "NoSuchColumnFamilyException" => {
                return StoreError::NoSuchFamily {
                    op,
                    table: table.to_owned(),
                    family: family_of(&remote.message),
                }
            }
            "TableNotFoundException" => {
                return StoreError::NoSuchTable {
                    op,
                    table: table.to_owned(),
                }
            }
            _ => {}
        }
    }
    let attempts = match &e {
        hbase_native::Error::RetriesExhausted { attempts, .. } => *attempts,
        _ => 1,
    };
    if last.is_retryable() {
        StoreError::transient(op, e).after_attempts(attempts)
    } else {
        StoreError::backend(op, e).after_attempts(attempts)
    }
}

/// The family named in HBase's "Column family F does not exist in ...".
fn family_of(message: &str) -> String {
    message
        .split("Column family ")
        .nth(1)
        .and_then(|rest| rest.split(" does not exist").next())
        .unwrap_or(message)
        .to_owned()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_missing_family_is_named() {
        let m = "Column family nope does not exist in region t,,1.abc. in table 't'";
        assert_eq!(super::family_of(m), "nope");
    }
}
