//! [`WriteClock`]: the timestamps a client's writes carry.
//!
//! A write that may be sent again carries its cells' timestamps, set once
//! before the first send, so that a copy delivered late writes the very
//! version the retry wrote and cannot overwrite a later write. For that,
//! a later write of the same client must carry a later stamp: Bigtable
//! keeps one value per timestamp, and a delete up to a stamp removes the
//! cells at earlier ones only. So the clock strictly increases: each stamp
//! is the wall clock's millisecond, or one past the last stamp when that
//! is not later (Cloud Bigtable tables keep millisecond timestamps).

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// A strictly increasing millisecond clock, shared by the stores of one
/// client (clones and [`for_table`](crate::BigtableStore::for_table)).
#[derive(Debug, Default)]
pub(crate) struct WriteClock {
    /// The last stamp given, in milliseconds since the epoch.
    last_ms: AtomicI64,
}

/// The wall clock in milliseconds since the epoch (0 before it).
fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| {
        i64::try_from(d.as_millis()).unwrap_or(i64::MAX / 1000)
    })
}

impl WriteClock {
    /// The next stamp, in microseconds (a whole millisecond): later than
    /// every stamp this clock gave before, and not before the wall clock.
    pub(crate) fn next_micros(&self) -> i64 {
        self.next_ms_at(now_ms()) * 1000
    }

    /// The next stamp in milliseconds, the wall clock reading `now`.
    fn next_ms_at(&self, now: i64) -> i64 {
        let mut last = self.last_ms.load(Ordering::Relaxed);
        loop {
            let next = now.max(last.saturating_add(1));
            match self.last_ms.compare_exchange_weak(
                last,
                next,
                Ordering::AcqRel,
                Ordering::Relaxed,
            ) {
                Ok(_) => return next,
                Err(seen) => last = seen,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn stamps_follow_the_wall_clock_and_never_repeat() {
        let clock = WriteClock::default();
        assert_eq!(clock.next_ms_at(1_000), 1_000);
        // The same millisecond, or a clock set back: one past the last.
        assert_eq!(clock.next_ms_at(1_000), 1_001);
        assert_eq!(clock.next_ms_at(500), 1_002);
        // The wall clock ahead again: its reading.
        assert_eq!(clock.next_ms_at(5_000), 5_000);
        let before = now_ms();
        let stamp = clock.next_micros();
        assert_eq!(stamp % 1000, 0, "whole milliseconds");
        assert!(stamp / 1000 >= before && stamp / 1000 <= now_ms() + 1);
    }

    #[test]
    fn stamps_strictly_increase_across_threads() {
        let clock = Arc::new(WriteClock::default());
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let clock = clock.clone();
                std::thread::spawn(move || (0..5_000).map(|_| clock.next_micros()).collect())
            })
            .collect();
        let mut all = Vec::new();
        for t in threads {
            let stamps: Vec<i64> = t.join().unwrap();
            // Each thread sees its own stamps increase.
            assert!(stamps.windows(2).all(|w| w[0] < w[1]));
            all.extend(stamps);
        }
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "no stamp given twice");
    }
}
