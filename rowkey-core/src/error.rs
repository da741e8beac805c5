//! The two error types of the crate: [`EncodeError`] and [`DecodeError`],
//! one [`KeyError`] each with its own kind of reason.
//!
//! Both carry where the fault is ([`KeyLocation`]: the key struct's name,
//! the field at fault, the byte offset in the key) and why, so a failure
//! in a log points at the exact byte. Neither allocates: they are built on
//! the hot path.

use crate::codec::civil::CivilTime;
use crate::codec::side::Side;
use core::fmt;

/// Called on the error paths of the reader and writer only: tells the
/// compiler they are unlikely, so the hot path keeps its registers.
#[cold]
#[inline(never)]
pub(crate) fn cold_path() {}

/// Where in a key an error is: the key struct, the field, the byte.
///
/// ```
/// use rowkey::{EncodeError, EncodeErrorKind};
/// let e = EncodeError::new("Spend", "user", 6, EncodeErrorKind::TooLong { len: 12, max: 10 });
/// assert_eq!(e.location().to_string(), "Spend.user at byte 6");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyLocation {
    key: &'static str,
    field: &'static str,
    offset: usize,
}

impl KeyLocation {
    /// The key struct's name.
    pub fn key(&self) -> &'static str {
        self.key
    }
    /// The field at fault (empty when the error is about the whole key,
    /// or about bytes after the last field).
    pub fn field(&self) -> &'static str {
        self.field
    }
    /// Byte offset in the key where the field's bytes start or the fault
    /// is.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

/// `Spend.user at byte 6`.
impl fmt::Display for KeyLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key)?;
        if !self.field.is_empty() {
            write!(f, ".{}", self.field)?;
        }
        write!(f, " at byte {}", self.offset)
    }
}

/// An error at a place in a key: [`EncodeError`] with an
/// [`EncodeErrorKind`], [`DecodeError`] with a [`DecodeErrorKind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyError<K> {
    at: KeyLocation,
    kind: K,
}

impl<K: Copy> KeyError<K> {
    /// An error in field `field` of key struct `key`, at byte `offset`.
    pub const fn new(key: &'static str, field: &'static str, offset: usize, kind: K) -> Self {
        KeyError {
            at: KeyLocation { key, field, offset },
            kind,
        }
    }
    /// Where the fault is.
    pub fn location(&self) -> KeyLocation {
        self.at
    }
    /// The key struct's name.
    pub fn key(&self) -> &'static str {
        self.at.key
    }
    /// The field at fault (empty when the error is about the whole key).
    pub fn field(&self) -> &'static str {
        self.at.field
    }
    /// Byte offset in the key where the field's bytes start or the fault is.
    pub fn offset(&self) -> usize {
        self.at.offset
    }
    /// Why it failed.
    pub fn kind(&self) -> K {
        self.kind
    }
    /// The same error, in field `field`: generated code names the field
    /// only on the error path (through [`InField`]), not on every write.
    #[cold]
    pub(crate) fn in_field(mut self, field: &'static str) -> Self {
        self.at.field = field;
        self
    }
}

/// Names the field of a failed write or read, as `.map_err(|e|
/// e.in_field(name))` would, without a closure: generated code calls it
/// after every field, and each closure is a body of its own for the
/// compiler to check. Not API: generated code names it through
/// `__private`.
#[doc(hidden)]
pub trait InField {
    /// The same result, its error in field `field`.
    fn __in_field(self, field: &'static str) -> Self;
}

impl<T, K: Copy> InField for Result<T, KeyError<K>> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn __in_field(self, field: &'static str) -> Self {
        match self {
            Ok(v) => Ok(v),
            Err(e) => Err(e.in_field(field)),
        }
    }
}

/// Why a value could not be encoded.
///
/// ```
/// use rowkey::{EncodeErrorKind, RowKey};
/// #[derive(RowKey)]
/// struct Tel {
///     #[text(width = 11)]
///     tel: u64,
/// }
/// let err = Tel { tel: 123_456_789_012 }.to_key().unwrap_err();
/// assert_eq!(err.kind(), EncodeErrorKind::TooManyDigits { digits: 12, width: 11 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// The output slice is shorter than the key.
    BufferTooSmall {
        /// Bytes the whole key needs.
        needed: usize,
        /// Bytes the output slice has.
        available: usize,
    },
    /// A text or byte value is longer than its `max_len` or pad `width`.
    TooLong {
        /// The value's length in bytes.
        len: usize,
        /// The most the layout allows.
        max: usize,
    },
    /// A text value has more characters than its column holds (a
    /// Phoenix `VARCHAR(n)` counts characters, not bytes).
    TooManyChars {
        /// The value's characters.
        chars: usize,
        /// The most the column holds.
        max: usize,
    },
    /// An integer has more decimal digits than its `text(width)`.
    TooManyDigits {
        /// Digits the value has.
        digits: usize,
        /// The field's width.
        width: usize,
    },
    /// A negative integer in a `#[text]` field: `-` would not sort.
    NegativeText,
    /// A value contains the struct's separator byte.
    ContainsSeparator {
        /// The separator.
        separator: u8,
        /// Index of the separator inside the value.
        index: usize,
    },
    /// A padded value starts (left pad) or ends (right pad) with the fill
    /// byte, so decoding would strip it and give back a different value.
    FillAtEdge {
        /// The fill byte.
        fill: u8,
        /// The side the pad fills.
        side: Side,
    },
    /// A `#[desc_ts]` timestamp outside `0..=i64::MAX`.
    TimestampOutOfRange,
    /// A `#[desc_ts]` date-time outside what it holds: 1970-01-01
    /// 00:00:00 to 2262-04-11 23:47:16.854775807 UTC (nanoseconds since
    /// the epoch in `0..=i64::MAX`).
    ///
    /// ```
    /// use rowkey::codec::CivilTime;
    /// use rowkey::{EncodeError, EncodeErrorKind};
    /// let value = CivilTime::midnight(1969, 12, 31);
    /// let e = EncodeError::new("Op", "at", 4, EncodeErrorKind::DescTsOutOfRange { value });
    /// assert_eq!(
    ///     e.to_string(),
    ///     "cannot encode Op.at at byte 4: 1969-12-31 00:00:00 UTC is outside what #[desc_ts] \
    ///      holds: 1970-01-01 00:00:00 to 2262-04-11 23:47:16.854775807 UTC"
    /// );
    /// ```
    DescTsOutOfRange {
        /// The value, in UTC.
        value: CivilTime,
    },
    /// A salt's `group_by` field has a value outside its declared groups.
    GroupOutOfRange,
    /// An IN-list query needs more ranges than its cap
    /// (`Key::scan().with_max_ranges(n)` raises it).
    TooManyRanges {
        /// Ranges the query needs (at least).
        ranges: usize,
        /// The cap.
        max: usize,
    },
    /// A plan ordered after its IN-lists (`latest(n)` after `is_in`,
    /// [`ScanPlan::ordered_after_in_lists`](crate::scan::ScanPlan::ordered_after_in_lists))
    /// over a field whose IN-listed values differ in width: the fields
    /// after the lists start at different offsets in different
    /// combinations, so rows have no common bytes to be merged by. The
    /// error names that field; `#[pad(width = N)]` gives it one width.
    InListWidthVaries {
        /// Where the fields after the lists start in two combinations.
        ends: (usize, usize),
    },
    /// A field of a bit-packed part (`#[bits(n)]`) holds a value wider
    /// than its bits.
    ///
    /// ```
    /// use rowkey::{EncodeError, EncodeErrorKind};
    /// let kind = EncodeErrorKind::TooManyBits { field: "offset", value: 4096, bits: 12 };
    /// let e = EncodeError::new("Point", "q", 0, kind);
    /// assert_eq!(
    ///     e.to_string(),
    ///     "cannot encode Point.q at byte 0: offset = 4096 does not fit in its 12 bits (at most 4095)"
    /// );
    /// ```
    TooManyBits {
        /// The bit field's name.
        field: &'static str,
        /// Its value.
        value: u64,
        /// Its bits.
        bits: u8,
    },
    /// A hand-written [`KeyPart`](crate::KeyPart) rejected its value.
    Invalid(&'static str),
}

/// A value that cannot be written as a key.
///
/// ```
/// use rowkey::{EncodeError, EncodeErrorKind};
/// let e = EncodeError::new("Spend", "user", 6, EncodeErrorKind::TooLong { len: 12, max: 10 });
/// assert_eq!(e.field(), "user");
/// assert_eq!(
///     e.to_string(),
///     "cannot encode Spend.user at byte 6: value is 12 bytes, the layout allows at most 10"
/// );
/// ```
pub type EncodeError = KeyError<EncodeErrorKind>;

impl EncodeError {
    /// The same error with `needed` replaced, for a too-small buffer once
    /// the whole key's length is known.
    pub(crate) fn with_needed(mut self, len: usize) -> Self {
        if let EncodeErrorKind::BufferTooSmall { needed, .. } = &mut self.kind {
            *needed = len;
        }
        self
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A plan is refused for what a query asks of the layout, not for
        // a value that cannot be written.
        let verb = match self.kind {
            EncodeErrorKind::TooManyRanges { .. } | EncodeErrorKind::InListWidthVaries { .. } => {
                "plan"
            }
            _ => "encode",
        };
        write!(f, "cannot {verb} {}: ", self.at)?;
        match self.kind {
            EncodeErrorKind::BufferTooSmall { needed, available } => write!(
                f,
                "the key needs {needed} bytes, the output buffer has {available}"
            ),
            EncodeErrorKind::TooLong { len, max } => write!(
                f,
                "value is {len} bytes, the layout allows at most {max}"
            ),
            EncodeErrorKind::TooManyChars { chars, max } => write!(
                f,
                "value is {chars} characters, the column holds at most {max}"
            ),
            EncodeErrorKind::TooManyDigits { digits, width } => write!(
                f,
                "value has {digits} digits, more than the field's width of {width}"
            ),
            EncodeErrorKind::NegativeText => f.write_str(
                "negative values cannot be written as text digits (they would not sort); \
                 use the binary encoding",
            ),
            EncodeErrorKind::ContainsSeparator { separator, index } => write!(
                f,
                "value contains the separator {} at index {index}, which would make the key ambiguous",
                crate::KeyDisplay(&[separator])
            ),
            EncodeErrorKind::FillAtEdge { fill, side } => write!(
                f,
                "value {} with the fill byte {}, which decoding would strip",
                match side {
                    Side::Left => "starts",
                    Side::Right => "ends",
                },
                crate::KeyDisplay(&[fill])
            ),
            EncodeErrorKind::TimestampOutOfRange => {
                f.write_str("a reversed timestamp must be in 0..=i64::MAX")
            }
            EncodeErrorKind::DescTsOutOfRange { value } => write!(
                f,
                "{value} UTC is outside what #[desc_ts] holds: \
                 1970-01-01 00:00:00 to 2262-04-11 23:47:16.854775807 UTC"
            ),
            EncodeErrorKind::GroupOutOfRange => f.write_str(
                "value is outside the salt's bucket groups (its declared range or group count)",
            ),
            EncodeErrorKind::TooManyRanges { ranges, max } => write!(
                f,
                "the IN-lists need {ranges} ranges, more than the cap of {max} (raise it with `with_max_ranges`)"
            ),
            EncodeErrorKind::InListWidthVaries { ends: (a, b) } => write!(
                f,
                "this field's width varies, so the fields after the IN-list start at byte {a} \
                 in one combination and at byte {b} in another: their rows have no common \
                 offset to be merged by; give the field one width with #[pad(width = N)]"
            ),
            EncodeErrorKind::TooManyBits { field, value, bits } => write!(
                f,
                "{field} = {value} does not fit in its {bits} bits (at most {})",
                crate::codec::bits::max_of(bits)
            ),
            EncodeErrorKind::Invalid(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for EncodeError {}

/// Why bytes could not be decoded as a key.
///
/// ```
/// use rowkey::{DecodeErrorKind, RowKey};
/// #[derive(RowKey, Debug)]
/// struct Flag {
///     on: bool,
/// }
/// let err = Flag::decode(&[7]).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::InvalidTag { byte: 7 });
/// let err = Flag::decode(&[1, 0]).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::TrailingBytes { count: 1 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The key ends inside this field.
    UnexpectedEnd {
        /// Bytes the field still needed.
        needed: usize,
    },
    /// Bytes follow the last field.
    TrailingBytes {
        /// How many.
        count: usize,
    },
    /// A text field is not valid UTF-8.
    InvalidUtf8,
    /// A text or byte value longer than the layout allows (the encoder
    /// never writes one).
    TooLong {
        /// The value's length in bytes.
        len: usize,
        /// The most the layout allows.
        max: usize,
    },
    /// A byte that is not an ASCII digit in a `#[text]` field.
    InvalidDigit {
        /// The byte found.
        byte: u8,
    },
    /// Digits that do not fit the field's integer type.
    Overflow,
    /// The separator was expected here.
    MissingSeparator {
        /// The separator.
        expected: u8,
        /// The byte found instead.
        found: u8,
    },
    /// An escaped field holds `0x00` followed by a byte other than the
    /// escape (`0xFF`) or terminator (`0x01`).
    InvalidEscape {
        /// The byte after `0x00`.
        byte: u8,
    },
    /// An escaped field has no terminator.
    Unterminated,
    /// A tag (Option, bool) or discriminant that no value encodes to.
    InvalidTag {
        /// The byte found.
        byte: u8,
    },
    /// A stored reversed timestamp outside `0..=i64::MAX`, or one that does
    /// not fit the field's type.
    TimestampOutOfRange,
    /// A salt bucket outside `0..buckets`.
    BucketOutOfRange {
        /// The stored bucket.
        bucket: u32,
        /// The salt's bucket count.
        buckets: u32,
    },
    /// The stored salt bucket is not the one the key's fields hash to: the
    /// key is corrupt or belongs to another layout.
    SaltMismatch {
        /// The bucket in the key.
        stored: u32,
        /// The bucket its fields hash to.
        computed: u32,
    },
    /// A salt's `group_by` field holds a value outside its groups.
    GroupOutOfRange,
    /// The stored hash prefix is not the hash of its field.
    HashPrefixMismatch,
    /// A hand-written [`KeyPart`](crate::KeyPart) rejected the bytes.
    Invalid(&'static str),
}

/// Bytes that are not a key of the expected struct.
///
/// ```
/// use rowkey::{DecodeError, DecodeErrorKind};
/// let e = DecodeError::new("CallRecord", "time", 12, DecodeErrorKind::InvalidDigit { byte: b'x' });
/// assert_eq!(e.offset(), 12);
/// assert_eq!(
///     e.to_string(),
///     "cannot decode CallRecord.time at byte 12: byte x is not a decimal digit"
/// );
/// ```
pub type DecodeError = KeyError<DecodeErrorKind>;

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot decode {}: {}", self.at, self.kind)
    }
}

/// Why, in words, without where: what a [`DecodeError`] says after its
/// location, and what a reader of bytes that are not a key (a cell) says.
impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DecodeErrorKind::UnexpectedEnd { needed } => {
                write!(f, "the key ends {needed} byte(s) too early")
            }
            DecodeErrorKind::TrailingBytes { count } => {
                write!(f, "{count} byte(s) follow the last field")
            }
            DecodeErrorKind::InvalidUtf8 => f.write_str("text is not valid UTF-8"),
            DecodeErrorKind::TooLong { len, max } => {
                write!(f, "value is {len} bytes, the layout allows at most {max}")
            }
            DecodeErrorKind::InvalidDigit { byte } => write!(
                f,
                "byte {} is not a decimal digit",
                crate::KeyDisplay(&[byte])
            ),
            DecodeErrorKind::Overflow => f.write_str("the digits do not fit the field's type"),
            DecodeErrorKind::MissingSeparator { expected, found } => write!(
                f,
                "expected the separator {} but found {}",
                crate::KeyDisplay(&[expected]),
                crate::KeyDisplay(&[found])
            ),
            DecodeErrorKind::InvalidEscape { byte } => write!(
                f,
                "escape byte \\x00 is followed by {} (expected \\xFF or the terminator \\x01)",
                crate::KeyDisplay(&[byte])
            ),
            DecodeErrorKind::Unterminated => {
                f.write_str("the field's terminator \\x00\\x01 is missing")
            }
            DecodeErrorKind::InvalidTag { byte } => write!(
                f,
                "byte {} is not a tag or discriminant this field writes",
                crate::KeyDisplay(&[byte])
            ),
            DecodeErrorKind::TimestampOutOfRange => f.write_str(
                "the stored reversed timestamp is outside 0..=i64::MAX or the field's type",
            ),
            DecodeErrorKind::BucketOutOfRange { bucket, buckets } => {
                write!(f, "salt bucket {bucket} is outside 0..{buckets}")
            }
            DecodeErrorKind::SaltMismatch { stored, computed } => write!(
                f,
                "stored salt bucket {stored} but the key's fields hash to bucket {computed} \
                 (corrupt key, or a key of another layout)"
            ),
            DecodeErrorKind::GroupOutOfRange => {
                f.write_str("value is outside the salt's bucket groups")
            }
            DecodeErrorKind::HashPrefixMismatch => f.write_str(
                "the hash prefix is not the hash of its field (corrupt key, or a key of another layout)",
            ),
            DecodeErrorKind::Invalid(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for DecodeError {}
