//! The bounds of a range as HBase can scan them: bounds longer than
//! HBase's key limit replaced by equivalent ones that fit, and ranges that
//! can hold no HBase row recognised (they get no scan).

use hbase_thrift::hbase::TScan;
use rowkey_core::scan::prefix_successor;
use rowkey_core::HBASE_MAX_KEY_LEN;

/// `[start, stop)` (`stop` `None`: the end of the table) with both bounds
/// at most `max` bytes long, and at least one key of 1 to `max` bytes in
/// it: every HBase row key is non-empty and at most 32767 bytes long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Bounds {
    pub(crate) start: Vec<u8>,
    pub(crate) stop: Option<Vec<u8>>,
}

impl Bounds {
    /// The bounds of `[start, stop)` for HBase's keys; `None` when no
    /// HBase row can be in the range.
    pub(crate) fn hbase(start: &[u8], stop: Option<&[u8]>) -> Option<Bounds> {
        Bounds::fit(start, stop, HBASE_MAX_KEY_LEN)
    }

    /// The same keys of 1 to `max` bytes as `[start, stop)`, with bounds
    /// of at most `max` bytes; `None` when there is no such key in it.
    pub(crate) fn fit(start: &[u8], stop: Option<&[u8]>, max: usize) -> Option<Bounds> {
        // No key fits at or after a start whose every fitting successor
        // is past the end of the key space.
        let start = fit_bound(start, max)?;
        let stop = stop.and_then(|s| fit_bound(s, max));
        if let Some(stop) = &stop {
            // Empty, or only the empty key (below `[0x00]`), which no
            // HBase row has.
            if *stop <= start || stop.as_slice() == [0] {
                return None;
            }
        }
        Some(Bounds { start, stop })
    }

    /// Whether `key` is in the range.
    #[cfg(test)]
    pub(crate) fn contains(&self, key: &[u8]) -> bool {
        key >= self.start.as_slice() && self.stop.as_ref().is_none_or(|s| key < s.as_slice())
    }
}

/// A bound that holds the same keys of at most `max` bytes as `bound`,
/// itself at most `max` bytes long; `None`: past every such key.
///
/// A key `k` of at most `max` bytes is below a longer bound `b` exactly
/// when `k <= t`, `t` being `b`'s first `max` bytes (`k` cannot start with
/// `t` and be longer), i.e. exactly when `k` is below the first key after
/// every key that starts with `t`.
fn fit_bound(bound: &[u8], max: usize) -> Option<Vec<u8>> {
    if bound.len() <= max {
        Some(bound.to_vec())
    } else {
        prefix_successor(&bound[..max])
    }
}

/// A key strictly below `key` and as close to it as one byte allows, for
/// an exclusive low bound of a backwards scan: `p` for `key = p 00` (no
/// key lies between), `p (b - 1)` for `key = p b`; `None` for the empty
/// key and for `[0x00]` (only the empty key is below them).
/// Whether `key`, a row of a backwards scan of the range from `start` to
/// `stop` (begun at `stop`, inclusive, as a reversed scan must be), is in
/// the range, above it, or below it (the scan is past the range).
pub(crate) fn reverse_step(start: &[u8], stop: Option<&[u8]>, key: &[u8]) -> crate::ReverseStep {
    use crate::ReverseStep;
    if key < start {
        ReverseStep::Stop
    } else if stop.is_some_and(|s| key >= s) {
        ReverseStep::Skip
    } else {
        ReverseStep::Take
    }
}

pub(crate) fn below(key: &[u8]) -> Option<Vec<u8>> {
    match key.split_last() {
        None => None,
        Some((0, p)) => (!p.is_empty()).then(|| p.to_vec()),
        Some((&b, p)) => {
            let mut v = p.to_vec();
            v.push(b - 1);
            Some(v)
        }
    }
}

/// A `TScan` with rows and direction, every other field `None`.
pub(crate) fn tscan(
    start_row: Option<Vec<u8>>,
    stop_row: Option<Vec<u8>>,
    reversed: Option<bool>,
) -> TScan {
    TScan {
        start_row,
        stop_row,
        timestamp: None,
        columns: None,
        caching: None,
        filter_string: None,
        batch_size: None,
        sort_columns: None,
        reversed,
        cache_blocks: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every key of 1 to `max` bytes, for `max <= 2`.
    fn all_keys(max: usize) -> Vec<Vec<u8>> {
        let mut keys: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        if max >= 2 {
            for a in 0..=255u8 {
                for b in 0..=255u8 {
                    keys.push(vec![a, b]);
                }
            }
        }
        keys
    }

    fn bound() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(
            prop_oneof![Just(0u8), Just(1), Just(0xFE), Just(0xFF), any::<u8>()],
            0..5,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Fitted bounds hold exactly the keys of 1 to `max` bytes that the
        /// range holds; `None` exactly when it holds none.
        #[test]
        fn fitted_bounds_hold_the_same_keys(
            start in bound(),
            stop in proptest::option::of(bound()),
            max in 1usize..=2,
        ) {
            let fitted = Bounds::fit(&start, stop.as_deref(), max);
            let contains = |k: &[u8]| k >= start.as_slice() && stop.as_ref().is_none_or(|s| k < s.as_slice());
            let keys = all_keys(max);
            match &fitted {
                None => prop_assert!(keys.iter().all(|k| !contains(k))),
                Some(b) => {
                    prop_assert!(b.start.len() <= max);
                    prop_assert!(b.stop.as_ref().is_none_or(|s| s.len() <= max && *s > b.start));
                    prop_assert!(keys.iter().any(|k| contains(k)));
                    for k in &keys {
                        prop_assert_eq!(b.contains(k), contains(k), "{:?}", k);
                    }
                }
            }
        }

        /// `below(k)` is a non-empty key below `k`, with no key between
        /// when `k` ends in `00`.
        #[test]
        fn below_is_just_below(key in bound()) {
            match below(&key) {
                Some(b) => {
                    prop_assert!(b < key && !b.is_empty());
                    if key.last() == Some(&0) {
                        prop_assert_eq!(b.as_slice(), &key[..key.len() - 1]);
                    }
                }
                None => prop_assert!(key.is_empty() || key == [0]),
            }
        }
    }

    #[test]
    fn bounds_over_the_limit_become_prefix_successors() {
        // [k 00, ...) with a max-length k: the keys after k.
        let b = Bounds::fit(b"ab\x00", None, 2).unwrap();
        assert_eq!(b.start, b"ac");
        // Nothing of 2 bytes is at or after \xFF\xFF\x00.
        assert_eq!(Bounds::fit(b"\xFF\xFF\x00", None, 2), None);
        // A stop past every 2-byte key: the end of the table.
        let b = Bounds::fit(b"a", Some(b"\xFF\xFF\x01"), 2).unwrap();
        assert_eq!(b.stop, None);
        // Only the empty key is below [00].
        assert_eq!(Bounds::fit(b"", Some(b"\x00"), 2), None);
        assert_eq!(Bounds::fit(b"b", Some(b"b"), 2), None);
        assert_eq!(Bounds::fit(b"b", Some(b"a"), 2), None);
    }
}
