//! Integers in binary: big-endian, with the sign bit flipped for signed
//! types so that `i32::MIN` is `00 00 00 00` and `-1` sorts just below `0`.
//! This is HBase `OrderedBytes`' fixed-width integer rule and what
//! memcomparable and storekey do.

use crate::error::{DecodeError, EncodeError};
use crate::layout::ValueKind;
use crate::part::{DecodePart, KeyPart};
use crate::reader::KeyReader;
use crate::writer::KeyWriter;

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl KeyPart for $t {
            const MAX_LEN: usize = core::mem::size_of::<$t>();
            const FIXED_LEN: Option<usize> = Some(core::mem::size_of::<$t>());
            const VALUE: ValueKind = ValueKind::Int { bytes: core::mem::size_of::<$t>() as u8, signed: false };
            #[inline]
            fn encoded_len(&self) -> usize {
                core::mem::size_of::<$t>()
            }
            #[inline]
            fn encode(&self, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
                w.put(&self.to_be_bytes())
            }
        }
        impl DecodePart<'_> for $t {
            #[inline]
            fn decode(r: &mut KeyReader<'_>) -> Result<Self, DecodeError> {
                Ok(<$t>::from_be_bytes(r.take_array()?))
            }
        }
    )*};
}

macro_rules! signed {
    ($($t:ty => $u:ty),*) => {$(
        impl KeyPart for $t {
            const MAX_LEN: usize = core::mem::size_of::<$t>();
            const FIXED_LEN: Option<usize> = Some(core::mem::size_of::<$t>());
            const VALUE: ValueKind = ValueKind::Int { bytes: core::mem::size_of::<$t>() as u8, signed: true };
            #[inline]
            fn encoded_len(&self) -> usize {
                core::mem::size_of::<$t>()
            }
            #[inline]
            fn encode(&self, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
                // Flipping the sign bit maps MIN..=MAX onto 0..=MAX of the
                // unsigned type, in order.
                let flipped = (*self as $u) ^ (1 << (<$u>::BITS - 1));
                w.put(&flipped.to_be_bytes())
            }
        }
        impl DecodePart<'_> for $t {
            #[inline]
            fn decode(r: &mut KeyReader<'_>) -> Result<Self, DecodeError> {
                let flipped = <$u>::from_be_bytes(r.take_array()?);
                Ok((flipped ^ (1 << (<$u>::BITS - 1))) as $t)
            }
        }
    )*};
}

unsigned!(u8, u16, u32, u64, u128);
signed!(i8 => u8, i16 => u16, i32 => u32, i64 => u64, i128 => u128);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    use crate::codec::test_util::dec;

    fn enc<T: KeyPart>(v: T) -> Vec<u8> {
        crate::codec::test_util::enc(v).unwrap()
    }

    #[test]
    fn golden() {
        assert_eq!(enc(0x0102u16), [1, 2]);
        assert_eq!(enc(i32::MIN), [0, 0, 0, 0]);
        assert_eq!(enc(-1i32), [0x7F, 0xFF, 0xFF, 0xFF]);
        assert_eq!(enc(0i32), [0x80, 0, 0, 0]);
        assert_eq!(enc(1i8), [0x81]);
        assert_eq!(enc(u64::MAX), [0xFF; 8]);
    }

    #[test]
    fn short_input_is_an_error() {
        let e = dec::<u32>(&[1, 2]).unwrap_err();
        assert_eq!(
            e.kind(),
            crate::DecodeErrorKind::UnexpectedEnd { needed: 2 }
        );
    }

    macro_rules! props {
        ($($name:ident: $t:ty),*) => {$(
            proptest! {
                #[test]
                fn $name(a: $t, b: $t) {
                    let (ea, eb) = (enc(a), enc(b));
                    prop_assert_eq!(dec::<$t>(&ea).unwrap(), a);
                    prop_assert_eq!(a.cmp(&b), ea.cmp(&eb));
                }
            }
        )*};
    }
    props!(p_u8: u8, p_u16: u16, p_u32: u32, p_u64: u64, p_u128: u128,
           p_i8: i8, p_i16: i16, p_i32: i32, p_i64: i64, p_i128: i128);

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..20)) {
            let _ = dec::<i64>(&b);
            let _ = dec::<u128>(&b);
        }
    }
}
