//! Nonces for increments and appends: a group per process and a number
//! per operation, so that a region server applies a retried operation
//! once. Drawn from the standard library's per-process random hash keys
//! and the clock: unique enough that two operations of one group never
//! share one.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

fn random() -> u64 {
    let mut h = RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

/// This process's nonce group (never 0: HBase's "no nonce").
pub(crate) fn group() -> u64 {
    static GROUP: OnceLock<u64> = OnceLock::new();
    *GROUP.get_or_init(|| random().max(1))
}

/// A new nonce: a random start, then counting (never 0).
pub(crate) fn next() -> u64 {
    static NEXT: OnceLock<AtomicU64> = OnceLock::new();
    let n = NEXT
        .get_or_init(|| AtomicU64::new(random()))
        .fetch_add(1, Ordering::Relaxed);
    n.max(1)
}
