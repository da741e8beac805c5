//! Floats in binary, in total numeric order: the IEEE 754 bits, big-endian,
//! with the sign bit flipped for positive numbers and every bit inverted
//! for negative ones (HBase `OrderedBytes`' float rule; memcomparable and
//! storekey do the same). `-inf < -1.0 < 0.0 < 1.0 < +inf`.
//!
//! Two values have no single place in that order, so:
//! - `-0.0` is stored as `0.0` (they are equal, `-0.0 == 0.0`); decoding
//!   gives `0.0`, and the bytes `-0.0` would have had are refused, so every
//!   stored key decodes to a value that encodes to the same bytes.
//! - NaN is an encode error: NaN equals nothing, not even itself, so no
//!   range or point query could find it. Decoding NaN bytes is an error.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Reading { sensor: u32, celsius: f64 }
//!
//! let cold = Reading { sensor: 1, celsius: -3.5 }.to_key()?;
//! let warm = Reading { sensor: 1, celsius: 21.0 }.to_key()?;
//! assert!(cold < warm);
//! assert_eq!(Reading::decode(&warm)?, Reading { sensor: 1, celsius: 21.0 });
//! let e = Reading { sensor: 1, celsius: f64::NAN }.to_key().unwrap_err();
//! assert_eq!(e.field(), "celsius");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::part::{DecodePart, KeyPart};
use crate::reader::KeyReader;
use crate::writer::KeyWriter;

const NAN: &str =
    "NaN has no place in key order (it equals nothing); store a sentinel or an Option";

macro_rules! float {
    ($($t:ty => $u:ty),*) => {$(
        impl KeyPart for $t {
            const MAX_LEN: usize = core::mem::size_of::<$t>();
            const FIXED_LEN: Option<usize> = Some(core::mem::size_of::<$t>());
            const VALUE: crate::layout::ValueKind =
                crate::layout::ValueKind::Float { bytes: core::mem::size_of::<$t>() as u8 };
            #[inline]
            fn encoded_len(&self) -> usize {
                core::mem::size_of::<$t>()
            }
            #[inline]
            fn encode(&self, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
                if self.is_nan() {
                    return Err(w.error(EncodeErrorKind::Invalid(NAN)));
                }
                // -0.0 + 0.0 is 0.0: one zero.
                let bits = (*self + 0.0).to_bits();
                const SIGN: $u = 1 << (<$u>::BITS - 1);
                let ordered = if bits & SIGN != 0 { !bits } else { bits | SIGN };
                w.put(&ordered.to_be_bytes())
            }
        }
        impl DecodePart<'_> for $t {
            #[inline]
            fn decode(r: &mut KeyReader<'_>) -> Result<Self, DecodeError> {
                let at = r.position();
                let ordered = <$u>::from_be_bytes(r.take_array()?);
                const SIGN: $u = 1 << (<$u>::BITS - 1);
                let bits = if ordered & SIGN != 0 { ordered ^ SIGN } else { !ordered };
                let v = <$t>::from_bits(bits);
                if v.is_nan() {
                    return Err(r.error_at(at, DecodeErrorKind::Invalid("NaN bytes: rowkey never writes NaN")));
                }
                if v == 0.0 && v.is_sign_negative() {
                    return Err(r.error_at(at, DecodeErrorKind::Invalid("-0.0 bytes: rowkey writes 0.0 for both zeros")));
                }
                Ok(v)
            }
        }
    )*};
}

float!(f32 => u32, f64 => u64);

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use crate::codec::test_util::{dec, enc};

    #[test]
    fn golden() {
        assert_eq!(enc(0.0f64).unwrap(), [0x80, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(enc(-0.0f64).unwrap(), [0x80, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(enc(1.0f64).unwrap(), [0xBF, 0xF0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(
            enc(-1.0f64).unwrap(),
            [0x40, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        );
        assert_eq!(enc(f64::INFINITY).unwrap(), [0xFF, 0xF0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(
            enc(f64::NEG_INFINITY).unwrap(),
            [0x00, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        );
        assert_eq!(enc(1.5f32).unwrap(), [0xBF, 0xC0, 0, 0]);
        assert!(enc(f32::NAN).is_err());
        assert!(enc(-f64::NAN).is_err());
        // The bytes -0.0 and NaN would have had are refused.
        assert!(dec::<f64>(&[0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).is_err());
        assert!(dec::<f64>(&[0xFF, 0xF8, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(dec::<f32>(&[0x00, 0x3F, 0xFF, 0xFF]).is_err());
    }

    macro_rules! props {
        ($($name:ident: $t:ty => $u:ty),*) => {$(
            mod $name {
                use super::*;
                proptest! {
                    /// Roundtrip (zeros as 0.0), total order, injectivity.
                    #[test]
                    fn roundtrip_order_injective(a: $t, b: $t) {
                        if a.is_nan() || b.is_nan() {
                            prop_assert!(enc(a).is_err() || enc(b).is_err());
                            return Ok(());
                        }
                        let (ea, eb) = (enc(a).unwrap(), enc(b).unwrap());
                        prop_assert_eq!(dec::<$t>(&ea).unwrap(), a);
                        prop_assert_eq!(a.partial_cmp(&b), Some(ea.cmp(&eb)));
                        prop_assert_eq!(a == b, ea == eb);
                    }

                    /// Any bytes decode to a value that encodes back to them,
                    /// or give an error; never a panic.
                    #[test]
                    fn canonical_decode(bytes in proptest::collection::vec(any::<u8>(), 0..12)) {
                        if let Ok(v) = dec::<$t>(&bytes) {
                            prop_assert_eq!(enc(v).unwrap(), bytes);
                        }
                    }

                    /// Every bit pattern: NaN refused, zeros one, the rest
                    /// roundtrip.
                    #[test]
                    fn every_bit_pattern(bits: $u) {
                        let v = <$t>::from_bits(bits);
                        match enc(v) {
                            Err(_) => prop_assert!(v.is_nan()),
                            Ok(e) => {
                                let back = dec::<$t>(&e).unwrap();
                                prop_assert!(back == v);
                                prop_assert!(!back.is_sign_negative() || back != 0.0);
                            }
                        }
                    }
                }
            }
        )*};
    }
    props!(p_f32: f32 => u32, p_f64: f64 => u64);
}
