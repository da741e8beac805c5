//! Range bounds on text and bytes fields cut to the field's length, keeping
//! exactly the same values (the scan builder's ranges), and the bounds
//! that resume a read after a key of any length (pages, ordered merges).

use crate::buf::KeyBuf;

/// A range's lower bound on a text or bytes field of at most `max_len`
/// bytes, cut to fit: no value is longer, so `v >= b` (and `v > b`) for a
/// longer `b` holds exactly when `v > b[..max_len]`. Not "above every
/// value": with `max_len` 4, `"abce"` and `"b"` are above `"abcde"`.
pub fn fit_start(bound: core::ops::Bound<&[u8]>, max_len: usize) -> core::ops::Bound<&[u8]> {
    use core::ops::Bound;
    match bound {
        Bound::Included(b) | Bound::Excluded(b) if b.len() > max_len => {
            Bound::Excluded(&b[..max_len])
        }
        other => other,
    }
}

/// A range's upper bound cut to fit, as [`fit_start`]: `v < b` (and
/// `v <= b`) for a longer `b` holds exactly when `v <= b[..max_len]`.
pub fn fit_end(bound: core::ops::Bound<&[u8]>, max_len: usize) -> core::ops::Bound<&[u8]> {
    use core::ops::Bound;
    match bound {
        Bound::Included(b) | Bound::Excluded(b) if b.len() > max_len => {
            Bound::Included(&b[..max_len])
        }
        other => other,
    }
}

/// The first key `>= bound` among keys of at most `room` bytes, as a bound
/// of at most `room + 1` bytes: `bound` itself when it is no longer, else
/// the successor of its first `room` bytes (no shorter key starts with a
/// longer bound, so those above it are above that prefix and every key
/// under it). `None`: no such key (the prefix is all `0xFF`).
pub(crate) fn start_from<const N: usize>(bound: &[u8], room: usize) -> Option<KeyBuf<N>> {
    if bound.len() <= room + 1 {
        return KeyBuf::from_slice(bound);
    }
    let mut k = KeyBuf::<N>::from_slice(&bound[..room])?;
    k.advance_past_prefix().then_some(k)
}

/// The first key `> key` among keys of at most `room` bytes, as
/// [`start_from`] of `key` and `0x00`, built in place (a keyset resume
/// allocates nothing): `key` and `0x00` when `key` is no longer than
/// `room`, else the successor of its first `room` bytes.
pub(crate) fn start_after<const N: usize>(key: &[u8], room: usize) -> Option<KeyBuf<N>> {
    if key.len() <= room {
        let mut k = KeyBuf::<N>::from_slice(key)?;
        return k.extend_from_slice(&[0]).then_some(k);
    }
    let mut k = KeyBuf::<N>::from_slice(&key[..room])?;
    k.advance_past_prefix().then_some(k)
}

/// An exclusive stop below which are exactly the keys `< bound` among keys
/// of at most `room` bytes, in at most `room + 1` bytes: `bound` itself
/// when it is no longer, else its first `room` bytes and `0x00` (the keys
/// up to that prefix). `None` only when `room + 1` bytes do not fit `N`.
pub(crate) fn stop_below<const N: usize>(bound: &[u8], room: usize) -> Option<KeyBuf<N>> {
    if bound.len() <= room + 1 {
        return KeyBuf::from_slice(bound);
    }
    let mut k = KeyBuf::<N>::from_slice(&bound[..room])?;
    k.extend_from_slice(&[0]).then_some(k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn key() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(prop_oneof![Just(0u8), Just(1), Just(0xFF)], 0..7)
    }

    proptest! {
        /// Against every key that fits: the bounds keep exactly the keys
        /// on their side of a bound of any length.
        #[test]
        fn resume_bounds_split_the_keys_that_fit(bound in key(), k in key(), room in 0usize..4) {
            prop_assume!(k.len() <= room);
            match start_from::<5>(&bound, room) {
                Some(s) => {
                    prop_assert!(s.len() <= room + 1);
                    prop_assert_eq!(k.as_slice() >= s.as_bytes(), k >= bound);
                }
                None => prop_assert!(k < bound),
            }
            match start_after::<5>(&bound, room) {
                Some(s) => prop_assert_eq!(k.as_slice() >= s.as_bytes(), k > bound),
                None => prop_assert!(k <= bound),
            }
            let stop = stop_below::<5>(&bound, room).unwrap();
            prop_assert!(stop.len() <= room + 1);
            prop_assert_eq!(k.as_slice() < stop.as_bytes(), k < bound);
        }
    }
}
