//! When an operation tries again: a [`CallPolicy`]'s attempts, its
//! pauses, and the deadline its operation timeout sets as the operation
//! starts. Every retry loop (reads, gets, writes, atomic calls, admin
//! calls) asks here, so they all give up alike.

use crate::options::CallPolicy;
use crate::{Error, Result};
use std::time::{Duration, Instant};

impl CallPolicy {
    /// This policy for an operation starting now: its deadline set, if
    /// it has an operation timeout. An operation inside another keeps the
    /// outer one's deadline.
    pub(crate) fn started(&self) -> CallPolicy {
        let mut policy = *self;
        if policy.deadline.is_none() {
            policy.deadline = self.operation_timeout.map(|t| Instant::now() + t);
        }
        policy
    }

    /// How long the next call may wait for its answer: the call timeout,
    /// or the time the operation has left if that is less.
    pub(crate) fn timeout(&self) -> Duration {
        match self.time_left() {
            Some(left) => self.call_timeout.min(left),
            None => self.call_timeout,
        }
    }

    fn time_left(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// After the `failures`th failed try in a row, failing with `error`
    /// (worth retrying): the pause before the next try, or the error to
    /// return: out of tries, or no time left for another.
    pub(crate) fn retry_after(&self, failures: u32, error: Error) -> Result<Duration> {
        if failures >= self.attempts {
            return Err(Error::RetriesExhausted {
                attempts: failures,
                last: Box::new(error),
            });
        }
        let pause = self.backoff(failures);
        match (self.operation_timeout, self.time_left()) {
            (Some(timeout), Some(left)) if left <= pause => Err(Error::OperationTimedOut {
                timeout,
                attempts: failures,
                last: Box::new(error),
            }),
            _ => Ok(pause),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failed() -> Error {
        Error::connection("rs:16020", "refused")
    }

    #[test]
    fn tries_end_at_the_attempts_or_the_deadline() {
        let ms = Duration::from_millis;
        let policy = CallPolicy::new(3, ms(10), ms(40), ms(1_000));
        assert_eq!(policy.started().retry_after(1, failed()).unwrap(), ms(10));
        assert_eq!(policy.started().retry_after(2, failed()).unwrap(), ms(20));
        assert!(matches!(
            policy.started().retry_after(3, failed()),
            Err(Error::RetriesExhausted { attempts: 3, .. })
        ));
        // A deadline far off: the call timeout and the pauses as they are.
        let s = Duration::from_secs;
        let far = policy.with_operation_timeout(Some(s(60))).started();
        assert_eq!(far.timeout(), ms(1_000));
        assert_eq!(far.retry_after(1, failed()).unwrap(), ms(10));
        // A deadline near: calls wait no longer than it, and a pause that
        // would end past it is not taken.
        let near = CallPolicy::new(5, s(1), s(1), s(5))
            .with_operation_timeout(Some(ms(500)))
            .started();
        assert!(near.timeout() <= ms(500));
        let err = near.retry_after(1, failed()).unwrap_err();
        assert!(
            matches!(&err, Error::OperationTimedOut { attempts: 1, .. }),
            "{err}"
        );
        assert!(!err.is_retryable());
        assert_eq!(err.last(), &failed());
        // An operation inside another keeps the outer deadline.
        let inner = near.started();
        assert_eq!(inner.deadline, near.deadline);
        // Without an operation timeout, no deadline.
        assert_eq!(policy.started().timeout(), ms(1_000));
    }
}
