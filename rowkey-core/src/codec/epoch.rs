//! What the date and time codecs (chrono, time, jiff) share, so that one
//! instant writes the same bytes whichever crate holds it: days since
//! 1970-01-01 as an `i32`, nanoseconds since 1970-01-01T00:00:00 UTC as an
//! `i64`, both through the integer codec (sign bit flipped, big-endian).
//! Each crate's types only say how they convert ([`days_part!`],
//! [`nanos_part!`]); the bytes, widths and errors are written here once.

use crate::{EncodeError, EncodeErrorKind, KeyPart, KeyWriter};

/// Why a time cannot be stored as nanoseconds in an `i64`.
pub(crate) const NANOS_OUT_OF_RANGE: &str =
    "time outside 1677-09-21..2262-04-11, which nanoseconds in an i64 cannot hold";

/// Why a leap second (chrono's second 60, a nanosecond field of
/// 1_000_000_000 or more) has no key: it counts the same nanoseconds since
/// the epoch as the second after it, so its key would be that second's
/// (and time and jiff, which cannot hold a leap second, would read it as
/// that second).
// Only chrono's types can hold a leap second.
#[cfg_attr(not(feature = "chrono"), allow(dead_code))]
pub(crate) const LEAP_SECOND: &str =
    "a leap second (23:59:60) has no key of its own: its nanoseconds since the epoch \
     are those of the next second, which time and jiff would read back";

/// Writes epoch nanoseconds (`Err`: why the value has none), refusing a
/// time that an `i64` cannot hold rather than truncating it.
#[inline]
pub(crate) fn put_nanos(
    nanos: Result<i128, &'static str>,
    w: &mut KeyWriter<'_>,
) -> Result<(), EncodeError> {
    match nanos.map(i64::try_from) {
        Ok(Ok(n)) => n.encode(w),
        Ok(Err(_)) => Err(w.error(EncodeErrorKind::Invalid(NANOS_OUT_OF_RANGE))),
        Err(why) => Err(w.error(EncodeErrorKind::Invalid(why))),
    }
}

/// `KeyPart` and `DecodePart` for a date stored as epoch days (`i32`, 4
/// bytes): `to_days` counts a value's day, `from_days` rebuilds one
/// (`None` outside the type's range: a decode error saying `why`).
macro_rules! days_part {
    ($ty:ty, $kind:expr, to_days: $to:expr, from_days: $from:expr, $why:literal) => {
        impl $crate::part::KeyPart for $ty {
            const MAX_LEN: usize = 4;
            const FIXED_LEN: Option<usize> = Some(4);
            const VALUE: $crate::layout::ValueKind = $kind;
            fn encoded_len(&self) -> usize {
                4
            }
            fn encode(
                &self,
                w: &mut $crate::writer::KeyWriter<'_>,
            ) -> Result<(), $crate::error::EncodeError> {
                let to_days: fn(&$ty) -> i32 = $to;
                $crate::part::KeyPart::encode(&to_days(self), w)
            }
        }

        impl $crate::part::DecodePart<'_> for $ty {
            fn decode(
                r: &mut $crate::reader::KeyReader<'_>,
            ) -> Result<Self, $crate::error::DecodeError> {
                let at = r.position();
                let from_days: fn(i32) -> Option<$ty> = $from;
                from_days(<i32 as $crate::part::DecodePart>::decode(r)?)
                    .ok_or_else(|| r.error_at(at, $crate::error::DecodeErrorKind::Invalid($why)))
            }
        }
    };
}

/// `KeyPart` and `DecodePart` for a date-time or instant stored as epoch
/// nanoseconds (`i64`, 8 bytes): `to_nanos` counts a value's nanoseconds
/// (`Err(why)` or beyond an `i64`: an encode error), `from_nanos` rebuilds one
/// (`None` outside the type's range: a decode error saying `why`).
macro_rules! nanos_part {
    ($ty:ty, $kind:expr, to_nanos: $to:expr, from_nanos: $from:expr, $why:literal) => {
        impl $crate::part::KeyPart for $ty {
            const MAX_LEN: usize = 8;
            const FIXED_LEN: Option<usize> = Some(8);
            const VALUE: $crate::layout::ValueKind = $kind;
            fn encoded_len(&self) -> usize {
                8
            }
            fn encode(
                &self,
                w: &mut $crate::writer::KeyWriter<'_>,
            ) -> Result<(), $crate::error::EncodeError> {
                let to_nanos: fn(&$ty) -> Result<i128, &'static str> = $to;
                $crate::codec::epoch::put_nanos(to_nanos(self), w)
            }
        }

        impl $crate::part::DecodePart<'_> for $ty {
            fn decode(
                r: &mut $crate::reader::KeyReader<'_>,
            ) -> Result<Self, $crate::error::DecodeError> {
                let at = r.position();
                let from_nanos: fn(i64) -> Option<$ty> = $from;
                from_nanos(<i64 as $crate::part::DecodePart>::decode(r)?)
                    .ok_or_else(|| r.error_at(at, $crate::error::DecodeErrorKind::Invalid($why)))
            }
        }
    };
}

pub(crate) use {days_part, nanos_part};

/// One instant, one key: chrono, time and jiff write the same bytes for
/// the same day and the same nanosecond.
#[cfg(all(test, feature = "chrono", feature = "time", feature = "jiff"))]
mod same_bytes_across_crates {
    use crate::codec::test_util::{dec, enc};
    use proptest::prelude::*;

    /// A leap second is one instant chrono holds and time and jiff do
    /// not: chrono's is refused, so no key stands for two instants and
    /// every key reads back the same in the three crates.
    #[test]
    fn leap_seconds_have_no_key_in_any_crate() {
        use crate::codec::epoch::LEAP_SECOND;
        use crate::EncodeErrorKind;
        let leap = chrono::NaiveDate::from_ymd_opt(2016, 12, 31)
            .unwrap()
            .and_hms_nano_opt(23, 59, 59, 1_500_000_000)
            .unwrap();
        let refused = EncodeErrorKind::Invalid(LEAP_SECOND);
        assert_eq!(enc(leap).unwrap_err().kind(), refused);
        assert_eq!(enc(leap.and_utc()).unwrap_err().kind(), refused);
        // time has no second 60.
        assert!(time::Time::from_hms_nano(23, 59, 60, 500_000_000).is_err());
        // jiff has none either, and its parser reads 60 as 59.
        assert!(jiff::civil::Time::new(23, 59, 60, 500_000_000).is_err());
        let parsed: jiff::Timestamp = "2016-12-31T23:59:60.5Z".parse().unwrap();
        let before = jiff::Timestamp::from_second(1_483_228_799).unwrap();
        assert_eq!(parsed, before + jiff::SignedDuration::from_millis(500));
    }

    proptest! {
        #[test]
        fn instants(nanos: i64) {
            let chrono_utc = chrono::DateTime::from_timestamp_nanos(nanos);
            let time_utc = time::OffsetDateTime::from_unix_timestamp_nanos(nanos.into()).unwrap();
            let jiff_ts = jiff::Timestamp::from_nanosecond(nanos.into()).unwrap();
            let bytes = enc(chrono_utc).unwrap();
            prop_assert_eq!(&enc(chrono_utc.naive_utc()).unwrap(), &bytes);
            prop_assert_eq!(&enc(time_utc).unwrap(), &bytes);
            let time_plain = time::PrimitiveDateTime::new(time_utc.date(), time_utc.time());
            prop_assert_eq!(&enc(time_plain).unwrap(), &bytes);
            prop_assert_eq!(&enc(jiff_ts).unwrap(), &bytes);
            prop_assert_eq!(&enc(jiff::tz::Offset::UTC.to_datetime(jiff_ts)).unwrap(), &bytes);
            // And each reads the others' keys as the same instant.
            prop_assert_eq!(dec::<time::OffsetDateTime>(&bytes).unwrap(), time_utc);
            prop_assert_eq!(dec::<jiff::Timestamp>(&bytes).unwrap(), jiff_ts);
        }

        /// Every day all three crates hold (jiff's and time's years
        /// -9999..=9999; chrono's range is wider).
        #[test]
        fn days(days in -4_371_587i32..=2_932_896) {
            use chrono::Datelike;
            let chrono_day = chrono::NaiveDate::from_num_days_from_ce_opt(days + 719_163).unwrap();
            let bytes = enc(chrono_day).unwrap();
            let time_day: time::Date = dec(&bytes).unwrap();
            let jiff_day: jiff::civil::Date = dec(&bytes).unwrap();
            prop_assert_eq!(&enc(time_day).unwrap(), &bytes);
            prop_assert_eq!(&enc(jiff_day).unwrap(), &bytes);
            // The same calendar day, not just the same number.
            let ymd = (chrono_day.year(), chrono_day.month() as u8, chrono_day.day() as u8);
            prop_assert_eq!((time_day.year(), time_day.month() as u8, time_day.day()), ymd);
            prop_assert_eq!(
                (i32::from(jiff_day.year()), jiff_day.month() as u8, jiff_day.day() as u8),
                ymd
            );
        }
    }
}
