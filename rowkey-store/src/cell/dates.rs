//! Dates and times in cells, the same form whichever crate holds them:
//!
//! | type | cell | Java reads it as |
//! | --- | --- | --- |
//! | a date | days since 1970-01-01, `i32`, 4 bytes big-endian | `LocalDate.ofEpochDay(Bytes.toInt(v))` |
//! | a date and time, an instant | seconds since 1970-01-01T00:00:00 UTC, `i64`, then the nanoseconds of that second, `u32`: 12 bytes big-endian | `Instant.ofEpochSecond(Bytes.toLong(v, 0), Bytes.toInt(v, 8))` |
//!
//! Every value of each type is kept exactly (a chrono leap second's
//! nanoseconds are 1,000,000,000 or more; time and jiff refuse those on
//! read). A civil date-time is stored as if it were UTC; an
//! `OffsetDateTime` as its instant, read back at offset UTC.

use super::CellError;

/// The 4 bytes of a date.
pub(super) fn put_days(days: i32) -> Vec<u8> {
    days.to_be_bytes().to_vec()
}

/// The days of a date's 4 bytes.
pub(super) fn take_days(bytes: &[u8]) -> Result<i32, CellError> {
    let b: [u8; 4] = bytes
        .try_into()
        .map_err(|_| CellError::width(4, bytes.len(), "a date: epoch days"))?;
    Ok(i32::from_be_bytes(b))
}

/// The 12 bytes of an instant.
pub(super) fn put_instant(secs: i64, nanos: u32) -> Vec<u8> {
    let mut v = Vec::with_capacity(12);
    v.extend_from_slice(&secs.to_be_bytes());
    v.extend_from_slice(&nanos.to_be_bytes());
    v
}

/// The seconds and nanoseconds of an instant's 12 bytes.
pub(super) fn take_instant(bytes: &[u8]) -> Result<(i64, u32), CellError> {
    let b: [u8; 12] = bytes
        .try_into()
        .map_err(|_| CellError::width(12, bytes.len(), "a time: epoch seconds and nanoseconds"))?;
    let (s, n) = b.split_at(8);
    let secs = i64::from_be_bytes(s.try_into().unwrap_or_default());
    let nanos = u32::from_be_bytes(n.try_into().unwrap_or_default());
    Ok((secs, nanos))
}

/// Seconds and nanoseconds of `nanos` since the epoch (floor division).
#[cfg(any(feature = "time", feature = "jiff"))]
pub(super) fn split_nanos(nanos: i128) -> (i64, u32) {
    let secs = nanos.div_euclid(1_000_000_000);
    // These crates' ranges (years -9999..=9999) fit an i64 of seconds.
    (secs as i64, nanos.rem_euclid(1_000_000_000) as u32)
}

/// `secs` and `nanos` as nanoseconds since the epoch; nanoseconds of a
/// second must be under 10^9.
#[cfg(any(feature = "time", feature = "jiff"))]
pub(super) fn join_nanos(secs: i64, nanos: u32) -> Result<i128, CellError> {
    if nanos >= 1_000_000_000 {
        return Err(CellError::invalid(format!(
            "{nanos} nanoseconds of a second: at most 999999999"
        )));
    }
    Ok(i128::from(secs) * 1_000_000_000 + i128::from(nanos))
}

/// The error of a stored time out of the type's range.
pub(super) fn out_of_range(what: &str, secs: i64, nanos: u32) -> CellError {
    CellError::invalid(format!(
        "{secs} s {nanos} ns since 1970-01-01T00:00:00 is outside {what}'s range"
    ))
}

/// The error of a stored date out of the type's range.
pub(super) fn day_out_of_range(what: &str, days: i32) -> CellError {
    CellError::invalid(format!(
        "day {days} since 1970-01-01 is outside {what}'s range"
    ))
}

#[cfg(feature = "chrono")]
mod chrono_impls {
    use super::*;
    use crate::cell::CellValue;
    use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, Utc};

    /// Days from 0001-01-01 (day 1) to 1970-01-01.
    const CE_TO_EPOCH: i32 = 719_163;

    impl CellValue for NaiveDate {
        fn to_cell(&self) -> Vec<u8> {
            put_days(self.num_days_from_ce() - CE_TO_EPOCH)
        }
        fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
            let days = take_days(bytes)?;
            days.checked_add(CE_TO_EPOCH)
                .and_then(NaiveDate::from_num_days_from_ce_opt)
                .ok_or_else(|| day_out_of_range("chrono's NaiveDate", days))
        }
    }

    impl CellValue for DateTime<Utc> {
        fn to_cell(&self) -> Vec<u8> {
            put_instant(self.timestamp(), self.timestamp_subsec_nanos())
        }
        fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
            let (secs, nanos) = take_instant(bytes)?;
            DateTime::from_timestamp(secs, nanos)
                .ok_or_else(|| out_of_range("chrono's DateTime<Utc>", secs, nanos))
        }
    }

    impl CellValue for NaiveDateTime {
        fn to_cell(&self) -> Vec<u8> {
            self.and_utc().to_cell()
        }
        fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
            DateTime::<Utc>::from_cell(bytes).map(|t| t.naive_utc())
        }
    }
}

#[cfg(feature = "time")]
mod time_impls {
    use super::*;
    use crate::cell::CellValue;
    use time::{Date, OffsetDateTime, PrimitiveDateTime};

    const EPOCH_JULIAN_DAY: i32 = 2_440_588;

    impl CellValue for Date {
        fn to_cell(&self) -> Vec<u8> {
            put_days(self.to_julian_day() - EPOCH_JULIAN_DAY)
        }
        fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
            let days = take_days(bytes)?;
            days.checked_add(EPOCH_JULIAN_DAY)
                .and_then(|jd| Date::from_julian_day(jd).ok())
                .ok_or_else(|| day_out_of_range("time's Date", days))
        }
    }

    impl CellValue for OffsetDateTime {
        fn to_cell(&self) -> Vec<u8> {
            let (secs, nanos) = split_nanos(self.unix_timestamp_nanos());
            put_instant(secs, nanos)
        }
        fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
            let (secs, nanos) = take_instant(bytes)?;
            OffsetDateTime::from_unix_timestamp_nanos(join_nanos(secs, nanos)?)
                .map_err(|_| out_of_range("time's OffsetDateTime", secs, nanos))
        }
    }

    impl CellValue for PrimitiveDateTime {
        fn to_cell(&self) -> Vec<u8> {
            self.assume_utc().to_cell()
        }
        fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
            OffsetDateTime::from_cell(bytes).map(|t| PrimitiveDateTime::new(t.date(), t.time()))
        }
    }
}

#[cfg(feature = "jiff")]
mod jiff_impls {
    use super::*;
    use crate::cell::CellValue;
    use jiff::civil::{Date, DateTime};
    use jiff::{SignedDuration, Timestamp};

    const EPOCH_DATE: Date = jiff::civil::date(1970, 1, 1);
    const EPOCH_DATETIME: DateTime = jiff::civil::datetime(1970, 1, 1, 0, 0, 0, 0);

    impl CellValue for Date {
        fn to_cell(&self) -> Vec<u8> {
            // Civil days are 24 hours; jiff's dates are within ±4.4
            // million days of the epoch.
            put_days((self.duration_since(EPOCH_DATE).as_hours() / 24) as i32)
        }
        fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
            let days = take_days(bytes)?;
            EPOCH_DATE
                .checked_add(SignedDuration::from_hours(i64::from(days) * 24))
                .map_err(|_| day_out_of_range("jiff's civil::Date", days))
        }
    }

    impl CellValue for Timestamp {
        fn to_cell(&self) -> Vec<u8> {
            let (secs, nanos) = split_nanos(self.as_nanosecond());
            put_instant(secs, nanos)
        }
        fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
            let (secs, nanos) = take_instant(bytes)?;
            Timestamp::from_nanosecond(join_nanos(secs, nanos)?)
                .map_err(|_| out_of_range("jiff's Timestamp", secs, nanos))
        }
    }

    impl CellValue for DateTime {
        fn to_cell(&self) -> Vec<u8> {
            let (secs, nanos) = split_nanos(self.duration_since(EPOCH_DATETIME).as_nanos());
            put_instant(secs, nanos)
        }
        fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
            let (secs, nanos) = take_instant(bytes)?;
            join_nanos(secs, nanos)?;
            let since = SignedDuration::new(secs, nanos as i32);
            EPOCH_DATETIME
                .checked_add(since)
                .map_err(|_| out_of_range("jiff's civil::DateTime", secs, nanos))
        }
    }
}
