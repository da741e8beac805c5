//! Descending order: `#[desc_ts]` (Java's `Long.MAX_VALUE - ts`, newest
//! first) and `#[desc]` on fixed-width parts (every byte inverted).

use super::decimal::Digits;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::layout::dynamic::neutral::EpochNanos;
use crate::layout::rules::{ByteSet, CodecRules, Ends, Lengths, RangeScan, ScanRefusal, Sorts};
use crate::layout::{FieldLayout, LayoutCodec, ValueKind};
use crate::reader::KeyReader;
use crate::values::mismatch::{civil, int_as, kind_mismatch, mismatch, time_value};
use crate::values::value::Value;
use crate::writer::KeyWriter;
use core::fmt::{self, Write};

/// Digits of `i64::MAX`: the width of a `#[desc_ts] #[text]` field.
pub const DESC_TS_DIGITS: usize = 19;

/// A timestamp type `#[desc_ts]` accepts: `i64` or `u64`, in `0..=i64::MAX`;
/// with their features, chrono's, time's and jiff's instants and
/// date-times, as nanoseconds since the Unix epoch (UTC).
#[diagnostic::on_unimplemented(
    message = "`#[desc_ts]` needs an i64 or u64 timestamp or a date-time, not `{Self}`",
    label = "not i64, u64 or a date-time",
    note = "#[desc_ts] stores i64::MAX - ts (Java's Long.MAX_VALUE - ts) so the newest row sorts first"
)]
pub trait Timestamp: Copy {
    /// The value as an `i128`, in range or not (for clamping query bounds).
    fn as_i128(self) -> i128;
    /// The value as a non-negative `i64`, or `None` outside `0..=i64::MAX`.
    fn to_ts(self) -> Option<i64>;
    /// Back from a non-negative `i64`.
    fn from_ts(ts: i64) -> Option<Self>;

    /// Why the value has no timestamp at all, whatever the range: chrono's
    /// leap second, which counts the nanoseconds of the second after it.
    /// `None` (the default) for every other value.
    fn no_timestamp(self) -> Option<&'static str> {
        None
    }

    /// The encode error for a value outside `0..=i64::MAX`: for integers
    /// (the default) [`EncodeErrorKind::TimestampOutOfRange`]; date-times
    /// name their value and the dates `#[desc_ts]` holds
    /// ([`EncodeErrorKind::DescTsOutOfRange`]).
    fn out_of_range(self) -> EncodeErrorKind {
        EncodeErrorKind::TimestampOutOfRange
    }
}

impl Timestamp for i64 {
    fn as_i128(self) -> i128 {
        i128::from(self)
    }
    fn to_ts(self) -> Option<i64> {
        (self >= 0).then_some(self)
    }
    fn from_ts(ts: i64) -> Option<Self> {
        Some(ts)
    }
}

impl Timestamp for u64 {
    fn as_i128(self) -> i128 {
        i128::from(self)
    }
    fn to_ts(self) -> Option<i64> {
        i64::try_from(self).ok()
    }
    fn from_ts(ts: i64) -> Option<Self> {
        u64::try_from(ts).ok()
    }
}

/// A reversed timestamp: `i64::MAX - ts`, as 8 big-endian bytes or 19
/// zero-padded digits.
///
/// ```
/// use rowkey::codec::DescTs;
/// use rowkey::KeyWriter;
/// let mut out = [0u8; 19];
/// let mut w = KeyWriter::new(&mut out, "Op");
/// DescTs { text: true }.put(&mut w, 1_638_360_000_000i64).unwrap();
/// assert_eq!(&out, b"9223370398494775807");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DescTs {
    /// Digits instead of binary.
    pub text: bool,
}

impl DescTs {
    /// Bytes the field takes.
    pub const fn len(&self) -> usize {
        if self.text {
            DESC_TS_DIGITS
        } else {
            crate::layout::rules::DESC_TS_BYTES
        }
    }

    /// Whether the field takes no bytes (never).
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// Writes `i64::MAX - ts`.
    #[inline]
    pub fn put<T: Timestamp>(&self, w: &mut KeyWriter<'_>, ts: T) -> Result<(), EncodeError> {
        if let Some(why) = ts.no_timestamp() {
            return Err(w.error(EncodeErrorKind::Invalid(why)));
        }
        // A hand-written `Timestamp` may hand back a negative value: check
        // here, or `i64::MAX - ts` would overflow.
        let Some(nanos) = ts.to_ts().filter(|&t| t >= 0) else {
            return Err(w.error(ts.out_of_range()));
        };
        let stored = i64::MAX - nanos;
        if self.text {
            Digits::new(DESC_TS_DIGITS).put(w, stored)
        } else {
            w.put(&(stored as u64).to_be_bytes())
        }
    }

    /// Reads a timestamp back.
    #[inline]
    pub fn take<T: Timestamp>(&self, r: &mut KeyReader<'_>) -> Result<T, DecodeError> {
        let at = r.position();
        let stored = if self.text {
            Digits::new(DESC_TS_DIGITS).take::<i64>(r)?
        } else {
            let raw = u64::from_be_bytes(r.take_array()?);
            i64::try_from(raw).map_err(|_| r.error_at(at, DecodeErrorKind::TimestampOutOfRange))?
        };
        T::from_ts(i64::MAX - stored)
            .ok_or_else(|| r.error_at(at, DecodeErrorKind::TimestampOutOfRange))
    }
}

impl DescTs {
    /// Its format rules: `i64::MAX - ts` sorts newest first whatever
    /// `#[desc]` says; its ranges are time windows, and it has no prefix.
    pub(crate) const fn rules(&self) -> CodecRules {
        CodecRules {
            len: Lengths::Fixed(self.len()),
            sorts: Sorts::Descending,
            prefix_scan: Err(ScanRefusal::ReversedTimestamp),
            range_scan: Ok(RangeScan::Time),
            borrows: true,
            writes: if self.text {
                ByteSet::DIGITS
            } else {
                ByteSet::ALL
            },
            ends: Ends::Itself,
        }
    }
}

impl LayoutCodec for DescTs {
    fn put_value(
        &self,
        w: &mut KeyWriter<'_>,
        f: &FieldLayout,
        v: &Value,
    ) -> Result<(), EncodeError> {
        match f.value.unwrapped() {
            ValueKind::Int { signed: true, .. } => {
                self.put(w, int_as::<i64>(v).ok_or_else(|| mismatch(w))?)
            }
            ValueKind::Int { signed: false, .. } => {
                self.put(w, int_as::<u64>(v).ok_or_else(|| mismatch(w))?)
            }
            kind => {
                let c = civil(kind, v).ok_or_else(|| mismatch(w))?;
                self.put(w, EpochNanos(c.epoch_nanos()))
            }
        }
    }

    fn take_value(
        &self,
        r: &mut KeyReader<'_>,
        f: &FieldLayout,
        _: bool,
    ) -> Result<Value, DecodeError> {
        match f.value.unwrapped() {
            ValueKind::Int {
                bytes: 8,
                signed: true,
            } => Ok(Value::Int(self.take::<i64>(r)?.into())),
            ValueKind::Int {
                bytes: 8,
                signed: false,
            } => Ok(Value::UInt(self.take::<u64>(r)?.into())),
            kind @ (ValueKind::DateTime(_) | ValueKind::Instant(_)) => {
                let at = r.position();
                let nanos = self.take::<EpochNanos>(r)?.0;
                time_value(r, at, kind, nanos)
            }
            _ => Err(kind_mismatch(r)),
        }
    }

    fn explain(&self, s: &mut String, _: &str) -> fmt::Result {
        let form = if self.text {
            "19 digits"
        } else {
            "8 bytes big-endian"
        };
        write!(s, "reversed timestamp i64::MAX - ts as {form}")
    }
}

/// The interpreter's stand-in for a date-time or instant, as `#[desc_ts]`
/// takes it.
impl Timestamp for EpochNanos {
    fn as_i128(self) -> i128 {
        self.0
    }
    fn to_ts(self) -> Option<i64> {
        i64::try_from(self.0).ok().filter(|n| *n >= 0)
    }
    fn from_ts(ts: i64) -> Option<Self> {
        Some(EpochNanos(ts.into()))
    }
    /// As the date types say it: the instant in the user's terms.
    fn out_of_range(self) -> EncodeErrorKind {
        match super::civil::CivilTime::from_epoch_nanos(self.0) {
            Some(value) => EncodeErrorKind::DescTsOutOfRange { value },
            None => EncodeErrorKind::TimestampOutOfRange,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::desc_part::{put_part, take_inverted_part};
    use proptest::prelude::*;

    fn enc<T: Timestamp>(d: DescTs, ts: T) -> Result<Vec<u8>, EncodeError> {
        let mut out = vec![0u8; d.len()];
        let mut w = KeyWriter::new(&mut out, "T");
        d.put(&mut w, ts)?;
        Ok(out)
    }

    #[test]
    fn golden_matches_java() {
        // Java: Bytes.toBytes(Long.MAX_VALUE - 0L)
        assert_eq!(
            enc(DescTs { text: false }, 0i64).unwrap(),
            i64::MAX.to_be_bytes()
        );
        assert_eq!(enc(DescTs { text: false }, i64::MAX).unwrap(), [0; 8]);
        assert_eq!(
            enc(DescTs { text: true }, 1u64).unwrap(),
            b"9223372036854775806"
        );
        assert_eq!(
            enc(DescTs { text: true }, i64::MAX).unwrap(),
            b"0000000000000000000"
        );
    }

    #[test]
    fn out_of_range() {
        for d in [DescTs { text: false }, DescTs { text: true }] {
            assert_eq!(
                enc(d, -1i64).unwrap_err().kind(),
                EncodeErrorKind::TimestampOutOfRange
            );
            assert_eq!(
                enc(d, u64::MAX).unwrap_err().kind(),
                EncodeErrorKind::TimestampOutOfRange
            );
        }
        let mut r = KeyReader::new(&[0xFF; 8], "T");
        assert_eq!(
            DescTs { text: false }
                .take::<i64>(&mut r)
                .unwrap_err()
                .kind(),
            DecodeErrorKind::TimestampOutOfRange
        );
    }

    proptest! {
        #[test]
        fn newest_first(a in 0i64..=i64::MAX, b in 0i64..=i64::MAX, text: bool) {
            let d = DescTs { text };
            let (ea, eb) = (enc(d, a).unwrap(), enc(d, b).unwrap());
            prop_assert_eq!(ea.cmp(&eb), b.cmp(&a));
            let mut r = KeyReader::new(&ea, "T");
            prop_assert_eq!(d.take::<i64>(&mut r).unwrap(), a);
            let mut r = KeyReader::new(&ea, "T");
            prop_assert_eq!(d.take::<u64>(&mut r).unwrap(), a as u64);
        }

        #[test]
        fn inverted_parts(a: i32, b: i32) {
            let enc = |v: i32| {
                let mut out = [0u8; 4];
                let mut w = KeyWriter::new(&mut out, "T");
                put_part(&mut w, &v, true).unwrap();
                out
            };
            let (ea, eb) = (enc(a), enc(b));
            prop_assert_eq!(ea.cmp(&eb), b.cmp(&a));
            let mut r = KeyReader::new(&ea, "T");
            prop_assert_eq!(take_inverted_part::<i32, 4>(&mut r).unwrap(), a);
        }

        #[test]
        fn arbitrary_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..25), text: bool) {
            let mut r = KeyReader::new(&b, "T");
            let _ = DescTs { text }.take::<u64>(&mut r);
            let mut r = KeyReader::new(&b, "T");
            let _ = take_inverted_part::<char, 4>(&mut r);
        }
    }
}
