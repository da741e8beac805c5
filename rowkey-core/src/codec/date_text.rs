//! Dates and times as fixed-width text (`#[text(format = "..")]`): the
//! bytes a [`DateFormat`] writes and reads back.
//!
//! A format that leaves units out stores less than the value holds, and
//! the key holds only what it writes:
//!
//! - units below the smallest written one are dropped on encode and are
//!   zero (day and month 1) on decode: `%Y%m` writes every instant of
//!   December 2021 as `202112` and reads it back as 2021-12-01 00:00:00;
//! - units above the largest written one read back as the year 2000
//!   (a leap year, so `%j` 366 and `%m%d` `0229` exist) and January:
//!   `-%d %H:%M:%S` reads `-01 12:00:00` as 2000-01-01 12:00:00.
//!
//! Either way a decoded value writes the same bytes again, and two values
//! with the same text are the same key. A date type (`NaiveDate`, ...)
//! writes `00` for an hour and refuses any other stored hour. Years are
//! 0..=9999 when `%Y` is written; a leap second (chrono's second 60) has
//! no text form: both are encode errors, never a different key.
//!
//! ```
//! use chrono::NaiveDate;
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Visit {
//!     #[text(format = "%Y-%m-%d")] day: NaiveDate,
//!     user: u32,
//! }
//!
//! let day = NaiveDate::from_ymd_opt(2021, 12, 1).unwrap();
//! let key = Visit { day, user: 7 }.to_key()?;
//! assert_eq!(&key[..10], b"2021-12-01");
//! assert_eq!(Visit::decode(&key)?, Visit { day, user: 7 });
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::civil::{day_of_year, days_in_month, month_day, CivilTime};
use super::date_format::{DateFormat, FormatItem};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::layout::dynamic::neutral::CivilValue;
use crate::layout::rules::{ByteSet, CodecRules};
use crate::layout::{FieldLayout, LayoutCodec, ValueKind};
use crate::reader::KeyReader;
use crate::values::mismatch::{civil, civil_value, mismatch};
use crate::values::value::Value;
use crate::writer::KeyWriter;
use core::fmt::{self, Write};

/// A date or time type that `#[text(format = "..")]` can write: chrono's,
/// time's and jiff's dates, date-times and instants (instants in UTC),
/// behind their features.
#[diagnostic::on_unimplemented(
    message = "`#[text(format = \"..\")]` needs a date or time type, not `{Self}`",
    label = "not a date or time type",
    note = "chrono (NaiveDate, NaiveDateTime, DateTime<Utc>), time (Date, PrimitiveDateTime, OffsetDateTime) and jiff (civil::Date, civil::DateTime, Timestamp) types take a format, with their crate's feature on"
)]
pub trait TextDate: Sized {
    /// Whether the type holds a time of day (dates do not).
    const HAS_TIME: bool;
    /// The value's calendar fields (UTC for an instant), or why it has no
    /// text form.
    fn to_civil(&self) -> Result<CivilTime, &'static str>;
    /// The value with these fields, if the type holds it.
    fn from_civil(c: CivilTime) -> Option<Self>;
}

/// Writes `v` right-aligned as `out.len()` zero-padded digits (the caller
/// has checked that it fits).
fn put_digits(out: &mut [u8], mut v: u32) {
    for b in out.iter_mut().rev() {
        *b = b'0' + (v % 10) as u8;
        v /= 10;
    }
}

impl DateFormat {
    /// Whether `c` is the start of the span its text stands for: every
    /// unit finer than the format's smallest is zero (day and month 1), so
    /// the text reads back as `c` in the units it writes. `%Y-%m` writes
    /// 2021-12-01 00:00 exactly; 2021-12-15 is inside `2021-12`.
    ///
    /// ```
    /// use rowkey::codec::{CivilTime, DateFormat};
    /// let month = DateFormat::parse("%Y-%m").unwrap();
    /// assert!(month.starts_its_text(&CivilTime::midnight(2021, 12, 1)));
    /// assert!(!month.starts_its_text(&CivilTime::midnight(2021, 12, 15)));
    /// let millis = DateFormat::parse("%T.%3f").unwrap();
    /// let t = CivilTime { nanosecond: 500_000_000, ..CivilTime::midnight(2021, 1, 1) };
    /// assert!(millis.starts_its_text(&t));
    /// assert!(!millis.starts_its_text(&CivilTime { nanosecond: 500_000_001, ..t }));
    /// ```
    pub fn starts_its_text(&self, c: &CivilTime) -> bool {
        let mut finest = 0u8;
        let mut fraction_digits = 0u8;
        for item in self.items() {
            if let Some((_, last)) = item.rank() {
                finest = finest.max(last);
            }
            if let FormatItem::Fraction(d) = item {
                fraction_digits = *d;
            }
        }
        let nanos_kept = match finest {
            6 => 10u32.pow(9 - u32::from(fraction_digits)),
            _ => 1_000_000_000,
        };
        (finest >= 1 || c.month == 1)
            && (finest >= 2 || c.day == 1)
            && (finest >= 3 || c.hour == 0)
            && (finest >= 4 || c.minute == 0)
            && (finest >= 5 || c.second == 0)
            && c.nanosecond.is_multiple_of(nanos_kept)
    }

    /// Writes `v` in this format.
    pub fn put<T: TextDate>(&self, w: &mut KeyWriter<'_>, v: &T) -> Result<(), EncodeError> {
        let c = v
            .to_civil()
            .map_err(|why| w.error(EncodeErrorKind::Invalid(why)))?;
        let writes_year = self.items().contains(&FormatItem::Year);
        if writes_year && !(0..=9999).contains(&c.year) {
            return Err(w.error(EncodeErrorKind::Invalid(
                "year outside 0..=9999, which %Y cannot write in 4 digits",
            )));
        }
        let out = w.reserve(self.width())?;
        let mut pos = 0;
        for &item in self.items() {
            let n = item.width();
            let value = match item {
                FormatItem::Literal(b) => {
                    out[pos] = b;
                    pos += 1;
                    continue;
                }
                FormatItem::Year => c.year as u32,
                FormatItem::Month => c.month.into(),
                FormatItem::Day => c.day.into(),
                FormatItem::DayOfYear => day_of_year(&c).into(),
                FormatItem::Hour => c.hour.into(),
                FormatItem::Minute => c.minute.into(),
                FormatItem::Second => c.second.into(),
                FormatItem::Fraction(d) => c.nanosecond / 10u32.pow(9 - u32::from(d)),
            };
            put_digits(&mut out[pos..pos + n], value);
            pos += n;
        }
        Ok(())
    }

    /// Reads a value written by [`DateFormat::put`]; text that is not in
    /// the format (a non-digit, a wrong literal, month 13, February 30) is
    /// an error at its byte.
    pub fn take<T: TextDate>(&self, r: &mut KeyReader<'_>) -> Result<T, DecodeError> {
        let at = r.position();
        let bytes = r.take(self.width())?;
        let mut c = CivilTime::DEFAULT;
        let (mut ordinal, mut day_at) = (None, None);
        let mut pos = 0;
        for &item in self.items() {
            let n = item.width();
            let field = &bytes[pos..pos + n];
            let here = at + pos;
            pos += n;
            if let FormatItem::Literal(b) = item {
                if field[0] != b {
                    return Err(r.error_at(
                        here,
                        DecodeErrorKind::Invalid("not the format's literal character here"),
                    ));
                }
                continue;
            }
            let mut v = 0u32;
            for (i, &b) in field.iter().enumerate() {
                if !b.is_ascii_digit() {
                    return Err(r.error_at(here + i, DecodeErrorKind::InvalidDigit { byte: b }));
                }
                v = v * 10 + u32::from(b - b'0');
            }
            let bad = |why| Err(r.error_at(here, DecodeErrorKind::Invalid(why)));
            match item {
                FormatItem::Year => c.year = v as i32,
                FormatItem::Month if !(1..=12).contains(&v) => return bad("month outside 01..=12"),
                FormatItem::Month => c.month = v as u8,
                FormatItem::Day if !(1..=31).contains(&v) => return bad("day outside 01..=31"),
                FormatItem::Day => (c.day, day_at) = (v as u8, Some(here)),
                FormatItem::DayOfYear if !(1..=366).contains(&v) => {
                    return bad("day of the year outside 001..=366")
                }
                FormatItem::DayOfYear => ordinal = Some((v as u16, here)),
                FormatItem::Hour if v > 23 => return bad("hour outside 00..=23"),
                FormatItem::Hour => c.hour = v as u8,
                FormatItem::Minute if v > 59 => return bad("minute outside 00..=59"),
                FormatItem::Minute => c.minute = v as u8,
                FormatItem::Second if v > 59 => {
                    return bad("second outside 00..=59 (a leap second has no text form)")
                }
                FormatItem::Second => c.second = v as u8,
                FormatItem::Fraction(d) => c.nanosecond = v * 10u32.pow(9 - u32::from(d)),
                FormatItem::Literal(_) => {}
            }
        }
        if let Some((n, here)) = ordinal {
            (c.month, c.day) = month_day(c.year, n).ok_or_else(|| {
                r.error_at(
                    here,
                    DecodeErrorKind::Invalid("day 366 of a year that is not a leap year"),
                )
            })?;
        }
        if let Some(here) = day_at.filter(|_| c.day > days_in_month(c.year, c.month)) {
            return Err(r.error_at(
                here,
                DecodeErrorKind::Invalid("day past the end of its month"),
            ));
        }
        if !T::HAS_TIME && !c.is_midnight() {
            return Err(r.error_at(
                at,
                DecodeErrorKind::Invalid("a time of day in a date field, whose type has none"),
            ));
        }
        T::from_civil(c).ok_or_else(|| {
            r.error_at(
                at,
                DecodeErrorKind::Invalid("a date or time outside the field type's range"),
            )
        })
    }
}

impl DateFormat {
    /// Its format rules: a text form of the format's width, of digits and
    /// the format's literal characters.
    pub(crate) const fn rules(&self) -> CodecRules {
        let items = self.items();
        let mut writes = ByteSet::DIGITS;
        let mut i = 0;
        while i < items.len() {
            if let FormatItem::Literal(b) = items[i] {
                writes = writes.with(b);
            }
            i += 1;
        }
        CodecRules::text_form(self.width(), writes)
    }
}

impl LayoutCodec for DateFormat {
    fn put_value(
        &self,
        w: &mut KeyWriter<'_>,
        f: &FieldLayout,
        v: &Value,
    ) -> Result<(), EncodeError> {
        let kind = f.value.unwrapped();
        match (kind, civil(kind, v)) {
            (ValueKind::Date(_), Some(c)) => self.put(w, &CivilValue::<false>(c)),
            (_, Some(c)) => self.put(w, &CivilValue::<true>(c)),
            _ => Err(mismatch(w)),
        }
    }

    fn take_value(
        &self,
        r: &mut KeyReader<'_>,
        f: &FieldLayout,
        _: bool,
    ) -> Result<Value, DecodeError> {
        let kind = f.value.unwrapped();
        let c = match kind {
            ValueKind::Date(_) => self.take::<CivilValue<false>>(r)?.0,
            _ => self.take::<CivilValue<true>>(r)?.0,
        };
        civil_value(r, kind, c)
    }

    /// A text date may also be given as the text the key holds (`2021-12`
    /// for `%Y-%m`), read through the field's format.
    fn parse_stored(&self, kind: &ValueKind, text: &str) -> Option<Result<Value, String>> {
        let mut r = KeyReader::new(text.as_bytes(), "value");
        let stored = self
            .take::<CivilValue<true>>(&mut r)
            .and_then(|c| r.finish().map(|()| c.0));
        Some(match (stored, kind.unwrapped()) {
            (Ok(c), ValueKind::Date(_)) => Ok(Value::Date(c)),
            (Ok(c), ValueKind::DateTime(_)) => Ok(Value::DateTime(c)),
            (Ok(c), ValueKind::Instant(_)) => Ok(Value::Instant(c)),
            _ => Err(format!("the field's text \"{self}\"")),
        })
    }

    fn explain(&self, s: &mut String, ty: &str) -> fmt::Result {
        write!(
            s,
            "{ty} as {} characters of text, format \"{self}\"",
            self.width()
        )
    }
}

/// A plain calendar type for the tests: every `CivilTime` with a valid
/// date.
/// The interpreter's stand-in for a date or date-time, as a format
/// writes it.
impl<const TIME: bool> TextDate for CivilValue<TIME> {
    const HAS_TIME: bool = TIME;
    fn to_civil(&self) -> Result<CivilTime, &'static str> {
        Ok(self.0)
    }
    fn from_civil(c: CivilTime) -> Option<Self> {
        Some(CivilValue(c))
    }
}

#[cfg(test)]
impl TextDate for CivilTime {
    const HAS_TIME: bool = true;
    fn to_civil(&self) -> Result<CivilTime, &'static str> {
        Ok(*self)
    }
    fn from_civil(c: CivilTime) -> Option<Self> {
        Some(c)
    }
}

#[cfg(test)]
#[path = "date_text_tests.rs"]
mod tests;
