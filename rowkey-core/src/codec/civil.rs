//! Days since 1970-01-01 and calendar dates (proleptic Gregorian), without
//! a date crate: what the layout interpreter uses to read and write the
//! date and time codecs' values when it has no chrono, time or jiff type
//! to hand them. chrono, time and jiff count days the same way (the
//! property test below holds them to it).

/// A calendar date and time of day (proleptic Gregorian, no zone): what a
/// [`DateFormat`](super::DateFormat) reads from a value and builds one from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CivilTime {
    /// The year.
    pub year: i32,
    /// 1..=12.
    pub month: u8,
    /// 1..=31.
    pub day: u8,
    /// 0..=23.
    pub hour: u8,
    /// 0..=59.
    pub minute: u8,
    /// 0..=59.
    pub second: u8,
    /// 0..=999_999_999.
    pub nanosecond: u32,
}

impl CivilTime {
    /// What a format fills in for units it does not write.
    pub(crate) const DEFAULT: CivilTime = CivilTime {
        year: 2000,
        month: 1,
        day: 1,
        hour: 0,
        minute: 0,
        second: 0,
        nanosecond: 0,
    };

    /// Midnight of a calendar day: what a date type reads as.
    pub fn midnight(year: i32, month: u8, day: u8) -> Self {
        CivilTime {
            year,
            month,
            day,
            ..CivilTime::DEFAULT
        }
    }

    /// Whether the time of day is midnight.
    pub fn is_midnight(&self) -> bool {
        (self.hour, self.minute, self.second, self.nanosecond) == (0, 0, 0, 0)
    }
}

/// `2021-12-01 12:00:00`, with the nanoseconds (`.000000500`) when there
/// are any.
///
/// ```
/// use rowkey::codec::CivilTime;
/// let t = CivilTime { hour: 12, nanosecond: 500, ..CivilTime::midnight(2021, 12, 1) };
/// assert_eq!(t.to_string(), "2021-12-01 12:00:00.000000500");
/// ```
impl core::fmt::Display for CivilTime {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )?;
        if self.nanosecond != 0 {
            write!(f, ".{:09}", self.nanosecond)?;
        }
        Ok(())
    }
}

/// Days from 1970-01-01 to `year-month-day` (negative before it). The
/// date must be valid.
pub const fn days_from_civil(year: i64, month: u8, day: u8) -> i64 {
    // Years start in March, so the leap day is the year's last.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = month as i64;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The calendar date `days` after 1970-01-01: `(year, month, day)`.
pub const fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
    (year, month, day)
}

const NANOS_PER_DAY: i128 = 86_400 * 1_000_000_000;

impl CivilTime {
    /// Whether the month is 1..=12 and the day exists in it.
    pub fn is_valid_date(&self) -> bool {
        (1..=12).contains(&self.month)
            && self.day >= 1
            && self.day <= days_in_month(self.year, self.month)
    }

    /// Days from 1970-01-01 to this value's date.
    pub const fn epoch_days(&self) -> i64 {
        days_from_civil(self.year as i64, self.month, self.day)
    }

    /// Midnight of the day `days` after 1970-01-01, or `None` where the
    /// year is beyond an `i32`.
    pub fn from_epoch_days(days: i64) -> Option<CivilTime> {
        let (year, month, day) = civil_from_days(days);
        Some(CivilTime::midnight(i32::try_from(year).ok()?, month, day))
    }

    /// Nanoseconds from 1970-01-01T00:00:00 to this value.
    pub const fn epoch_nanos(&self) -> i128 {
        let secs = self.hour as i128 * 3600 + self.minute as i128 * 60 + self.second as i128;
        self.epoch_days() as i128 * NANOS_PER_DAY + secs * 1_000_000_000 + self.nanosecond as i128
    }

    /// The value `nanos` nanoseconds after 1970-01-01T00:00:00, or `None`
    /// where the year is beyond an `i32`.
    pub fn from_epoch_nanos(nanos: i128) -> Option<CivilTime> {
        let days = i64::try_from(nanos.div_euclid(NANOS_PER_DAY)).ok()?;
        let in_day = nanos.rem_euclid(NANOS_PER_DAY);
        let secs = (in_day / 1_000_000_000) as u32;
        Some(CivilTime {
            hour: (secs / 3600) as u8,
            minute: (secs / 60 % 60) as u8,
            second: (secs % 60) as u8,
            nanosecond: (in_day % 1_000_000_000) as u32,
            ..CivilTime::from_epoch_days(days)?
        })
    }
}

const fn is_leap(year: i32) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Days before the first of each month in a common year.
const DAYS_BEFORE: [u16; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

pub(crate) fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

pub(crate) fn day_of_year(c: &CivilTime) -> u16 {
    let leap = u16::from(c.month > 2 && is_leap(c.year));
    DAYS_BEFORE[usize::from(c.month - 1)] + leap + u16::from(c.day)
}

/// Month and day of a day of the year, or `None` past the year's end.
pub(crate) fn month_day(year: i32, ordinal: u16) -> Option<(u8, u8)> {
    let mut left = ordinal;
    for month in 1..=12u8 {
        let n = u16::from(days_in_month(year, month));
        if left <= n {
            return Some((month, left as u8));
        }
        left -= n;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_days() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2021, 12, 1), 18_962);
        assert_eq!(days_from_civil(2000, 2, 29), 11_016);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    proptest! {
        #[test]
        fn days_round_trip(days in -100_000_000i64..100_000_000) {
            let (y, m, d) = civil_from_days(days);
            prop_assert_eq!(days_from_civil(y, m, d), days);
        }

        #[test]
        fn nanos_round_trip(nanos in any::<i64>()) {
            let c = CivilTime::from_epoch_nanos(nanos.into()).unwrap();
            prop_assert_eq!(c.epoch_nanos(), i128::from(nanos));
        }
    }

    #[cfg(feature = "chrono")]
    proptest! {
        #[test]
        fn counts_days_as_chrono_does(nanos in any::<i64>()) {
            use chrono::{Datelike, Timelike};
            let t = chrono::DateTime::from_timestamp_nanos(nanos).naive_utc();
            let c = CivilTime::from_epoch_nanos(nanos.into()).unwrap();
            prop_assert_eq!(
                (c.year, u32::from(c.month), u32::from(c.day)),
                (t.year(), t.month(), t.day())
            );
            prop_assert_eq!(
                (u32::from(c.hour), u32::from(c.minute), u32::from(c.second), c.nanosecond),
                (t.hour(), t.minute(), t.second(), t.nanosecond())
            );
        }
    }
}
