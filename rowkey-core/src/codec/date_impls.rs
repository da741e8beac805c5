//! chrono's, time's and jiff's types as [`TextDate`]s (`#[text(format)]`)
//! and [`Timestamp`]s (`#[desc_ts]`), each behind its crate's feature.
//!
//! `#[desc_ts]` on an instant stores `i64::MAX - nanoseconds since the
//! Unix epoch` (UTC; a `NaiveDateTime`, `PrimitiveDateTime` or
//! `civil::DateTime` is read as UTC): the unit of the binary date-time
//! codec, the same in the three crates, exact to the nanosecond. It holds
//! 1970-01-01 to 2262-04-11; an instant outside is an encode error that
//! names it ([`EncodeErrorKind::DescTsOutOfRange`]), and so is chrono's
//! leap second, which has no nanoseconds of its own.

#[cfg(any(feature = "chrono", feature = "time", feature = "jiff"))]
use super::civil::CivilTime;
use super::date_text::TextDate;
#[cfg(any(feature = "chrono", feature = "time", feature = "jiff"))]
use super::desc::Timestamp;
#[cfg(any(feature = "chrono", feature = "time", feature = "jiff"))]
use crate::EncodeErrorKind;

/// `Timestamp` for a type through its epoch nanoseconds; `leap` says
/// whether a value is a leap second (chrono's types only), which has none
/// of its own.
#[cfg(any(feature = "chrono", feature = "time", feature = "jiff"))]
macro_rules! nanos_timestamp {
    ($t:ty, |$v:ident| $nanos:expr, |$n:ident| $back:expr $(, leap: |$l:ident| $leap:expr)?) => {
        impl Timestamp for $t {
            fn as_i128(self) -> i128 {
                let $v = self;
                $nanos
            }
            fn to_ts(self) -> Option<i64> {
                i64::try_from(self.as_i128()).ok().filter(|n| *n >= 0)
            }
            fn from_ts(ts: i64) -> Option<Self> {
                let $n = ts;
                $back
            }
            $(fn no_timestamp(self) -> Option<&'static str> {
                let $l = self;
                $leap.then_some(crate::codec::epoch::LEAP_SECOND)
            })?
            fn out_of_range(self) -> EncodeErrorKind {
                // The value in the user's terms: its UTC date and time.
                match self.to_civil() {
                    Ok(value) => EncodeErrorKind::DescTsOutOfRange { value },
                    Err(_) => EncodeErrorKind::TimestampOutOfRange,
                }
            }
        }
    };
}

#[cfg(feature = "chrono")]
mod chrono_impls {
    use super::*;
    use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, Timelike, Utc};

    impl TextDate for NaiveDate {
        const HAS_TIME: bool = false;
        fn to_civil(&self) -> Result<CivilTime, &'static str> {
            Ok(CivilTime::midnight(
                self.year(),
                self.month() as u8,
                self.day() as u8,
            ))
        }
        fn from_civil(c: CivilTime) -> Option<Self> {
            NaiveDate::from_ymd_opt(c.year, c.month.into(), c.day.into())
        }
    }

    impl TextDate for NaiveDateTime {
        const HAS_TIME: bool = true;
        fn to_civil(&self) -> Result<CivilTime, &'static str> {
            if self.nanosecond() >= 1_000_000_000 {
                return Err("a leap second has no text form");
            }
            Ok(CivilTime {
                hour: self.hour() as u8,
                minute: self.minute() as u8,
                second: self.second() as u8,
                nanosecond: self.nanosecond(),
                ..self.date().to_civil()?
            })
        }
        fn from_civil(c: CivilTime) -> Option<Self> {
            NaiveDate::from_civil(c)?.and_hms_nano_opt(
                c.hour.into(),
                c.minute.into(),
                c.second.into(),
                c.nanosecond,
            )
        }
    }

    impl TextDate for DateTime<Utc> {
        const HAS_TIME: bool = true;
        fn to_civil(&self) -> Result<CivilTime, &'static str> {
            self.naive_utc().to_civil()
        }
        fn from_civil(c: CivilTime) -> Option<Self> {
            NaiveDateTime::from_civil(c).map(|t| t.and_utc())
        }
    }

    nanos_timestamp!(
        DateTime<Utc>,
        |v| i128::from(v.timestamp()) * 1_000_000_000 + i128::from(v.timestamp_subsec_nanos()),
        |n| Some(DateTime::from_timestamp_nanos(n)),
        leap: |v| v.nanosecond() >= 1_000_000_000
    );
    nanos_timestamp!(
        NaiveDateTime,
        |v| v.and_utc().as_i128(),
        |n| Some(DateTime::from_timestamp_nanos(n).naive_utc()),
        leap: |v| v.nanosecond() >= 1_000_000_000
    );
}

#[cfg(feature = "time")]
mod time_impls {
    use super::*;
    use time::{Date, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

    impl TextDate for Date {
        const HAS_TIME: bool = false;
        fn to_civil(&self) -> Result<CivilTime, &'static str> {
            Ok(CivilTime::midnight(
                self.year(),
                self.month() as u8,
                self.day(),
            ))
        }
        fn from_civil(c: CivilTime) -> Option<Self> {
            Date::from_calendar_date(c.year, Month::try_from(c.month).ok()?, c.day).ok()
        }
    }

    impl TextDate for PrimitiveDateTime {
        const HAS_TIME: bool = true;
        fn to_civil(&self) -> Result<CivilTime, &'static str> {
            Ok(CivilTime {
                hour: self.hour(),
                minute: self.minute(),
                second: self.second(),
                nanosecond: self.nanosecond(),
                ..self.date().to_civil()?
            })
        }
        fn from_civil(c: CivilTime) -> Option<Self> {
            let t = Time::from_hms_nano(c.hour, c.minute, c.second, c.nanosecond).ok()?;
            Some(PrimitiveDateTime::new(Date::from_civil(c)?, t))
        }
    }

    /// In UTC; decoded values are in UTC.
    impl TextDate for OffsetDateTime {
        const HAS_TIME: bool = true;
        fn to_civil(&self) -> Result<CivilTime, &'static str> {
            let utc = self
                .checked_to_offset(UtcOffset::UTC)
                .ok_or("the instant in UTC is outside time's range")?;
            PrimitiveDateTime::new(utc.date(), utc.time()).to_civil()
        }
        fn from_civil(c: CivilTime) -> Option<Self> {
            PrimitiveDateTime::from_civil(c).map(PrimitiveDateTime::assume_utc)
        }
    }

    nanos_timestamp!(OffsetDateTime, |v| v.unix_timestamp_nanos(), |n| {
        OffsetDateTime::from_unix_timestamp_nanos(n.into()).ok()
    });
    nanos_timestamp!(
        PrimitiveDateTime,
        |v| v.assume_utc().unix_timestamp_nanos(),
        |n| OffsetDateTime::from_unix_timestamp_nanos(n.into())
            .ok()
            .map(|t| PrimitiveDateTime::new(t.date(), t.time()))
    );
}

#[cfg(feature = "jiff")]
mod jiff_impls {
    use super::*;
    use jiff::civil::{Date, DateTime};
    use jiff::tz::Offset;

    impl TextDate for Date {
        const HAS_TIME: bool = false;
        fn to_civil(&self) -> Result<CivilTime, &'static str> {
            Ok(CivilTime::midnight(
                self.year().into(),
                self.month() as u8,
                self.day() as u8,
            ))
        }
        fn from_civil(c: CivilTime) -> Option<Self> {
            let year = i16::try_from(c.year).ok()?;
            Date::new(year, c.month as i8, c.day as i8).ok()
        }
    }

    impl TextDate for DateTime {
        const HAS_TIME: bool = true;
        fn to_civil(&self) -> Result<CivilTime, &'static str> {
            Ok(CivilTime {
                hour: self.hour() as u8,
                minute: self.minute() as u8,
                second: self.second() as u8,
                nanosecond: self.subsec_nanosecond() as u32,
                ..self.date().to_civil()?
            })
        }
        fn from_civil(c: CivilTime) -> Option<Self> {
            let d = Date::from_civil(c)?;
            let t = jiff::civil::Time::new(
                c.hour as i8,
                c.minute as i8,
                c.second as i8,
                c.nanosecond as i32,
            )
            .ok()?;
            Some(d.to_datetime(t))
        }
    }

    /// In UTC.
    impl TextDate for jiff::Timestamp {
        const HAS_TIME: bool = true;
        fn to_civil(&self) -> Result<CivilTime, &'static str> {
            Offset::UTC.to_datetime(*self).to_civil()
        }
        fn from_civil(c: CivilTime) -> Option<Self> {
            Offset::UTC.to_timestamp(DateTime::from_civil(c)?).ok()
        }
    }

    nanos_timestamp!(jiff::Timestamp, |v| v.as_nanosecond(), |n| {
        jiff::Timestamp::from_nanosecond(n.into()).ok()
    });
    nanos_timestamp!(
        DateTime,
        |v| Offset::UTC
            .to_timestamp(v)
            .map_or(i128::MIN, |t| t.as_nanosecond()),
        |n| jiff::Timestamp::from_nanosecond(n.into())
            .ok()
            .map(|t| Offset::UTC.to_datetime(t))
    );
}
