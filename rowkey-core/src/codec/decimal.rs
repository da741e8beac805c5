//! Integers as zero-padded decimal digits (`#[text]`, `#[text(width = N)]`),
//! the way the seed keys write phone numbers and `yyyyMMddHHmmss` times.
//!
//! Fixed width keeps numeric order: `00042 < 00100`. A value with more
//! digits than the width is an error, never truncated. Negative numbers are
//! rejected: a `-` sign would sort them wrongly.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::reader::KeyReader;
use crate::writer::KeyWriter;

/// Why an integer cannot be written as `width` digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DigitsError {
    /// The value needs `digits` digits.
    TooMany {
        /// Digits the value has.
        digits: usize,
    },
    /// The value is negative.
    Negative,
}

/// An integer type that `#[text]` can write as decimal digits.
#[diagnostic::on_unimplemented(
    message = "`#[text]` needs an integer field, not `{Self}`",
    label = "not an integer type",
    note = "#[text] writes integers as zero-padded decimal digits; strings are stored as text already"
)]
pub trait TextInt: Copy {
    /// Digits of the type's largest value (`u8`: 3, `u64`: 20).
    const MAX_DIGITS: usize;
    /// Writes the value right-aligned into `out`, zero-padded on the left.
    fn write_digits(self, out: &mut [u8]) -> Result<(), DigitsError>;
    /// Parses digits produced by [`TextInt::write_digits`], read through
    /// `byte(i)` for `i in 0..len`; `Err(Some(i))` names a non-digit at `i`,
    /// `Err(None)` an overflow.
    fn parse_digits(len: usize, byte: impl Fn(usize) -> u8) -> Result<Self, Option<usize>>;
}

macro_rules! text_int {
    ($($t:ty => $u:ty, $signed:expr);* $(;)?) => {$(
        impl TextInt for $t {
            const MAX_DIGITS: usize =
                crate::layout::rules::int_digits(core::mem::size_of::<$t>(), $signed);
            // Both always inlined into `Digits::put`/`take` (themselves
            // always inlined on a constant width): the loops unroll.
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            #[allow(unused_comparisons)]
            fn write_digits(self, out: &mut [u8]) -> Result<(), DigitsError> {
                if self < 0 as $t {
                    return Err(DigitsError::Negative);
                }
                // Every position gets a digit (leading ones are zeros once
                // `v` runs out): no bounds checks, no separate fill. Two
                // digits a step from a table of the hundred pairs: one
                // division by a constant per pair instead of per digit.
                let mut v = self as $u;
                let mut pairs = out.rchunks_exact_mut(2);
                for pair in &mut pairs {
                    let p = 2 * (v % 100) as usize;
                    v /= 100;
                    pair.copy_from_slice(&DIGIT_PAIRS[p..p + 2]);
                }
                if let [b] = pairs.into_remainder() {
                    *b = b'0' + (v % 10) as u8;
                    v /= 10;
                }
                if v != 0 {
                    return Err(DigitsError::TooMany { digits: count_digits(self as $u as u128) });
                }
                Ok(())
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn parse_digits(len: usize, byte: impl Fn(usize) -> u8) -> Result<Self, Option<usize>> {
                let mut v: $t = 0;
                if len < Self::MAX_DIGITS {
                    // Fewer digits than the type's largest value has: at
                    // most 10^(MAX_DIGITS-1) - 1, which always fits, so no
                    // per-digit overflow check (the width is a constant:
                    // this branch folds away).
                    for i in 0..len {
                        let d = byte(i).wrapping_sub(b'0');
                        if d > 9 {
                            return Err(Some(i));
                        }
                        v = v * 10 + d as $t;
                    }
                    return Ok(v);
                }
                for i in 0..len {
                    let d = byte(i).wrapping_sub(b'0');
                    if d > 9 {
                        return Err(Some(i));
                    }
                    v = v.checked_mul(10).and_then(|v| v.checked_add(d as $t)).ok_or(None)?;
                }
                Ok(v)
            }
        }
    )*};
}

text_int! {
    u8 => u8, false; u16 => u16, false; u32 => u32, false; u64 => u64, false; u128 => u128, false;
    i8 => u8, true; i16 => u16, true; i32 => u32, true; i64 => u64, true; i128 => u128, true;
}

/// `00`, `01`, ... `99`: the digits of each pair, for writing two at once.
const DIGIT_PAIRS: &[u8; 200] = &{
    let mut t = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

fn count_digits(mut v: u128) -> usize {
    let mut n = 1;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

/// How a `#[text]` field is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Digits {
    /// Number of digits written.
    pub width: usize,
    /// Digits stored back to front (`#[reverse]`): `13812345678` is
    /// `87654321831`. Spreads sequential values; keeps no order.
    pub reverse: bool,
    /// Bytes inverted for descending order (`#[desc]`).
    pub desc: bool,
}

impl Digits {
    /// `width` digits, ascending.
    pub const fn new(width: usize) -> Self {
        Digits {
            width,
            reverse: false,
            desc: false,
        }
    }

    /// Writes `v`. Always inlined: generated code calls it on a `const`
    /// layout, so the width is a constant and the digit loop unrolls.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn put<T: TextInt>(&self, w: &mut KeyWriter<'_>, v: T) -> Result<(), EncodeError> {
        let at = w.position();
        // Digits go to a local array first, then out in one copy: the
        // unrolled digit loop keeps its bytes in registers rather than
        // storing through the writer's buffer one at a time.
        let mut digits = [0u8; 40];
        let out = match digits.get_mut(..self.width) {
            Some(out) => out,
            None => &mut w.reserve(self.width)?[..],
        };
        let res = v.write_digits(out);
        if res.is_ok() {
            if self.reverse {
                out.reverse();
            }
            if self.desc {
                out.iter_mut().for_each(|b| *b = !*b);
            }
            if self.width <= digits.len() {
                w.put(&digits[..self.width])?;
            }
        }
        res.map_err(|e| {
            w.error_at(
                at,
                match e {
                    DigitsError::Negative => EncodeErrorKind::NegativeText,
                    DigitsError::TooMany { digits } => EncodeErrorKind::TooManyDigits {
                        digits,
                        width: self.width,
                    },
                },
            )
        })
    }

    /// Writes the leading digits `prefix` of a value (a scan for keys whose
    /// digits start with it): ASCII digits, at most `width` of them. What
    /// is not a digit is refused first: `TooManyDigits` says only that the
    /// digits are more than any value has (a scan reads that as nothing).
    pub fn put_prefix(&self, w: &mut KeyWriter<'_>, prefix: &str) -> Result<(), EncodeError> {
        let at = w.position();
        if let Some(i) = prefix.bytes().position(|b| !b.is_ascii_digit()) {
            return Err(w.error_at(
                at + i,
                EncodeErrorKind::Invalid("a #[text] prefix is decimal digits"),
            ));
        }
        if prefix.len() > self.width {
            return Err(w.error_at(
                at,
                EncodeErrorKind::TooManyDigits {
                    digits: prefix.len(),
                    width: self.width,
                },
            ));
        }
        w.put(prefix.as_bytes())?;
        if self.desc {
            w.invert_since(at);
        }
        Ok(())
    }

    /// Reads a value.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn take<T: TextInt>(&self, r: &mut KeyReader<'_>) -> Result<T, DecodeError> {
        let at = r.position();
        let bytes = r.take(self.width)?;
        let mask = if self.desc { 0xFF } else { 0 };
        let w = self.width;
        let index = |i: usize| if self.reverse { w - 1 - i } else { i };
        T::parse_digits(w, |i| bytes[index(i)] ^ mask).map_err(|e| match e {
            Some(i) => r.error_at(
                at + index(i),
                DecodeErrorKind::InvalidDigit {
                    byte: bytes[index(i)],
                },
            ),
            None => r.error_at(at, DecodeErrorKind::Overflow),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One digit short of the type's largest value never overflows (the
    /// unchecked path); a full-width number that does is an error.
    #[test]
    fn digits_at_the_overflow_boundary() {
        fn nines(n: usize) -> Vec<u8> {
            vec![b'9'; n]
        }
        fn parse<T: TextInt>(s: &[u8]) -> Result<T, Option<usize>> {
            T::parse_digits(s.len(), |i| s[i])
        }
        assert_eq!(parse::<u8>(&nines(2)), Ok(99));
        assert_eq!(parse::<u8>(&nines(3)), Err(None));
        assert_eq!(parse::<i8>(&nines(2)), Ok(99));
        assert_eq!(parse::<i8>(&nines(3)), Err(None));
        assert_eq!(parse::<u64>(&nines(19)), Ok(9_999_999_999_999_999_999));
        assert_eq!(parse::<u64>(&nines(20)), Err(None));
        assert_eq!(parse::<i64>(&nines(18)), Ok(999_999_999_999_999_999));
        assert_eq!(parse::<i64>(&nines(19)), Err(None));
        assert_eq!(parse::<i64>(b"9223372036854775807"), Ok(i64::MAX));
        assert_eq!(parse::<u128>(&nines(38)).map(|v| v + 1), Ok(10u128.pow(38)));
        assert_eq!(parse::<u32>(b"12x"), Err(Some(2)));
        assert_eq!(parse::<u32>(b"00000000012x"), Err(Some(11)));
    }
    use proptest::prelude::*;

    fn enc<T: TextInt>(d: Digits, v: T) -> Result<Vec<u8>, EncodeError> {
        let mut out = vec![0u8; d.width];
        let mut w = KeyWriter::new(&mut out, "T");
        d.put(&mut w, v)?;
        Ok(out)
    }
    fn dec<T: TextInt>(d: Digits, b: &[u8]) -> Result<T, DecodeError> {
        let mut r = KeyReader::new(b, "T");
        let v = d.take(&mut r)?;
        r.finish()?;
        Ok(v)
    }

    #[test]
    fn seed_values() {
        assert_eq!(
            enc(Digits::new(11), 13812345678u64).unwrap(),
            b"13812345678"
        );
        assert_eq!(
            enc(Digits::new(14), 20211201120000u64).unwrap(),
            b"20211201120000"
        );
        assert_eq!(enc(Digits::new(6), 42u32).unwrap(), b"000042");
        let rev = Digits {
            reverse: true,
            ..Digits::new(11)
        };
        assert_eq!(enc(rev, 13812345678u64).unwrap(), b"87654321831");
        assert_eq!(dec::<u64>(rev, b"87654321831").unwrap(), 13812345678);
    }

    #[test]
    fn errors() {
        let e = enc(Digits::new(3), 1000u32).unwrap_err();
        assert_eq!(
            e.kind(),
            EncodeErrorKind::TooManyDigits {
                digits: 4,
                width: 3
            }
        );
        let e = enc(Digits::new(3), -1i32).unwrap_err();
        assert_eq!(e.kind(), EncodeErrorKind::NegativeText);
        let e = dec::<u8>(Digits::new(3), b"256").unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::Overflow);
        let e = dec::<u8>(Digits::new(3), b"1x3").unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::InvalidDigit { byte: b'x' });
        assert_eq!(e.offset(), 1);
        assert_eq!(
            enc(Digits::new(39), u128::MAX).unwrap(),
            u128::MAX.to_string().as_bytes()
        );
    }

    proptest! {
        #[test]
        fn roundtrip_and_order(a: u64, b: u64, reverse: bool, desc: bool) {
            let d = Digits { width: 20, reverse, desc };
            let (ea, eb) = (enc(d, a).unwrap(), enc(d, b).unwrap());
            prop_assert_eq!(dec::<u64>(d, &ea).unwrap(), a);
            prop_assert_eq!(ea == eb, a == b);
            if !reverse {
                let want = if desc { b.cmp(&a) } else { a.cmp(&b) };
                prop_assert_eq!(ea.cmp(&eb), want);
            }
        }

        #[test]
        fn signed_roundtrip(a in 0i64..=i64::MAX, width in 19usize..25) {
            let d = Digits::new(width);
            prop_assert_eq!(dec::<i64>(d, &enc(d, a).unwrap()).unwrap(), a);
        }

        #[test]
        fn narrow_width_rejects_or_roundtrips(a: u32, width in 1usize..12) {
            let d = Digits::new(width);
            match enc(d, a) {
                Ok(e) => prop_assert_eq!(dec::<u32>(d, &e).unwrap(), a),
                Err(_) => prop_assert!(a.to_string().len() > width),
            }
        }

        #[test]
        fn arbitrary_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..45), reverse: bool, desc: bool) {
            for width in [1usize, 3, 20, 39] {
                let d = Digits { width, reverse, desc };
                let _ = dec::<u128>(d, &b);
                let _ = dec::<i8>(d, &b);
            }
        }
    }
}
