//! [`ValueKind`]: what a field's values are, so that a tool holding only
//! the [`Layout`](crate::Layout) reads and writes them as the derived code
//! does: how a person writes one, and which codec call takes it.

/// The crate a date or time type comes from. One instant writes the same
/// bytes in all three; they differ only in the dates they can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TimeCrate {
    /// chrono: `NaiveDate`, `NaiveDateTime`, `DateTime<Utc>`.
    Chrono,
    /// time: `Date`, `PrimitiveDateTime`, `OffsetDateTime`.
    Time,
    /// jiff: `civil::Date`, `civil::DateTime`, `Timestamp`.
    Jiff,
}

impl TimeCrate {
    /// The days since 1970-01-01 a date type of this crate can hold:
    /// chrono's `NaiveDate` spans -262143-01-01..=+262142-12-31
    /// (`NaiveDate::MIN..=MAX` since chrono 0.4.35), time's and jiff's
    /// dates -9999-01-01..=9999-12-31 (checked against the crates in the
    /// tests, with their features).
    pub const fn date_days(self) -> core::ops::RangeInclusive<i64> {
        use crate::codec::civil::days_from_civil;
        match self {
            TimeCrate::Chrono => days_from_civil(-262_143, 1, 1)..=days_from_civil(262_142, 12, 31),
            TimeCrate::Time | TimeCrate::Jiff => {
                days_from_civil(-9999, 1, 1)..=days_from_civil(9999, 12, 31)
            }
        }
    }
}

/// What a field's values are: the Rust type's shape, as far as the bytes
/// and a person's typing of a value depend on it.
///
/// `#[derive(RowKey)]` records it in each [`FieldLayout`](crate::FieldLayout)
/// from the field type's [`KeyPart::VALUE`](crate::KeyPart::VALUE) (or, for
/// text and bytes, whether the type is UTF-8), so nothing is guessed from
/// the type's name.
///
/// ```
/// use rowkey::{RowKey, ValueKind};
/// #[derive(RowKey)]
/// struct Op { uid: u64, #[desc_ts] at: i64, #[max_len(8)] tag: String }
/// let l = Op::layout();
/// assert_eq!(l.fields[0].value, ValueKind::Int { bytes: 8, signed: false });
/// assert_eq!(l.fields[1].value, ValueKind::Int { bytes: 8, signed: true });
/// assert_eq!(l.fields[2].value, ValueKind::Text);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ValueKind {
    /// An integer of `bytes` bytes (1, 2, 4, 8 or 16).
    Int {
        /// Its width in bytes.
        bytes: u8,
        /// Whether it is signed.
        signed: bool,
    },
    /// `f32` (4 bytes) or `f64` (8).
    Float {
        /// Its width in bytes.
        bytes: u8,
    },
    /// `bool`.
    Bool,
    /// `char`.
    Char,
    /// `()`.
    Unit,
    /// `[u8; N]`.
    ByteArray(usize),
    /// UTF-8 text: `String`, `&str`, `Box<str>`, `Cow<str>`.
    Text,
    /// Raw bytes: `Vec<u8>`, `&[u8]`, `Box<[u8]>`, `Cow<[u8]>`.
    Bytes,
    /// `uuid::Uuid`.
    Uuid,
    /// A calendar date (`NaiveDate`, `Date`, `civil::Date`).
    Date(TimeCrate),
    /// A date and time of day with no zone (`NaiveDateTime`,
    /// `PrimitiveDateTime`, `civil::DateTime`).
    DateTime(TimeCrate),
    /// An instant, in UTC (`DateTime<Utc>`, `OffsetDateTime`, `Timestamp`).
    Instant(TimeCrate),
    /// `rust_decimal::Decimal`.
    Decimal,
    /// `Option<T>` as a key part (a tag byte, then `T`).
    Option(&'static ValueKind),
    /// A `#[derive(KeyPart)]` enum: one byte, the variant's position.
    Enum {
        /// The enum's name.
        name: &'static str,
        /// The variants in declared order: variant `i` is stored as byte `i`.
        variants: &'static [&'static str],
    },
    /// A `#[derive(KeyPart)]` struct of `#[bits(n)]` fields: one
    /// big-endian word of whole bytes, the first field in the highest
    /// bits ([`codec::bits`](crate::codec::bits)).
    Bits {
        /// The struct's name.
        name: &'static str,
        /// Its fields in declared order.
        fields: &'static [crate::codec::BitsField],
    },
    /// A `#[derive(KeyPart)]` newtype: stored as its inner value.
    Newtype {
        /// The newtype's name.
        name: &'static str,
        /// What it wraps.
        inner: &'static ValueKind,
    },
    /// A hand-written [`KeyPart`](crate::KeyPart) the layout cannot see
    /// into: tools show and take its bytes.
    Opaque,
}

impl ValueKind {
    /// Text or raw bytes, for a text or bytes field (`KeyBytes::IS_TEXT`).
    pub const fn of_bytes(is_text: bool) -> ValueKind {
        if is_text {
            ValueKind::Text
        } else {
            ValueKind::Bytes
        }
    }

    /// Bytes every value of a binary part writes, when fixed; `None` for
    /// variable or unknown widths.
    pub const fn part_fixed_len(&self) -> Option<usize> {
        match *self {
            ValueKind::Int { bytes, .. } | ValueKind::Float { bytes } => Some(bytes as usize),
            ValueKind::Bool | ValueKind::Enum { .. } => Some(1),
            ValueKind::Char | ValueKind::Date(_) => Some(4),
            ValueKind::DateTime(_) | ValueKind::Instant(_) => Some(8),
            ValueKind::Unit => Some(0),
            ValueKind::ByteArray(n) => Some(n),
            ValueKind::Uuid => Some(16),
            ValueKind::Newtype { inner, .. } => inner.part_fixed_len(),
            ValueKind::Bits { fields, .. } => Some(bits_len(fields)),
            ValueKind::Text
            | ValueKind::Bytes
            | ValueKind::Decimal
            | ValueKind::Option(_)
            | ValueKind::Opaque => None,
        }
    }

    /// The kind under any newtypes.
    pub const fn unwrapped(&self) -> &ValueKind {
        match self {
            ValueKind::Newtype { inner, .. } => inner.unwrapped(),
            k => k,
        }
    }

    /// What a person types for a value of this kind, for help and errors.
    pub fn example(&self) -> String {
        match self.unwrapped() {
            ValueKind::Int { signed: true, .. } => "an integer (-42)".into(),
            ValueKind::Int { .. } => "an unsigned integer (42)".into(),
            ValueKind::Float { .. } => "a number (1.5)".into(),
            ValueKind::Bool => "true or false".into(),
            ValueKind::Char => "one character".into(),
            ValueKind::Unit => "() or nothing".into(),
            ValueKind::ByteArray(n) => format!("{n} bytes as toStringBinary (a\\x00b) or 0x hex"),
            ValueKind::Text => "text".into(),
            ValueKind::Bytes => "bytes as toStringBinary (a\\x00b) or 0x hex".into(),
            ValueKind::Uuid => "a UUID (67e55044-10b1-426f-9247-bb680e5fe0c8)".into(),
            ValueKind::Date(_) => "a date (2026-11-01)".into(),
            ValueKind::DateTime(_) => "a date and time (2026-11-01T07:30:00)".into(),
            ValueKind::Instant(_) => "a UTC instant (2026-11-01T07:30:00Z)".into(),
            ValueKind::Decimal => "a decimal (12.50)".into(),
            ValueKind::Option(inner) => format!("None, or {}", inner.example()),
            ValueKind::Enum { name, variants } => {
                format!("a {name} variant ({})", variants.join(", "))
            }
            ValueKind::Bits { fields, .. } => {
                let each: Vec<String> = fields
                    .iter()
                    .map(|f| {
                        let v = if f.boolean {
                            "false".to_owned()
                        } else {
                            "0".to_owned()
                        };
                        format!("{}={v}", f.name)
                    })
                    .collect();
                format!(
                    "its fields as name=value, first to last ({})",
                    each.join(",")
                )
            }
            ValueKind::Opaque => "the bytes its KeyPart writes, as 0x hex".into(),
            ValueKind::Newtype { .. } => unreachable!("unwrapped"),
        }
    }
}

/// Bytes a packed part of `fields` takes: its bits, in whole bytes.
pub(crate) const fn bits_len(fields: &[crate::codec::BitsField]) -> usize {
    let mut total = 0usize;
    let mut i = 0;
    while i < fields.len() {
        total += fields[i].bits as usize;
        i += 1;
    }
    total.div_ceil(8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newtypes_take_their_inner_width() {
        const INNER: ValueKind = ValueKind::Int {
            bytes: 4,
            signed: true,
        };
        let n = ValueKind::Newtype {
            name: "Id",
            inner: &INNER,
        };
        assert_eq!(n.part_fixed_len(), Some(4));
        assert_eq!(n.unwrapped(), &INNER);
        assert_eq!(ValueKind::Option(&INNER).part_fixed_len(), None);
    }

    #[test]
    fn date_ranges_are_the_crates_years() {
        let t = TimeCrate::Time.date_days();
        assert_eq!((*t.start(), *t.end()), (-4_371_587, 2_932_896));
        assert_eq!(TimeCrate::Jiff.date_days(), t);
        let c = TimeCrate::Chrono.date_days();
        assert_eq!((*c.start(), *c.end()), (-96_465_292, 95_026_236));
    }

    /// The days from 1970-01-01 to `MIN` and `MAX` of a crate's date type.
    #[cfg(any(feature = "chrono", feature = "time", feature = "jiff"))]
    fn ends(days: impl Fn(bool) -> i64) -> core::ops::RangeInclusive<i64> {
        days(false)..=days(true)
    }

    #[cfg(feature = "chrono")]
    #[test]
    fn chrono_dates_span_what_chrono_holds() {
        use chrono::NaiveDate;
        let epoch = NaiveDate::from_ymd_opt(1970, 1, 1).unwrap();
        let days = |max| {
            let d = if max { NaiveDate::MAX } else { NaiveDate::MIN };
            d.signed_duration_since(epoch).num_days()
        };
        assert_eq!(TimeCrate::Chrono.date_days(), ends(days));
    }

    #[cfg(feature = "time")]
    #[test]
    fn time_dates_span_what_time_holds() {
        let days = |max| {
            let d = if max {
                time::Date::MAX
            } else {
                time::Date::MIN
            };
            i64::from(d.to_julian_day()) - 2_440_588
        };
        assert_eq!(TimeCrate::Time.date_days(), ends(days));
    }

    #[cfg(feature = "jiff")]
    #[test]
    fn jiff_dates_span_what_jiff_holds() {
        let epoch = jiff::civil::date(1970, 1, 1);
        let days = |max| {
            let d = if max {
                jiff::civil::Date::MAX
            } else {
                jiff::civil::Date::MIN
            };
            i64::from(epoch.until((jiff::Unit::Day, d)).unwrap().get_days())
        };
        assert_eq!(TimeCrate::Jiff.date_days(), ends(days));
    }
}
