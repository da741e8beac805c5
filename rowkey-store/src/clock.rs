//! [`WriteClock`]: the timestamps a client puts on its writes, so that a
//! write sent again (a retry, or the original delivered late by the
//! network after the retry succeeded) can never win over a later write.
//!
//! A write whose outcome is unknown (the connection broke after the
//! request left) is sent again. If the first copy was only held up, it
//! lands later, perhaps after the client's next write of the same cells.
//! Stamped by the server, that late copy is newer than the next write and
//! wins: a put reverts, a delete removes what was written after it. So a
//! store stamps each write once, on the client, before the first try: a
//! late copy then carries its old stamp and loses to every later write of
//! the client, and a retry writes the very same versions.
//!
//! Stamps strictly increase within one clock, not just never decrease: an
//! HBase delete at `T` hides every version at or before `T`, so a put
//! after a delete needs a larger stamp, not an equal one.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// A client's write timestamps, in milliseconds since the Unix epoch:
/// each [`next`](Self::next) is the wall clock's millisecond, or one more
/// than the stamp before if that is later. Shared by a client's stores.
///
/// Between clients, stamps order writes as well as the clients' clocks
/// agree: a write can lose to another client's write made up to their
/// clocks' difference earlier. A client making more than 1,000 writes a
/// second runs ahead of its wall clock by the excess, until it slows.
///
/// ```
/// use rowkey_store::WriteClock;
/// let clock = WriteClock::new();
/// let (a, b) = (clock.next(), clock.next());
/// assert!(b > a);
/// ```
#[derive(Debug, Default)]
pub struct WriteClock {
    last: AtomicI64,
}

impl WriteClock {
    /// A clock whose first stamp is the wall clock's millisecond.
    pub fn new() -> Self {
        WriteClock::default()
    }

    /// The next stamp: later than every stamp given before.
    pub fn next(&self) -> i64 {
        let now = now_millis();
        let mut last = self.last.load(Ordering::Relaxed);
        loop {
            let next = now.max(last.saturating_add(1));
            match self
                .last
                .compare_exchange_weak(last, next, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) => return next,
                Err(seen) => last = seen,
            }
        }
    }

    /// The last stamp given (0 before the first).
    pub fn last(&self) -> i64 {
        self.last.load(Ordering::Acquire)
    }
}

fn now_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::sync::Arc;

    #[test]
    fn stamps_strictly_increase_across_threads_and_follow_the_wall_clock() {
        let clock = Arc::new(WriteClock::new());
        let before = now_millis();
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let clock = clock.clone();
                std::thread::spawn(move || {
                    let stamps: Vec<i64> = (0..2_000).map(|_| clock.next()).collect();
                    assert!(stamps.windows(2).all(|w| w[1] > w[0]));
                    stamps
                })
            })
            .collect();
        let all: Vec<i64> = threads
            .into_iter()
            .flat_map(|t| t.join().unwrap())
            .collect();
        let distinct: HashSet<i64> = all.iter().copied().collect();
        assert_eq!(distinct.len(), all.len(), "no stamp given twice");
        assert!(all.iter().all(|&s| s >= before));
        std::thread::sleep(std::time::Duration::from_millis(20));
        let later = clock.next();
        assert!(later >= now_millis() - 1 && later > *all.iter().max().unwrap());
    }
}
