//! [`failover_retry`]: a retry policy that outlasts a region server's
//! failover, the native store's default.
//!
//! When a region server dies without a word (`kill -9`, a lost machine),
//! nothing moves until its ZooKeeper session expires
//! (`zookeeper.session.timeout`, 90 s by default): only then does the
//! master split its write-ahead log and reopen its regions elsewhere,
//! which takes seconds more. Until then every call to its regions fails
//! and is retried. HBase's Java client rides this out by design (15
//! retries, pauses growing from 100 ms, about two minutes in all); a
//! policy of a few tries gives up in the middle of it.

use rowkey_store::RetryPolicy;
use std::time::Duration;

/// HBase's default `zookeeper.session.timeout`: how long a region server
/// that died without a word still holds its regions.
pub const DEFAULT_SESSION_TIMEOUT: Duration = Duration::from_secs(90);

/// What a failover takes after the session expires, at most, as this
/// policy plans for it: the write-ahead log split and the regions
/// reopened on the other servers.
const REOPEN: Duration = Duration::from_secs(60);

/// A [`RetryPolicy`] whose pauses alone add up to more than a region
/// server's failover on a cluster whose ZooKeeper session timeout is
/// `session_timeout`: that, plus a minute for the dead server's regions
/// to reopen elsewhere. Pauses grow as HBase's client's do, from 100 ms,
/// and stop growing at 10 s (a region back in service is found within
/// 10 s). The native [`HBaseStore`](crate::HBaseStore)'s default is
/// `failover_retry(DEFAULT_SESSION_TIMEOUT)`: 22 tries, 2.5 minutes of
/// pauses.
///
/// A call that cannot wait that long sets a deadline of its own:
/// [`HBaseStore::with_operation_timeout`](crate::HBaseStore::with_operation_timeout).
///
/// ```
/// use rowkey_hbase::{failover_retry, DEFAULT_SESSION_TIMEOUT};
/// use std::time::Duration;
/// let policy = failover_retry(DEFAULT_SESSION_TIMEOUT);
/// let paused: Duration = (1..policy.attempts).map(|retry| policy.backoff(retry)).sum();
/// assert!(paused >= DEFAULT_SESSION_TIMEOUT + Duration::from_secs(60));
/// assert_eq!(policy.attempts, 22);
/// // A cluster whose sessions expire in 20 s fails over sooner.
/// assert!(failover_retry(Duration::from_secs(20)).attempts < 22);
/// ```
pub fn failover_retry(session_timeout: Duration) -> RetryPolicy {
    let policy =
        RetryPolicy::default().backoff_between(Duration::from_millis(100), Duration::from_secs(10));
    let outlast = session_timeout.saturating_add(REOPEN);
    let mut paused = Duration::ZERO;
    let mut attempts = 1;
    while paused < outlast && attempts < u32::MAX {
        paused += policy.backoff(attempts);
        attempts += 1;
    }
    policy.attempts(attempts)
}
