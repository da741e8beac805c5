//! What the date and time codecs (chrono, time, jiff) share, so that one
//! instant writes the same bytes whichever crate holds it: days since
//! 1970-01-01 as an `i32`, nanoseconds since 1970-01-01T00:00:00 UTC as an
//! `i64`, both through the integer codec (sign bit flipped, big-endian).

#[cfg(any(feature = "time", feature = "jiff"))]
use crate::{EncodeError, EncodeErrorKind, KeyPart, KeyWriter};

/// Why a time cannot be stored as nanoseconds in an `i64`.
pub(crate) const NANOS_OUT_OF_RANGE: &str =
    "time outside 1677-09-21..2262-04-11, which nanoseconds in an i64 cannot hold";

/// Writes epoch nanoseconds held in an `i128` (time's and jiff's unit),
/// refusing a time that an `i64` cannot hold rather than truncating it.
#[cfg(any(feature = "time", feature = "jiff"))]
pub(crate) fn put_nanos(nanos: i128, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
    match i64::try_from(nanos) {
        Ok(n) => n.encode(w),
        Err(_) => Err(w.error(EncodeErrorKind::Invalid(NANOS_OUT_OF_RANGE))),
    }
}

/// One instant, one key: chrono, time and jiff write the same bytes for
/// the same day and the same nanosecond.
#[cfg(all(test, feature = "chrono", feature = "time", feature = "jiff"))]
mod same_bytes_across_crates {
    use crate::codec::test_util::{dec, enc};
    use proptest::prelude::*;

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
