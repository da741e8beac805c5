//! Phoenix's `DECIMAL` (`PDataType.toBytes(BigDecimal)`, `toBigDecimal`):
//! a number as an exponent byte and base-100 digits, variable-length and
//! ordered (within `1E-126 <= |v| < 1E+126`, where Phoenix's own exponent
//! byte does not wrap).
//!
//! Write `|v| = d0 * 100^E + d1 * 100^(E-1) + ...` with `d0` in 1..=99 and
//! the digits aligned on the decimal point (so `12.5` is `12|50`):
//! - `v > 0`: `0x80 | (E + 65)`, then each digit plus 1;
//! - `v < 0`: the exponent byte inverted, each digit as `101 - d`, then
//!   `0x66` (so `-1` sorts above `-1.5`);
//! - `0`: the one byte `0x80`.
//!
//! Phoenix strips trailing zeros first (`1.50` is `1.5`), so a value has
//! one form. [`DecimalDigits`] is a decimal as its base-10 digits, the
//! type-independent middle every decimal type goes through.

pub use super::decimal_digits::DecimalDigits;
use crate::error::DecodeErrorKind;

/// The most base-10 digits a Phoenix `DECIMAL` holds.
pub const MAX_DECIMAL_DIGITS: usize = 38;

/// Why a decimal has no Phoenix bytes: its exponent is outside what
/// Phoenix's exponent byte holds.
pub const DECIMAL_OUT_OF_RANGE: &str =
    "Phoenix's DECIMAL holds 1E-126 <= |v| < 1E+124 (beyond, its exponent byte wraps or \
     equals a key separator)";

/// The most bytes a `DECIMAL` takes: the exponent, 20 base-100 digits and
/// a negative value's terminator.
pub const MAX_DECIMAL_BYTES: usize = 22;

/// A `DECIMAL`'s bytes (ascending form), or why there are none.
///
/// ```
/// use rowkey::codec::phoenix::{decimal_bytes, DecimalDigits};
/// let v = DecimalDigits::from_scaled(false, 125, 1).unwrap(); // 12.5
/// assert_eq!(decimal_bytes(&v).unwrap().as_slice(), [0xc1, 0x0d, 0x33]);
/// let v = DecimalDigits::from_scaled(true, 1, 3).unwrap(); // -0.001
/// assert_eq!(decimal_bytes(&v).unwrap().as_slice(), [0x40, 0x5b, 0x66]);
/// ```
pub fn decimal_bytes(v: &DecimalDigits) -> Result<DecimalBytes, &'static str> {
    let mut out = DecimalBytes {
        bytes: [0; MAX_DECIMAL_BYTES],
        len: 0,
    };
    if v.len == 0 {
        out.push(0x80);
        return Ok(out);
    }
    // Align on the decimal point: an even count of digits before it.
    let lead = usize::from(v.point.rem_euclid(2) != 0);
    let Some(aligned) = v.point.checked_add(lead as i32) else {
        return Err(DECIMAL_OUT_OF_RANGE);
    };
    let e = aligned / 2 - 1;
    // -63..=61: the exponent byte stays in 0x01..=0xFE either way (a
    // negative E = 62 would write 0x00, a separator).
    if !(-63..=61).contains(&e) {
        return Err(DECIMAL_OUT_OF_RANGE);
    }
    let head = 0x80 | (e + 65) as u8;
    out.push(if v.negative { !head } else { head });
    let tens = |i: usize| -> u8 {
        // Digit i of the aligned digits: `lead` zeros first, zeros after.
        i.checked_sub(lead)
            .and_then(|j| v.digits().get(j))
            .copied()
            .unwrap_or(0)
    };
    let pairs = (lead + v.len).div_ceil(2);
    for k in 0..pairs {
        let d = tens(2 * k) * 10 + tens(2 * k + 1);
        out.push(if v.negative { 101 - d } else { d + 1 });
    }
    // Phoenix caps a DECIMAL at 21 bytes: a 38-digit negative value
    // aligned to 20 base-100 digits loses its terminator.
    if v.negative && out.len < MAX_DECIMAL_BYTES - 1 {
        out.push(0x66);
    }
    Ok(out)
}

/// A `DECIMAL`'s bytes, on the stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecimalBytes {
    bytes: [u8; MAX_DECIMAL_BYTES],
    len: usize,
}

impl DecimalBytes {
    fn push(&mut self, b: u8) {
        self.bytes[self.len] = b;
        self.len += 1;
    }

    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// The decimal of a `DECIMAL`'s bytes (ascending form), refusing bytes
/// Phoenix's encoder never writes (a leading or trailing zero digit, a
/// digit byte out of range, a negative value without its `0x66`).
pub fn decimal_from(bytes: &[u8]) -> Result<DecimalDigits, DecodeErrorKind> {
    let bad = |why| Err(DecodeErrorKind::Invalid(why));
    let Some((&head, rest)) = bytes.split_first() else {
        return bad("an empty DECIMAL: Phoenix writes 0 as 0x80");
    };
    if head == 0x80 {
        return match rest {
            [] => Ok(DecimalDigits::zero()),
            _ => bad("a DECIMAL 0 with digits after it"),
        };
    }
    let negative = head & 0x80 == 0;
    let (exp_byte, digit_bytes) = if negative {
        match rest.split_last() {
            Some((&0x66, digits)) if bytes.len() < MAX_DECIMAL_BYTES => (!head, digits),
            // Phoenix's 21-byte cap (see decimal_bytes).
            Some(_) if bytes.len() == MAX_DECIMAL_BYTES - 1 => (!head, rest),
            _ => return bad("a negative DECIMAL without its 0x66 terminator"),
        }
    } else {
        (head, rest)
    };
    let e = i32::from(exp_byte & 0x7F) - 65;
    if !(-63..=61).contains(&e) {
        return bad(DECIMAL_OUT_OF_RANGE);
    }
    if digit_bytes.is_empty() || digit_bytes.len() > MAX_DECIMAL_DIGITS / 2 + 1 {
        return bad("a DECIMAL with no digits, or more than 38");
    }
    let mut tens = [0u8; MAX_DECIMAL_DIGITS + 2];
    for (i, &b) in digit_bytes.iter().enumerate() {
        let d = if negative {
            101u8.checked_sub(b).filter(|_| b >= 2)
        } else {
            b.checked_sub(1).filter(|_| b <= 100)
        };
        let Some(d) = d.filter(|d| *d <= 99) else {
            return bad("a DECIMAL digit byte out of range");
        };
        tens[2 * i] = d / 10;
        tens[2 * i + 1] = d % 10;
    }
    let n = 2 * digit_bytes.len();
    if tens[0] == 0 && tens[1] == 0 {
        return bad("a DECIMAL whose first base-100 digit is 0");
    }
    if tens[n - 2] == 0 && tens[n - 1] == 0 {
        return bad("a DECIMAL whose last base-100 digit is 0");
    }
    let (from, point) = if tens[0] == 0 {
        (1, 2 * (e + 1) - 1)
    } else {
        (0, 2 * (e + 1))
    };
    let to = if tens[n - 1] == 0 { n - 1 } else { n };
    if to - from > MAX_DECIMAL_DIGITS {
        return bad("a DECIMAL of more than 38 digits");
    }
    let mut digits = [0u8; MAX_DECIMAL_DIGITS];
    digits[..to - from].copy_from_slice(&tens[from..to]);
    Ok(DecimalDigits {
        negative,
        digits,
        len: to - from,
        point,
    })
}

/// Why `d` does not fit a `DECIMAL(p,s)` column (`ty`), if it does not:
/// more digits before the point than `p - s` (Phoenix refuses it) or
/// more after it than `s` (Phoenix would cut them off).
pub(super) fn misfit(d: &DecimalDigits, ty: &super::PhoenixType) -> Option<&'static str> {
    let super::PhoenixType::Decimal {
        precision: Some(p),
        scale,
    } = *ty
    else {
        return None;
    };
    let s = i32::from(scale.unwrap_or(0));
    if d.integer_digits() > i32::from(p) - s {
        return Some("more digits before the point than DECIMAL(p,s) holds (p - s)");
    }
    if d.scale() > s {
        return Some(
            "more digits after the point than the column's scale: Phoenix would cut them off \
             (round it first)",
        );
    }
    None
}

#[cfg(feature = "rust_decimal")]
mod rust_decimal_value {
    use super::super::value::PhoenixValue;
    use super::super::PhoenixType;
    use super::{decimal_bytes, decimal_from, DecimalDigits};
    use crate::error::{DecodeErrorKind, EncodeErrorKind};
    use rust_decimal::Decimal;

    fn digits(v: &Decimal) -> DecimalDigits {
        let n = v.normalize();
        // 96 bits: at most 29 digits, within Phoenix's 38.
        DecimalDigits::from_scaled(
            n.is_sign_negative(),
            n.mantissa().unsigned_abs(),
            n.scale() as i32,
        )
        .unwrap_or_else(DecimalDigits::zero)
    }

    /// `rust_decimal::Decimal` as `DECIMAL` and `DECIMAL(p,s)`: normalised
    /// (`1.50` is stored as `1.5`, as Phoenix does); a value with more
    /// decimals than the column's scale is refused (Phoenix would cut it
    /// off), as is one with more integer digits than `p - s`.
    impl PhoenixValue for Decimal {
        const HOLDS: u32 = PhoenixType::Decimal {
            precision: None,
            scale: None,
        }
        .bit();
        fn phoenix_len(&self, _: &PhoenixType) -> usize {
            decimal_bytes(&digits(self)).map_or(0, |b| b.as_slice().len())
        }
        fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
            let PhoenixType::Decimal { .. } = *ty else {
                return Err(EncodeErrorKind::Invalid(
                    "this Rust type does not hold that Phoenix type",
                ));
            };
            let d = digits(self);
            if let Some(why) = super::misfit(&d, ty) {
                return Err(EncodeErrorKind::Invalid(why));
            }
            decimal_bytes(&d)
                .map(|_| ())
                .map_err(EncodeErrorKind::Invalid)
        }
        fn put_phoenix(&self, _: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
            if let Ok(b) = decimal_bytes(&digits(self)) {
                out(b.as_slice());
            }
        }
        fn from_phoenix(bytes: Option<&[u8]>, ty: &PhoenixType) -> Result<Self, DecodeErrorKind> {
            let bytes = bytes.ok_or(DecodeErrorKind::Invalid(
                "the column is NULL here: make the field an Option",
            ))?;
            let d = decimal_from(bytes)?;
            if let Some(why) = super::misfit(&d, ty) {
                return Err(DecodeErrorKind::Invalid(why));
            }
            let too_big = DecodeErrorKind::Invalid(
                "a DECIMAL rust_decimal cannot hold (at most 28 digits, 28 after the point)",
            );
            let (negative, m, scale) = d.to_scaled().ok_or(too_big)?;
            let m = i128::try_from(m).map_err(|_| too_big)?;
            let v = Decimal::try_from_i128_with_scale(if negative { -m } else { m }, scale)
                .map_err(|_| too_big)?;
            Ok(v)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digits(text: &str) -> DecimalDigits {
        let negative = text.starts_with('-');
        let text = text.trim_start_matches('-');
        let (int, frac) = text.split_once('.').unwrap_or((text, ""));
        let all: String = format!("{int}{frac}");
        let mantissa: u128 = all.parse().unwrap();
        DecimalDigits::from_scaled(negative, mantissa, frac.len() as i32).unwrap()
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn the_forms_phoenix_writes() {
        // testing/phoenix/notes/types.md §2.6, observed from Phoenix 5.2.1.
        let cases = [
            ("0", "80"),
            ("1", "c102"),
            ("1.5", "c10233"),
            ("10", "c10b"),
            ("99", "c164"),
            ("100", "c202"),
            ("0.1", "c00b"),
            ("0.01", "c002"),
            ("123.45", "c202182e"),
            ("0.0000000001", "bc02"),
            ("-1", "3e6466"),
            ("-1.5", "3e643366"),
            ("-99", "3e0266"),
            ("-100", "3d6466"),
            ("-123.45", "3d644e3866"),
            ("-0.5", "3f3366"),
            ("-0.001", "405b66"),
            ("12.345", "c10d2333"),
            ("1.50", "c10233"),
        ];
        for (text, want) in cases {
            let v = digits(text);
            let bytes = decimal_bytes(&v).unwrap();
            assert_eq!(hex(bytes.as_slice()), want, "{text}");
            assert_eq!(decimal_from(bytes.as_slice()).unwrap(), v, "{text}");
        }
    }

    #[test]
    fn bytes_phoenix_never_writes_are_refused() {
        for bad in [
            &[][..],
            &[0x80, 0x01],
            &[0xc1, 0x01],       // a leading zero digit
            &[0xc1, 0x02, 0x01], // a trailing zero digit
            &[0xc1, 0x66],       // digit byte past 100
            &[0x3e, 0x64],       // negative without 0x66
        ] {
            assert!(decimal_from(bad).is_err(), "{bad:02x?}");
        }
    }
}
