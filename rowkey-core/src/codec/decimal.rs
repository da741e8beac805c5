//! Integers as zero-padded decimal digits (`#[text]`, `#[text(width = N)]`),
//! the way the seed keys write phone numbers and `yyyyMMddHHmmss` times.
//!
//! Fixed width keeps numeric order: `00042 < 00100`. A value with more
//! digits than the width is an error, never truncated. Negative numbers are
//! rejected: a `-` sign would sort them wrongly.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::layout::rules::{
    ByteSet, CodecRules, Ends, Lengths, PrefixScan, RangeScan, ScanRefusal, Sorts,
};
use crate::layout::{FieldLayout, LayoutCodec};
use crate::reader::KeyReader;
use crate::values::mismatch::{int_as, int_value, kind_mismatch, mismatch, with_int};
use crate::values::value::Value;
use crate::writer::KeyWriter;
use core::fmt::{self, Write};

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

impl Digits {
    /// Its format rules: `width` digits, which sort like the values and
    /// start with a prefix's digits unless written back to front.
    pub(crate) const fn rules(&self) -> CodecRules {
        let (sorts, prefix_scan, range_scan) = if self.reverse {
            let no = ScanRefusal::Reversed;
            (Sorts::Unordered, Err(no), Err(no))
        } else {
            (
                Sorts::LikeValues,
                Ok(PrefixScan::Digits),
                Ok(RangeScan::Values),
            )
        };
        CodecRules {
            len: Lengths::Fixed(self.width),
            sorts,
            prefix_scan,
            range_scan,
            borrows: true,
            writes: ByteSet::DIGITS,
            ends: Ends::Itself,
        }
    }
}

impl LayoutCodec for Digits {
    fn put_value(
        &self,
        w: &mut KeyWriter<'_>,
        f: &FieldLayout,
        v: &Value,
    ) -> Result<(), EncodeError> {
        with_int!(f.value.unwrapped(), mismatch(w), |T| {
            self.put::<T>(w, int_as::<T>(v).ok_or_else(|| mismatch(w))?)?
        })
    }

    fn take_value(
        &self,
        r: &mut KeyReader<'_>,
        f: &FieldLayout,
        _: bool,
    ) -> Result<Value, DecodeError> {
        with_int!(f.value.unwrapped(), kind_mismatch(r), |T| int_value(
            self.take::<T>(r)?
        ))
    }

    fn explain(&self, s: &mut String, ty: &str) -> fmt::Result {
        write!(s, "{ty} as {} zero-padded decimal digits", self.width)?;
        if self.reverse {
            s.push_str(", digits reversed");
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "decimal_tests.rs"]
mod tests;
