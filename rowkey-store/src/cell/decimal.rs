//! `rust_decimal::Decimal` in a cell, as HBase's `Bytes.toBytes(BigDecimal)`
//! writes a `BigDecimal`: the scale as a 4-byte big-endian `int`, then the
//! unscaled value's two's complement, big-endian, in as few bytes as hold
//! it (`BigInteger.toByteArray`). `Bytes.toBigDecimal` reads it back.
//!
//! A value Java wrote with a negative scale, a scale over 28 or an
//! unscaled value over 96 bits has no `Decimal`: an error, not a rounding.

use super::{CellError, CellValue};
use rust_decimal::Decimal;

/// The most unscaled bits a `Decimal` holds: 96, and a sign.
const MAX_MANTISSA: i128 = (1 << 96) - 1;

impl CellValue for Decimal {
    fn to_cell(&self) -> Vec<u8> {
        let scale = self.scale() as i32;
        let m = self.mantissa();
        let full = m.to_be_bytes();
        // Drop leading bytes that only repeat the sign (toByteArray's
        // minimal form; at least one byte).
        let mut start = 0;
        while start < 15 {
            let (b, next) = (full[start], full[start + 1]);
            let redundant = (b == 0x00 && next & 0x80 == 0) || (b == 0xFF && next & 0x80 != 0);
            if !redundant {
                break;
            }
            start += 1;
        }
        let mut v = Vec::with_capacity(4 + 16 - start);
        v.extend_from_slice(&scale.to_be_bytes());
        v.extend_from_slice(&full[start..]);
        v
    }

    fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
        if bytes.len() < 5 {
            return Err(CellError::invalid(format!(
                "expected at least 5 bytes (a decimal: a 4-byte scale, then the unscaled \
                 value), found {}",
                bytes.len()
            )));
        }
        let (scale, digits) = bytes.split_at(4);
        let scale = i32::from_be_bytes(scale.try_into().unwrap_or_default());
        if !(0..=28).contains(&scale) {
            return Err(CellError::invalid(format!(
                "decimal scale {scale}: a rust_decimal Decimal has scale 0 to 28"
            )));
        }
        if digits.len() > 16 {
            return Err(CellError::invalid(format!(
                "a decimal's unscaled value of {} bytes: a rust_decimal Decimal holds 96 bits",
                digits.len()
            )));
        }
        let fill = if digits[0] & 0x80 != 0 { 0xFF } else { 0x00 };
        let mut full = [fill; 16];
        full[16 - digits.len()..].copy_from_slice(digits);
        let m = i128::from_be_bytes(full);
        if !(-MAX_MANTISSA..=MAX_MANTISSA).contains(&m) {
            return Err(CellError::invalid(
                "a decimal's unscaled value over 96 bits: a rust_decimal Decimal holds 96",
            ));
        }
        Decimal::try_from_i128_with_scale(m, scale as u32)
            .map_err(|e| CellError::invalid(format!("no decimal: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn java_big_decimal_bytes() {
        // new BigDecimal("1.5"): scale 1, unscaled 15.
        assert_eq!(Decimal::new(15, 1).to_cell(), [0, 0, 0, 1, 15]);
        // -1: scale 0, unscaled -1 = ff.
        assert_eq!(Decimal::new(-1, 0).to_cell(), [0, 0, 0, 0, 0xFF]);
        // 128: 00 80 (the sign needs a byte).
        assert_eq!(Decimal::new(128, 0).to_cell(), [0, 0, 0, 0, 0, 0x80]);
        assert_eq!(Decimal::new(-128, 0).to_cell(), [0, 0, 0, 0, 0x80]);
        assert_eq!(Decimal::ZERO.to_cell(), [0, 0, 0, 0, 0]);
        assert!(Decimal::from_cell(&[0xFF, 0xFF, 0xFF, 0xFF, 1]).is_err());
        assert!(Decimal::from_cell(&[0, 0, 0, 29, 1]).is_err());
        assert!(Decimal::from_cell(&[0, 0, 0, 0]).is_err());
        let mut big = vec![0, 0, 0, 0, 0x01];
        big.extend([0; 12]);
        assert!(Decimal::from_cell(&big).is_err(), "2^96");
    }

    proptest! {
        #[test]
        fn decimals_roundtrip(lo: u32, mid: u32, hi: u32, neg: bool, scale in 0u32..=28) {
            let d = Decimal::from_parts(lo, mid, hi, neg, scale);
            let back = Decimal::from_cell(&d.to_cell()).unwrap();
            prop_assert_eq!(back, d);
            prop_assert_eq!(back.scale(), d.scale());
        }

        #[test]
        fn any_bytes_give_a_decimal_or_an_error(v in proptest::collection::vec(any::<u8>(), 0..24)) {
            let _ = Decimal::from_cell(&v);
        }
    }
}
