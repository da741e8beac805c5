//! `rust_decimal::Decimal` (feature `rust_decimal`), binary, in numeric
//! order for every value: negatives, zero, the extremes.
//!
//! A decimal `v` is written as `0.D1 D2 … Dn × 100^E` with base-100
//! ("centimal") digits, `D1` and `Dn` not zero:
//!
//! - one header byte: `0x80` for zero (and nothing after it); `0x8E + E`
//!   for a positive value (`E` is `-13..=15` for `Decimal`, so
//!   `0x81..=0x9D`); a larger exponent means a larger value;
//! - then each digit as `2·D + 1`, the last as `2·D`: the only even byte
//!   ends the value, so no encoding is a prefix of another (the digit rule
//!   of HBase `OrderedBytes`' numeric encoding, with a one-byte header of
//!   rowkey's own since a `Decimal`'s exponent is bounded);
//! - a negative value is the bytes of its absolute value, every bit
//!   inverted (headers `0x62..=0x7E`), so larger magnitudes sort first.
//!
//! At most 16 bytes; `1` and `0.5` are 2 bytes, `1.5`, `19.99` and `-250` are 3.
//!
//! **Canonical form.** `1.5`, `1.50` and `1.500` are one value (`Decimal`'s
//! `==` says so) and write the same bytes. Decoding gives the normalised
//! value (`Decimal::normalize`: no trailing zeros, so `1.50` comes back as
//! `1.5` and `-0` as `0`), which writes the same bytes again; any other
//! bytes (a leading or trailing zero digit, a digit over 99, more than 28
//! decimal places, more than 15 digits, a value past `Decimal::MAX`) are a
//! decode error naming the byte.
//!
//! A decimal is not fixed-width, so `#[desc]` does not apply to it.
//!
//! ```
//! use rowkey::RowKey;
//! use rust_decimal::Decimal;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Price { symbol: u32, price: Decimal }
//!
//! let key = |p: &str| Price { symbol: 7, price: p.parse().unwrap() }.to_key().unwrap();
//! assert!(key("-1.5") < key("0") && key("0") < key("0.001") && key("0.001") < key("19.99"));
//! assert_eq!(&key("1.5")[4..], [0x8F, 0x03, 0x64]); // 0.01 50 × 100^1
//! assert_eq!(key("1.50"), key("1.5"));              // one value, one key
//! let back = Price::decode(&key("1.50"))?;
//! assert_eq!(back.price.to_string(), "1.5");        // the normalised form
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::part::{DecodePart, KeyPart};
use crate::reader::KeyReader;
use crate::writer::KeyWriter;
use rust_decimal::Decimal;

/// The header of zero, between every negative and every positive header.
const ZERO: u8 = 0x80;
/// A positive value's header is `POSITIVE + E`.
const POSITIVE: u8 = 0x8E;
/// The centimal exponents a `Decimal` can have: `1e-28` is `0.01 × 100^-13`,
/// `Decimal::MAX` (29 digits) is `0.07… × 100^15`.
const EXPONENTS: core::ops::RangeInclusive<i32> = -13..=15;
/// Centimal digits of the longest `Decimal` (29 decimal digits).
const MAX_DIGITS: usize = 15;
const _: () = assert!(1 + MAX_DIGITS == crate::layout::rules::DECIMAL_PART_MAX_LEN);
/// `Decimal`'s largest mantissa, `2^96 - 1`.
const MAX_MANTISSA: u128 = (1 << 96) - 1;

/// A nonzero decimal's sign, exponent and centimal digits, most
/// significant first.
struct Centimal {
    negative: bool,
    exponent: i32,
    digits: [u8; MAX_DIGITS],
    len: usize,
}

impl Centimal {
    /// `None` for zero (either sign).
    fn of(d: &Decimal) -> Option<Self> {
        let mut m = d.mantissa().unsigned_abs();
        if m == 0 {
            return None;
        }
        // v = m × 10^-scale; strip trailing zeros (the normalised value),
        // then make the scale even so base-100 digits line up with the
        // decimal point. `scale` may go negative (100 = 1 × 10^2).
        let mut scale = d.scale() as i32;
        while m.is_multiple_of(10) {
            m /= 10;
            scale -= 1;
        }
        if scale % 2 != 0 {
            m *= 10;
            scale += 1;
        }
        let mut reversed = [0u8; MAX_DIGITS];
        let mut len = 0;
        while m > 0 {
            reversed[len] = (m % 100) as u8;
            m /= 100;
            len += 1;
        }
        let mut digits = [0u8; MAX_DIGITS];
        for (i, d) in reversed[..len].iter().rev().enumerate() {
            digits[i] = *d;
        }
        Some(Centimal {
            negative: d.is_sign_negative(),
            exponent: len as i32 - scale / 2,
            digits,
            len,
        })
    }
}

impl KeyPart for Decimal {
    const MAX_LEN: usize = crate::layout::rules::DECIMAL_PART_MAX_LEN;
    const FIXED_LEN: Option<usize> = None;
    const VALUE: crate::layout::ValueKind = crate::layout::ValueKind::Decimal;
    fn encoded_len(&self) -> usize {
        Centimal::of(self).map_or(1, |c| 1 + c.len)
    }
    fn encode(&self, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
        let Some(c) = Centimal::of(self) else {
            return w.put_byte(ZERO);
        };
        let flip = if c.negative { 0xFF } else { 0 };
        let mut out = [0u8; 1 + MAX_DIGITS];
        out[0] = (POSITIVE as i32 + c.exponent) as u8 ^ flip;
        for (i, d) in c.digits[..c.len].iter().enumerate() {
            let more = (i + 1 < c.len) as u8;
            out[1 + i] = (2 * d + more) ^ flip;
        }
        w.put(&out[..1 + c.len])
    }
}

impl DecodePart<'_> for Decimal {
    fn decode(r: &mut KeyReader<'_>) -> Result<Self, DecodeError> {
        let invalid = |r: &KeyReader<'_>, at, why| r.error_at(at, DecodeErrorKind::Invalid(why));
        let at = r.position();
        let header = r.take_byte()?;
        if header == ZERO {
            return Ok(Decimal::ZERO);
        }
        let negative = header < ZERO;
        let flip = if negative { 0xFF } else { 0 };
        let exponent = (header ^ flip) as i32 - POSITIVE as i32;
        if !EXPONENTS.contains(&exponent) {
            return Err(invalid(r, at, "not a Decimal header byte"));
        }
        let mut n: u128 = 0;
        let mut count = 0;
        loop {
            let digit_at = r.position();
            let byte = r.take_byte()? ^ flip;
            let digit = byte >> 1;
            count += 1;
            if digit > 99 {
                return Err(invalid(r, digit_at, "a Decimal digit byte above 199"));
            }
            if count == 1 && digit == 0 {
                return Err(invalid(
                    r,
                    digit_at,
                    "a leading zero digit: rowkey writes normalised Decimals",
                ));
            }
            n = n * 100 + digit as u128;
            if byte & 1 == 0 {
                if digit == 0 {
                    return Err(invalid(
                        r,
                        digit_at,
                        "a trailing zero digit: rowkey writes normalised Decimals",
                    ));
                }
                break;
            }
            if count == MAX_DIGITS {
                return Err(invalid(r, digit_at, "more than 15 Decimal digit bytes"));
            }
        }
        // v = n × 100^(exponent - count).
        let shift = exponent - count as i32;
        let (mantissa, scale) = if shift >= 0 {
            let m = 100u128
                .checked_pow(shift as u32)
                .and_then(|p| n.checked_mul(p));
            (m.unwrap_or(u128::MAX), 0)
        } else if n.is_multiple_of(10) {
            (n / 10, (-2 * shift - 1) as u32)
        } else {
            (n, (-2 * shift) as u32)
        };
        if scale > 28 {
            return Err(invalid(
                r,
                at,
                "more than 28 decimal places, past Decimal's precision",
            ));
        }
        if mantissa > MAX_MANTISSA {
            return Err(invalid(r, at, "a value beyond Decimal::MAX"));
        }
        let signed = if negative {
            -(mantissa as i128)
        } else {
            mantissa as i128
        };
        Decimal::try_from_i128_with_scale(signed, scale)
            .map_err(|_| invalid(r, at, "a value beyond Decimal::MAX"))
    }
}

#[cfg(test)]
#[path = "rust_decimal_tests.rs"]
mod tests;
