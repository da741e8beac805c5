//! Bit-packed parts: a `#[derive(KeyPart)]` struct whose every field is
//! `#[bits(n)]` is one big-endian word of whole bytes (at most 8), its
//! fields laid from the most significant bit down in declared order.
//! OpenTSDB's qualifier is the model: a 12-bit second offset then 4 flag
//! bits, in 2 bytes.
//!
//! The bytes sort as the fields do, the first field first (each field's
//! bits are above the next one's), so the order is the struct's derived
//! `Ord`; a value wider than its bits is refused
//! ([`EncodeErrorKind::TooManyBits`]), never cut; every word decodes,
//! and re-encodes to itself.
//!
//! ```
//! use rowkey::{KeyPart, RowKey};
//!
//! /// OpenTSDB's second-precision qualifier.
//! #[derive(KeyPart, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
//! struct SecondQualifier {
//!     #[bits(12)]
//!     offset: u16,
//!     #[bits(4)]
//!     flags: u8,
//! }
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Q { q: SecondQualifier }
//!
//! let q = Q { q: SecondQualifier { offset: 3599, flags: 0b1011 } };
//! assert_eq!(q.to_vec()?, [0xE0, 0xFB]);
//! assert_eq!(Q::decode(&[0xE0, 0xFB])?, q);
//! let wide = Q { q: SecondQualifier { offset: 4096, flags: 0 } };
//! assert!(wide.to_vec().unwrap_err().to_string().contains("offset = 4096 does not fit in its 12 bits"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`EncodeErrorKind::TooManyBits`]: crate::EncodeErrorKind::TooManyBits

use crate::error::{EncodeError, EncodeErrorKind};
use crate::reader::KeyReader;
use crate::writer::KeyWriter;
use crate::DecodeError;

/// The most bits a packed part holds: one `u64`.
pub const MAX_BITS: u32 = 64;

/// One field of a bit-packed part, as its layout names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BitsField {
    /// The field's name.
    pub name: &'static str,
    /// Its bits.
    pub bits: u8,
    /// Whether it is a `bool` (one bit, shown `true`/`false`).
    pub boolean: bool,
}

/// A type a `#[bits(n)]` field may have: an unsigned integer or `bool`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a #[bits(n)] field",
    label = "a bit field is an unsigned integer (u8, u16, u32, u64) or bool",
    note = "a signed or wider value does not pack into a field of bits"
)]
pub trait BitField: Copy {
    /// The type's own width, the most `n` can be.
    const WIDTH: u32;
    /// Whether it is `bool`.
    const BOOLEAN: bool = false;
    /// The value as an unsigned word.
    fn to_bits(self) -> u64;
    /// The value of the low bits of `word` (no wider than
    /// [`WIDTH`](Self::WIDTH): the caller masks it).
    fn from_bits(word: u64) -> Self;
}

macro_rules! bit_field_uint {
    ($($t:ty),*) => {$(
        impl BitField for $t {
            const WIDTH: u32 = <$t>::BITS;
            fn to_bits(self) -> u64 {
                u64::from(self)
            }
            fn from_bits(word: u64) -> Self {
                // Masked to the field's bits, at most the type's width.
                word as $t
            }
        }
    )*};
}
bit_field_uint!(u8, u16, u32, u64);

impl BitField for bool {
    const WIDTH: u32 = 1;
    const BOOLEAN: bool = true;
    fn to_bits(self) -> u64 {
        u64::from(self)
    }
    fn from_bits(word: u64) -> Self {
        word != 0
    }
}

/// The largest value of `bits` bits.
pub const fn max_of(bits: u8) -> u64 {
    if bits as u32 >= MAX_BITS {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Bytes a packed part of `bits` bits in all takes.
pub const fn packed_len(total_bits: u32) -> usize {
    (total_bits / 8) as usize
}

/// `word` shifted left by `bits` with `value` in the new low bits, or the
/// error of a value wider than `bits` (field `field`). What derived code
/// calls per field, first field first.
pub fn pack<T: BitField>(
    w: &KeyWriter<'_>,
    word: u64,
    value: T,
    bits: u8,
    field: &'static str,
) -> Result<u64, EncodeError> {
    let v = value.to_bits();
    if v > max_of(bits) {
        return Err(w.error(EncodeErrorKind::TooManyBits {
            field,
            value: v,
            bits,
        }));
    }
    // A shift by 64 (one field of 64 bits) leaves nothing of the word.
    Ok(word.checked_shl(u32::from(bits)).unwrap_or(0) | v)
}

/// Writes the low `len` bytes of `word`, big-endian.
pub fn put_word(w: &mut KeyWriter<'_>, word: u64, len: usize) -> Result<(), EncodeError> {
    w.put(&word.to_be_bytes()[8 - len..])
}

/// Reads a word of `len` bytes, big-endian.
pub fn take_word(r: &mut KeyReader<'_>, len: usize) -> Result<u64, DecodeError> {
    let bytes = r.take(len)?;
    Ok(bytes
        .iter()
        .fold(0u64, |word, &b| (word << 8) | u64::from(b)))
}

/// The field of `bits` bits that sits `shift` bits above the word's low
/// end.
pub fn unpack<T: BitField>(word: u64, shift: u32, bits: u8) -> T {
    T::from_bits(word.checked_shr(shift).unwrap_or(0) & max_of(bits))
}

/// The fields' values in a word, first field first: what the layout
/// interpreter reads.
pub fn unpack_all(word: u64, fields: &[BitsField]) -> impl Iterator<Item = u64> + '_ {
    let total: u32 = fields.iter().map(|f| u32::from(f.bits)).sum();
    let mut shift = total;
    fields.iter().map(move |f| {
        shift -= u32::from(f.bits);
        word.checked_shr(shift).unwrap_or(0) & max_of(f.bits)
    })
}

/// The word of `values`, first field first, or the first field whose
/// value is wider than its bits: what the layout interpreter writes.
pub fn pack_all(values: &[u64], fields: &[BitsField]) -> Result<u64, (usize, u64)> {
    let mut word = 0u64;
    for (i, (f, &v)) in fields.iter().zip(values).enumerate() {
        if v > max_of(f.bits) {
            return Err((i, v));
        }
        word = word.checked_shl(u32::from(f.bits)).unwrap_or(0) | v;
    }
    Ok(word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const TSDB: [BitsField; 2] = [
        BitsField {
            name: "offset",
            bits: 12,
            boolean: false,
        },
        BitsField {
            name: "flags",
            bits: 4,
            boolean: false,
        },
    ];

    /// Random layouts of whole bytes and values that fit them.
    fn layout_and_values() -> impl Strategy<Value = (Vec<u8>, Vec<u64>)> {
        proptest::collection::vec(1u8..=16, 1..6)
            .prop_filter("whole bytes, at most 64 bits", |bits| {
                let t: u32 = bits.iter().map(|&b| u32::from(b)).sum();
                t.is_multiple_of(8) && t <= 64
            })
            .prop_flat_map(|bits| {
                let values: Vec<_> = bits.iter().map(|&b| 0..=max_of(b)).collect();
                (Just(bits), values)
            })
    }

    fn fields(bits: &[u8]) -> Vec<BitsField> {
        bits.iter()
            .map(|&bits| BitsField {
                name: "f",
                bits,
                boolean: false,
            })
            .collect()
    }

    proptest! {
        /// Packing then unpacking gives the values back; two value lists
        /// compare as their words do (order kept, first field first),
        /// and different lists give different words (injective).
        #[test]
        fn words_roundtrip_and_sort_as_the_fields(
            (bits, a) in layout_and_values(),
            seed in any::<u64>(),
        ) {
            let f = fields(&bits);
            let b: Vec<u64> = a.iter().zip(&bits).enumerate()
                .map(|(i, (&v, &n))| if seed >> i & 1 == 1 { seed.rotate_left(i as u32) & max_of(n) } else { v })
                .collect();
            let (wa, wb) = (pack_all(&a, &f).unwrap(), pack_all(&b, &f).unwrap());
            prop_assert_eq!(unpack_all(wa, &f).collect::<Vec<_>>(), a.clone());
            prop_assert_eq!(wa.cmp(&wb), a.cmp(&b));
            prop_assert_eq!(wa == wb, a == b);
        }

        /// Every word of the right width decodes, and re-encodes to itself
        /// (canonical), whatever its bytes.
        #[test]
        fn every_word_is_canonical(word in any::<u16>()) {
            let values: Vec<u64> = unpack_all(u64::from(word), &TSDB).collect();
            prop_assert_eq!(pack_all(&values, &TSDB).unwrap(), u64::from(word));
        }
    }

    #[test]
    fn opentsdb_second_qualifiers() {
        assert_eq!(pack_all(&[3599, 0b1011], &TSDB), Ok(0xE0FB));
        assert_eq!(pack_all(&[4096, 0], &TSDB), Err((0, 4096)));
        assert_eq!(pack_all(&[1, 16], &TSDB), Err((1, 16)));
        assert_eq!(max_of(64), u64::MAX);
        let one = [BitsField {
            name: "all",
            bits: 64,
            boolean: false,
        }];
        assert_eq!(pack_all(&[u64::MAX], &one), Ok(u64::MAX));
        assert_eq!(unpack_all(u64::MAX, &one).next(), Some(u64::MAX));
    }
}
