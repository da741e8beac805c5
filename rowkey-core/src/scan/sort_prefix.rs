//! [`sort_prefix`]: the first 16 bytes of a key as one integer, so a merge
//! orders most pairs of keys with one integer comparison instead of a
//! `memcmp` call.

/// The first 16 bytes of `key`, big-endian, zero-padded on the right.
///
/// It keeps byte order in one direction: when the prefixes of two keys
/// differ, the keys compare the same way. Proof: take the first byte
/// position `i < 16` where the padded arrays differ. Before `i` the keys
/// agree (byte for byte, or both padded). At `i`, if both keys have a
/// byte, the bytes decide both comparisons. If only one has, its byte is
/// not 0 (the padding is 0 and they differ), so the prefix comparison puts
/// the shorter key first, as slice order does (a key is ordered before
/// every longer key it starts). Both cannot be padding at `i`, since
/// padding equals padding. Equal prefixes say nothing (`ab` and `ab\0`):
/// compare the keys themselves then.
#[inline]
pub(crate) fn sort_prefix(key: &[u8]) -> u128 {
    let len = key.len();
    if len >= 16 {
        return u128::from_be_bytes(array(key, 0));
    }
    if len >= 8 {
        // Two overlapping 8-byte loads: bytes 0..8, and the last 8 bytes
        // shifted so that byte 8 lands in the top byte of the low half
        // (`(15 - len) * 8` is 0..=56; the second shift makes it 8..=64
        // without an overflowing shift).
        let hi = u64::from_be_bytes(array(key, 0));
        let lo = (u64::from_be_bytes(array(key, len - 8)) << ((15 - len) * 8)) << 8;
        return (u128::from(hi) << 64) | u128::from(lo);
    }
    let mut padded = [0u8; 16];
    for (dst, src) in padded.iter_mut().zip(key) {
        *dst = *src;
    }
    u128::from_be_bytes(padded)
}

/// `key[at..at + N]` as an array; callers check the length first.
#[inline(always)]
fn array<const N: usize>(key: &[u8], at: usize) -> [u8; N] {
    let mut a = [0u8; N];
    a.copy_from_slice(&key[at..at + N]);
    a
}

#[cfg(test)]
mod tests {
    use super::sort_prefix;
    use proptest::prelude::*;

    /// Bytes biased to the edges (0x00, 0x01, 0xFE, 0xFF), where padding
    /// and carries could go wrong.
    fn key() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(
            prop_oneof![Just(0u8), Just(1), Just(0xFE), Just(0xFF), any::<u8>()],
            0..40,
        )
    }

    #[test]
    fn every_length_below_the_prefix() {
        let long: Vec<u8> = (1..=20).collect();
        for len in 0..=20 {
            let mut want = [0u8; 16];
            let n = len.min(16);
            want[..n].copy_from_slice(&long[..n]);
            assert_eq!(
                sort_prefix(&long[..len]),
                u128::from_be_bytes(want),
                "len {len}"
            );
        }
    }

    proptest! {
        #[test]
        fn different_prefixes_order_like_the_keys(a in key(), b in key()) {
            let (pa, pb) = (sort_prefix(&a), sort_prefix(&b));
            if pa != pb {
                prop_assert_eq!(pa.cmp(&pb), a.cmp(&b));
            }
        }

        #[test]
        fn a_shared_start_orders_by_the_tails(
            start in key(), x in key(), y in key()
        ) {
            let (a, b) = ([&start[..], &x].concat(), [&start[..], &y].concat());
            let (pa, pb) = (sort_prefix(&a), sort_prefix(&b));
            if pa != pb {
                prop_assert_eq!(pa.cmp(&pb), a.cmp(&b));
            }
        }
    }
}
