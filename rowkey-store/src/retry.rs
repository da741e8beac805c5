//! [`RetryPolicy`]: how often and how patiently a store retries a read
//! that failed transiently, and when a silent stream counts as stalled.

use std::time::Duration;

/// Retries of transient failures (a cut stream, UNAVAILABLE,
/// DEADLINE_EXCEEDED, a stream silent for `idle_timeout`).
///
/// A retried read resumes strictly after the last row it delivered. An
/// attempt that delivered rows before failing resets the count, so a read
/// that keeps making progress is not given up; one that makes none fails
/// after `attempts` tries, having waited at most the sum of the backoffs
/// plus `attempts * idle_timeout`.
///
/// ```
/// use rowkey::store::RetryPolicy;
/// use std::time::Duration;
/// let p = RetryPolicy::default();
/// assert_eq!(p.backoff(1), Duration::from_millis(50));
/// assert_eq!(p.backoff(2), Duration::from_millis(100));
/// assert_eq!(p.backoff(30), Duration::from_secs(2));
/// assert!(RetryPolicy::never().attempts == 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Attempts in all, the first one included (at least 1).
    pub attempts: u32,
    /// The wait before the first retry; it doubles on each retry.
    pub initial_backoff: Duration,
    /// The longest wait between attempts.
    pub max_backoff: Duration,
    /// A stream that delivers nothing for this long is stalled: it is
    /// dropped and the read retried.
    pub idle_timeout: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            attempts: 5,
            initial_backoff: Duration::from_millis(50),
            max_backoff: Duration::from_secs(2),
            idle_timeout: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// One attempt, no retry.
    pub fn never() -> Self {
        RetryPolicy {
            attempts: 1,
            ..RetryPolicy::default()
        }
    }

    /// The same policy with `n` attempts in all (0 is taken as 1).
    pub fn attempts(mut self, n: u32) -> Self {
        self.attempts = n.max(1);
        self
    }

    /// The same policy with waits from `initial` doubling up to `max`.
    pub fn backoff_between(mut self, initial: Duration, max: Duration) -> Self {
        self.initial_backoff = initial;
        self.max_backoff = max.max(initial);
        self
    }

    /// The same policy with streams silent for `timeout` taken as stalled.
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// The wait before retry number `retry` (1 for the first retry).
    pub fn backoff(&self, retry: u32) -> Duration {
        let doublings = retry.saturating_sub(1).min(31);
        self.initial_backoff
            .saturating_mul(1u32 << doublings)
            .min(self.max_backoff)
    }
}
