//! The delete fence: HBase stamps a delete with the server's millisecond
//! and hides every version at or before it, so a put stamped in the same
//! millisecond as an earlier delete of its column (or row) is hidden too.
//! A record rewritten back to back (a column cleared, then set again), an
//! index row deleted and written again by two updates in a row, a row
//! deleted and put again: each would lose its put. The fence makes every
//! write or delete of a client that follows one of its deletes start at
//! least [`GAP`] after that delete returned, so the server's clock has
//! passed the delete's millisecond. Writers in other processes race as
//! HBase always lets them.

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long after a delete returned a later write may start: one
/// millisecond, and one more for the two clocks' ticks.
const GAP: Duration = Duration::from_millis(2);

/// When the client's last delete (a row deleted, a column cleared)
/// returned. Shared by the client's stores.
#[derive(Debug, Default)]
pub(crate) struct DeleteFence {
    last: Mutex<Option<Instant>>,
}

impl DeleteFence {
    /// Blocks (on a pool thread, before a call) until [`GAP`] has passed
    /// since the last delete returned.
    pub(crate) fn wait(&self) {
        let last = *self.last.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(wait) = last.and_then(|t| (t + GAP).checked_duration_since(Instant::now())) {
            std::thread::sleep(wait);
        }
    }

    /// A call that deleted something has returned.
    pub(crate) fn deleted(&self) {
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Some(Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_after_a_delete_waits_out_the_gap() {
        let fence = DeleteFence::default();
        let start = Instant::now();
        fence.wait();
        fence.deleted();
        fence.wait();
        assert!(start.elapsed() >= GAP);
    }
}
