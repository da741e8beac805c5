//! chrono dates and times (feature `chrono`), binary, as signed integers of
//! a stated unit with the sign bit flipped (so earlier sorts first):
//!
//! | type | stored as |
//! | --- | --- |
//! | `NaiveDate` | days since 1970-01-01 (Java's `LocalDate.toEpochDay()`), `i32`, 4 bytes |
//! | `NaiveDateTime` | nanoseconds since 1970-01-01T00:00:00, `i64`, 8 bytes |
//! | `DateTime<Utc>` | nanoseconds since the Unix epoch, `i64`, 8 bytes |
//!
//! Nanoseconds keep every value chrono can hold between the years 1677 and
//! 2262; a time outside them is an encode error, never a truncated key.
//! Every stored key decodes to the value that wrote it.
//!
//! A leap second is an encode error naming the field. chrono holds one
//! (23:59:60, as a nanosecond field of 1_000_000_000 or more, from parsing
//! `23:59:60`), but it counts the same nanoseconds since the epoch as the
//! second after it, so it would write that second's key: a put of one would
//! overwrite the other. time and jiff cannot hold a leap second (time
//! refuses second 60, jiff's parser reads it as 59), so refusing it keeps
//! one instant, one key, in all three crates. `#[text(format)]` and
//! `#[desc_ts]` refuse it too.
//!
//! ```
//! use chrono::NaiveDate;
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct At { t: chrono::NaiveDateTime }
//!
//! let leap = NaiveDate::from_ymd_opt(2016, 12, 31).unwrap()
//!     .and_hms_nano_opt(23, 59, 59, 1_500_000_000).unwrap(); // 23:59:60.5
//! let e = At { t: leap }.to_vec().unwrap_err();
//! assert_eq!(e.field(), "t");
//! assert!(e.to_string().contains("leap second"));
//! ```
//!
//! ```
//! use chrono::NaiveDate;
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Visit { day: NaiveDate, user: u32 }
//!
//! let day = NaiveDate::from_ymd_opt(2021, 12, 1).unwrap();
//! let key = Visit { day, user: 7 }.to_key()?;
//! assert_eq!(&key[..4], &(18962i32 as u32 ^ 1 << 31).to_be_bytes()); // 18962 days after 1970-01-01
//! assert_eq!(Visit::decode(&key)?, Visit { day, user: 7 });
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::codec::epoch::{days_part, nanos_part, LEAP_SECOND, NANOS_OUT_OF_RANGE};
use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, Timelike, Utc};

/// `NaiveDate::num_days_from_ce` of 1970-01-01.
const EPOCH_DAYS_FROM_CE: i32 = 719_163;

days_part!(
    NaiveDate,
    crate::layout::ValueKind::Date(crate::layout::TimeCrate::Chrono),
    to_days: |d| d.num_days_from_ce() - EPOCH_DAYS_FROM_CE,
    from_days: |days| {
        days.checked_add(EPOCH_DAYS_FROM_CE)
            .and_then(NaiveDate::from_num_days_from_ce_opt)
    },
    "day outside chrono's NaiveDate range"
);

/// Nanoseconds since the epoch of a time read as UTC; a leap second has
/// none of its own ([`LEAP_SECOND`]).
pub(crate) fn epoch_nanos(t: &NaiveDateTime) -> Result<i128, &'static str> {
    if t.nanosecond() >= 1_000_000_000 {
        return Err(LEAP_SECOND);
    }
    t.and_utc()
        .timestamp_nanos_opt()
        .map(i128::from)
        .ok_or(NANOS_OUT_OF_RANGE)
}

// Every i64 of nanoseconds is a `DateTime<Utc>`: decoding cannot fail.
nanos_part!(
    DateTime<Utc>,
    crate::layout::ValueKind::Instant(crate::layout::TimeCrate::Chrono),
    to_nanos: |t| epoch_nanos(&t.naive_utc()),
    from_nanos: |n| Some(DateTime::from_timestamp_nanos(n)),
    "instant outside chrono's DateTime range"
);

nanos_part!(
    NaiveDateTime,
    crate::layout::ValueKind::DateTime(crate::layout::TimeCrate::Chrono),
    to_nanos: epoch_nanos,
    from_nanos: |n| Some(DateTime::from_timestamp_nanos(n).naive_utc()),
    "time outside chrono's NaiveDateTime range"
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::epoch::NANOS_OUT_OF_RANGE as OUT_OF_RANGE;
    use crate::codec::test_util::{check_ordered_part, dec, enc};
    use crate::EncodeErrorKind;
    use proptest::prelude::*;

    #[test]
    fn golden_and_limits() {
        let epoch = NaiveDate::from_ymd_opt(1970, 1, 1).unwrap();
        assert_eq!(enc(epoch).unwrap(), [0x80, 0, 0, 0]);
        let t = DateTime::from_timestamp_nanos(1);
        assert_eq!(enc(t).unwrap(), [0x80, 0, 0, 0, 0, 0, 0, 1]);
        let far = NaiveDate::from_ymd_opt(3000, 1, 1)
            .unwrap()
            .and_hms_opt(0, 0, 0)
            .unwrap();
        let e = enc(far).unwrap_err();
        assert_eq!(e.kind(), EncodeErrorKind::Invalid(OUT_OF_RANGE));
        assert!(dec::<NaiveDate>(&enc(i32::MAX).unwrap()).is_err());
    }

    /// The issue's case: 23:59:60.5 would have written 00:00:00.5's key.
    /// Every leap second, of either type, is refused instead.
    #[test]
    fn leap_seconds_are_refused() {
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        let leap = day(2016, 12, 31)
            .and_hms_nano_opt(23, 59, 59, 1_500_000_000)
            .unwrap();
        let next = day(2017, 1, 1)
            .and_hms_nano_opt(0, 0, 0, 500_000_000)
            .unwrap();
        assert!(enc(next).is_ok());
        for nanos in [1_000_000_000, 1_500_000_000, 1_999_999_999] {
            let leap = leap.with_nanosecond(nanos).unwrap();
            assert_eq!(
                enc(leap).unwrap_err().kind(),
                EncodeErrorKind::Invalid(LEAP_SECOND)
            );
            assert_eq!(
                enc(leap.and_utc()).unwrap_err().kind(),
                EncodeErrorKind::Invalid(LEAP_SECOND)
            );
        }
    }

    proptest! {
        /// Dates: roundtrip, order, injectivity; every 4 bytes decode to
        /// a date that writes them back, or are an error.
        #[test]
        fn dates(a in -100_000i32..100_000, b in -100_000i32..100_000, junk in proptest::collection::vec(any::<u8>(), 0..6)) {
            let day = |d: i32| NaiveDate::from_num_days_from_ce_opt(d + EPOCH_DAYS_FROM_CE).unwrap();
            check_ordered_part(day(a), day(b), &junk)?;
        }

        /// Times to the nanosecond: roundtrip, order, injectivity, and
        /// canonical decode of any 8 bytes.
        #[test]
        fn times(a: i64, b: i64, junk in proptest::collection::vec(any::<u8>(), 0..10)) {
            let (a, b) = (DateTime::from_timestamp_nanos(a), DateTime::from_timestamp_nanos(b));
            let (ea, eb) = (enc(a).unwrap(), enc(b).unwrap());
            prop_assert_eq!(dec::<DateTime<Utc>>(&ea).unwrap(), a);
            prop_assert_eq!(dec::<NaiveDateTime>(&ea).unwrap(), a.naive_utc());
            prop_assert_eq!(enc(a.naive_utc()).unwrap(), ea.clone());
            prop_assert_eq!(a.cmp(&b), ea.cmp(&eb));
            if let Ok(v) = dec::<DateTime<Utc>>(&junk) {
                prop_assert_eq!(enc(v).unwrap(), junk);
            }
        }
    }
}
