//! `#[text(width = W, scale = S)]` on `rust_decimal::Decimal`: zero-padded
//! digits with exactly `S` decimals after a `.` (none for `S = 0`), `W`
//! characters in all: `12.5` with `width = 8, scale = 2` is `00012.50`.
//!
//! Fixed width and fixed scale make byte order numeric order. Values
//! that cannot be written that way are encode errors, never a rounded or
//! cut key: a negative value (a `-` would not sort; use the binary
//! `Decimal` codec, which orders negatives), more decimals than `S`
//! (`1.234` at scale 2: round it yourself first) and more digits than fit.
//! Trailing zeros are not decimals: `1.50` and `1.5` write `0001.50`
//! alike, and every key decodes to a value of scale `S` (`1.50`), which
//! `==` holds equal to `1.5`.
//!
//! Its rules need no feature (the derive reads them); its bytes need
//! `rust_decimal`.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::layout::rules::{ByteSet, CodecRules};
use crate::layout::{FieldLayout, LayoutCodec};
use crate::reader::KeyReader;
use crate::scan::field_codec::owned_value;
#[cfg(feature = "rust_decimal")]
use crate::scan::{
    field_codec::{unreachable_codec, OwnedValue, ScanCodec, ScanFieldInfo},
    LatestNeedsADescTsField,
};
use crate::values::mismatch::mismatch;
use crate::values::value::Value;
use crate::writer::KeyWriter;
use core::fmt::{self, Write};
#[cfg(feature = "rust_decimal")]
use rust_decimal::Decimal;

pub use crate::layout::rules::{MAX_DECIMAL_DIGITS as MAX_DIGITS, MAX_DECIMAL_SCALE as MAX_SCALE};

/// The `#[text(width, scale)]` codec of a `Decimal`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DecimalText {
    /// Characters written, the `.` included.
    pub width: usize,
    /// Digits after the `.`.
    pub scale: u32,
}

#[cfg(feature = "rust_decimal")]
fn count_digits(mut v: u128) -> usize {
    let mut n = 1;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

impl DecimalText {
    /// Whether `width` and `scale` make a codec: `scale <= 28`, at least
    /// one integer digit, at most 38 digits.
    pub const fn is_valid(width: usize, scale: u32) -> bool {
        crate::layout::rules::decimal_text_is_valid(width, scale)
    }

    /// Its format rules: a text form of digits and the point.
    pub(crate) const fn rules(&self) -> CodecRules {
        CodecRules::text_form(self.width, ByteSet::DIGITS.with(b'.'))
    }
}

#[cfg(feature = "rust_decimal")]
impl DecimalText {
    /// Where the `.` is, when there is one.
    const fn point(&self) -> Option<usize> {
        if self.scale == 0 {
            None
        } else {
            Some(self.width - 1 - self.scale as usize)
        }
    }

    /// Digits the field holds.
    const fn digits(&self) -> usize {
        self.width - (self.scale > 0) as usize
    }

    /// Writes `v`.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rust_decimal::Decimal;
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Price { #[text(width = 8, scale = 2)] amount: Decimal, sku: u32 }
    ///
    /// let amount = Decimal::new(125, 1); // 12.5
    /// let key = Price { amount, sku: 7 }.to_key()?;
    /// assert_eq!(&key[..8], b"00012.50");
    /// assert_eq!(Price::decode(&key)?.amount, amount);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn put(&self, w: &mut KeyWriter<'_>, v: &Decimal) -> Result<(), EncodeError> {
        let at = w.position();
        if v.mantissa() < 0 {
            return Err(w.error(EncodeErrorKind::NegativeText));
        }
        let (mut m, mut scale) = (v.mantissa().unsigned_abs(), v.scale());
        while scale > self.scale {
            if m % 10 != 0 {
                return Err(w.error(EncodeErrorKind::Invalid(
                    "more decimals than the field's scale; round the value first (a key is never rounded silently)",
                )));
            }
            m /= 10;
            scale -= 1;
        }
        let shift = (self.scale - scale) as usize;
        let needed = if m == 0 { 1 } else { count_digits(m) + shift };
        if needed > self.digits() {
            let point = usize::from(self.scale > 0);
            return Err(w.error_at(
                at,
                EncodeErrorKind::TooManyDigits {
                    digits: needed.max(self.scale as usize + 1) + point,
                    width: self.width,
                },
            ));
        }
        // Fits in `digits() <= 38` digits, so no overflow.
        let mut n = m * 10u128.pow(shift as u32);
        let point = self.point();
        let out = w.reserve(self.width)?;
        for (i, b) in out.iter_mut().enumerate().rev() {
            if Some(i) == point {
                *b = b'.';
                continue;
            }
            *b = b'0' + (n % 10) as u8;
            n /= 10;
        }
        Ok(())
    }

    /// Reads a value of scale `S`; a byte that is not a digit (or not the
    /// `.`) is an error at its offset.
    pub fn take(&self, r: &mut KeyReader<'_>) -> Result<Decimal, DecodeError> {
        let at = r.position();
        let text = r.take(self.width)?;
        let point = self.point();
        let mut n: u128 = 0;
        for (i, &b) in text.iter().enumerate() {
            if Some(i) == point {
                if b != b'.' {
                    return Err(r.error_at(
                        at + i,
                        DecodeErrorKind::Invalid("expected the decimal point '.'"),
                    ));
                }
                continue;
            }
            if !b.is_ascii_digit() {
                return Err(r.error_at(at + i, DecodeErrorKind::InvalidDigit { byte: b }));
            }
            n = n * 10 + u128::from(b - b'0');
        }
        // At the field's scale first (`1.50` reads as 1.50). A value
        // whose digits at that scale pass 96 bits but whose trailing
        // decimals are zeros was written from a Decimal of a smaller scale
        // (`7922816251426433760.0000000000`): read it at the smallest
        // scale that keeps it exact.
        let mut scale = self.scale;
        loop {
            if let Some(v) = i128::try_from(n)
                .ok()
                .and_then(|n| Decimal::try_from_i128_with_scale(n, scale).ok())
            {
                return Ok(v);
            }
            if scale == 0 || !n.is_multiple_of(10) {
                return Err(r.error_at(at, DecodeErrorKind::Overflow));
            }
            n /= 10;
            scale -= 1;
        }
    }
}

/// A decimal as typed (`12.50`), as `Decimal` holds it.
#[cfg(feature = "rust_decimal")]
pub(crate) fn parse_decimal(w: &KeyWriter<'_>, d: &str) -> Result<Decimal, EncodeError> {
    use core::str::FromStr;
    Decimal::from_str(d).map_err(|_| {
        w.error(EncodeErrorKind::Invalid(
            "not a decimal rust_decimal holds (28 digits at most)",
        ))
    })
}

/// Why the interpreter reads or writes no decimal without `rust_decimal`
/// (text or binary: both go through `Decimal`).
#[cfg(not(feature = "rust_decimal"))]
pub(crate) const NEEDS_RUST_DECIMAL: &str =
    "a decimal field needs rowkey-core's `rust_decimal` feature";

impl LayoutCodec for DecimalText {
    fn put_value(
        &self,
        w: &mut KeyWriter<'_>,
        _: &FieldLayout,
        v: &Value,
    ) -> Result<(), EncodeError> {
        let Value::Decimal(d) = v else {
            return Err(mismatch(w));
        };
        #[cfg(feature = "rust_decimal")]
        return self.put(w, &parse_decimal(w, d)?);
        #[cfg(not(feature = "rust_decimal"))]
        return {
            let _ = d;
            Err(w.error(EncodeErrorKind::Invalid(NEEDS_RUST_DECIMAL)))
        };
    }

    fn take_value(
        &self,
        r: &mut KeyReader<'_>,
        _: &FieldLayout,
        _: bool,
    ) -> Result<Value, DecodeError> {
        #[cfg(feature = "rust_decimal")]
        return Ok(Value::Decimal(self.take(r)?.to_string()));
        #[cfg(not(feature = "rust_decimal"))]
        return Err(r.error(DecodeErrorKind::Invalid(NEEDS_RUST_DECIMAL)));
    }

    fn explain(&self, s: &mut String, ty: &str) -> fmt::Result {
        let (width, scale) = (self.width, self.scale);
        write!(
            s,
            "{ty} as {width} zero-padded characters with {scale} decimals"
        )
    }
}

/// Scans: the codec is its own scan codec type, its steps take a
/// `Decimal`; its width and scale are the layout's.
#[cfg(feature = "rust_decimal")]
impl ScanCodec for DecimalText {
    type Value<'v> = Decimal;
    type Prefix = str;
    type LatestRule = LatestNeedsADescTsField;

    #[inline]
    fn put(w: &mut KeyWriter<'_>, f: &ScanFieldInfo, v: &Decimal) -> Result<(), EncodeError> {
        match f.layout.codec {
            crate::FieldCodec::DecimalText { width, scale } => {
                DecimalText { width, scale }.put(w, v)
            }
            _ => unreachable_codec(),
        }
    }
}

owned_value! {
    #[cfg(feature = "rust_decimal")] [] DecimalText => Decimal;
}

#[cfg(feature = "rust_decimal")]
crate::scan::field_codec::in_item_owned! {
    impl<> for DecimalText => Decimal;
}

#[cfg(all(test, feature = "rust_decimal"))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn enc(c: DecimalText, v: Decimal) -> Result<Vec<u8>, EncodeError> {
        let mut out = vec![0u8; c.width];
        let mut w = KeyWriter::new(&mut out, "T");
        c.put(&mut w, &v)?;
        Ok(out)
    }

    fn dec(c: DecimalText, b: &[u8]) -> Result<Decimal, DecodeError> {
        let mut r = KeyReader::new(b, "T");
        let v = c.take(&mut r)?;
        r.finish()?;
        Ok(v)
    }

    const MONEY: DecimalText = DecimalText { width: 8, scale: 2 };

    #[test]
    fn golden() {
        assert_eq!(enc(MONEY, Decimal::new(125, 1)).unwrap(), b"00012.50");
        assert_eq!(enc(MONEY, Decimal::new(150, 2)).unwrap(), b"00001.50");
        assert_eq!(enc(MONEY, Decimal::new(15000, 4)).unwrap(), b"00001.50");
        assert_eq!(enc(MONEY, Decimal::ZERO).unwrap(), b"00000.00");
        assert_eq!(enc(MONEY, -Decimal::ZERO).unwrap(), b"00000.00");
        assert_eq!(enc(MONEY, Decimal::new(9999999, 2)).unwrap(), b"99999.99");
        let whole = DecimalText { width: 3, scale: 0 };
        assert_eq!(enc(whole, Decimal::new(42, 0)).unwrap(), b"042");
        assert_eq!(enc(whole, Decimal::new(4200, 2)).unwrap(), b"042");
        let back = dec(MONEY, b"00012.50").unwrap();
        assert_eq!((back, back.scale()), (Decimal::new(125, 1), 2));
    }

    #[test]
    fn errors() {
        assert_eq!(
            enc(MONEY, Decimal::new(-1, 2)).unwrap_err().kind(),
            EncodeErrorKind::NegativeText
        );
        assert!(matches!(
            enc(MONEY, Decimal::new(1234, 3)).unwrap_err().kind(),
            EncodeErrorKind::Invalid(why) if why.contains("more decimals")
        ));
        assert_eq!(
            enc(MONEY, Decimal::new(100000, 0)).unwrap_err().kind(),
            EncodeErrorKind::TooManyDigits {
                digits: 9,
                width: 8
            }
        );
        assert!(enc(MONEY, Decimal::MAX).is_err());
        let e = dec(MONEY, b"00012,50").unwrap_err();
        assert_eq!(e.offset(), 5);
        let e = dec(MONEY, b"0001x.50").unwrap_err();
        assert_eq!(
            (e.offset(), e.kind()),
            (4, DecodeErrorKind::InvalidDigit { byte: b'x' })
        );
        // 38 nines do not fit a Decimal's 96-bit mantissa.
        let wide = DecimalText {
            width: 38,
            scale: 0,
        };
        assert_eq!(
            dec(wide, &[b'9'; 38]).unwrap_err().kind(),
            DecodeErrorKind::Overflow
        );
        // Written from a Decimal of scale 0, read back exactly although its
        // digits at scale 10 pass the 96-bit mantissa.
        let big = DecimalText {
            width: 30,
            scale: 10,
        };
        let v = Decimal::new(7_922_816_251_426_433_760, 0);
        let text = enc(big, v).unwrap();
        assert_eq!(&text[..], &b"7922816251426433760.0000000000"[..]);
        assert_eq!(dec(big, &text).unwrap(), v);
        assert_eq!(dec(MONEY, b"00012.50").unwrap().to_string(), "12.50");
        assert!(DecimalText::is_valid(8, 2) && DecimalText::is_valid(1, 0));
        assert!(!DecimalText::is_valid(3, 2) && !DecimalText::is_valid(39, 0));
        assert!(!DecimalText::is_valid(40, 29));
    }

    fn codecs() -> impl Strategy<Value = DecimalText> {
        (0u32..=10, 1usize..=20).prop_map(|(scale, int)| DecimalText {
            width: int + scale as usize + usize::from(scale > 0),
            scale,
        })
    }

    proptest! {
        /// Roundtrip (numerically), order, injectivity and canonical
        /// decode for every value that fits; bytes near a key and any
        /// bytes decode to a value that writes them back, or an error.
        #[test]
        fn decimal_text(c in codecs(), a: u64, b: u64, sa in 0u32..=12, sb in 0u32..=12,
                        at: prop::sample::Index, byte: u8,
                        junk in proptest::collection::vec(any::<u8>(), 0..25)) {
            let (a, b) = (Decimal::new(a as i64 & i64::MAX, sa), Decimal::new(b as i64 & i64::MAX, sb));
            if let (Ok(ea), Ok(eb)) = (enc(c, a), enc(c, b)) {
                let da = dec(c, &ea).unwrap();
                prop_assert_eq!(da, a);
                prop_assert_eq!(&enc(c, da).unwrap(), &ea);
                prop_assert_eq!(ea.cmp(&eb), a.cmp(&b));
                prop_assert_eq!(ea == eb, a == b);
                let mut near = ea.clone();
                let i = at.index(near.len());
                near[i] = byte;
                for input in [&near, &junk] {
                    if let Ok(v) = dec(c, input) {
                        prop_assert_eq!(&enc(c, v).unwrap(), input);
                    }
                }
            }
        }

        /// A value is refused only for a reason the docs give.
        #[test]
        fn refusals_have_a_reason(c in codecs(), m: i64, s in 0u32..=18) {
            let v = Decimal::new(m, s);
            if enc(c, v).is_err() {
                let n = v.normalize();
                let int_digits = n.trunc().abs().to_string().len();
                prop_assert!(m < 0 || n.scale() > c.scale || int_digits > c.width - c.scale as usize - usize::from(c.scale > 0));
            }
        }
    }
}
