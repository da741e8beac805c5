//! Finding one byte value in a slice, eight bytes per step.
//!
//! Escaped fields are searched for their zero bytes (or `0xFF`, inverted)
//! on every encode and decode. A byte-at-a-time search costs a compare and a
//! branch per byte; this reads a `u64` at a time and finds the first match
//! in it with the classic "has a zero byte" arithmetic, so a 20-byte name
//! takes three steps, not twenty. (std's `memchr` is internal to `core`;
//! the `memchr` crate would be a dependency, and a call, for slices this
//! short.)

const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);

/// The index of the first `needle` in `hay`, as
/// `hay.iter().position(|&b| b == needle)`.
///
/// Always inlined: `needle` is a constant where the codecs call it.
#[inline(always)]
pub(crate) fn find_byte(hay: &[u8], needle: u8) -> Option<usize> {
    let repeated = ONES * u64::from(needle);
    let mut chunks = hay.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        // Bytes equal to `needle` become zero. `(x - ONES) & !x & HIGHS`
        // sets the high bit of every zero byte, and may also set it in a
        // byte *above* a zero byte (a borrow), never below the first one.
        // Read little-endian, the lowest set bit is the first match.
        let word = u64::from_le_bytes(chunk.try_into().expect("chunks of 8"));
        let x = word ^ repeated;
        let found = x.wrapping_sub(ONES) & !x & HIGHS;
        if found != 0 {
            return Some(offset + (found.trailing_zeros() / 8) as usize);
        }
        offset += 8;
    }
    let tail = chunks.remainder();
    tail.iter().position(|&b| b == needle).map(|i| offset + i)
}

#[cfg(test)]
mod tests {
    use super::find_byte;
    use proptest::prelude::*;

    #[test]
    fn finds_the_first_in_every_lane() {
        for len in 0..40 {
            for at in 0..len {
                for needle in [0x00u8, 0x01, 0x7F, 0x80, 0xFF] {
                    // Neighbours one above and below the needle: the
                    // values a borrow could confuse.
                    let mut hay: Vec<u8> = (0..len)
                        .map(|i| needle.wrapping_add(if i % 2 == 0 { 1 } else { 0xFF }))
                        .collect();
                    hay[at] = needle;
                    assert_eq!(find_byte(&hay, needle), Some(at), "{hay:02X?}");
                    hay[len - 1] = needle;
                    assert_eq!(find_byte(&hay, needle), Some(at), "{hay:02X?}");
                }
            }
        }
        assert_eq!(find_byte(b"", 0), None);
        assert_eq!(find_byte(&[1; 17], 0), None);
    }

    proptest! {
        #[test]
        fn agrees_with_position(hay in proptest::collection::vec(prop_oneof![
            Just(0x00u8), Just(0x01), Just(0xFE), Just(0xFF), Just(0x80), any::<u8>()
        ], 0..70), needle in prop_oneof![Just(0x00u8), Just(0xFF), any::<u8>()]) {
            prop_assert_eq!(find_byte(&hay, needle), hay.iter().position(|&b| b == needle));
        }
    }
}
