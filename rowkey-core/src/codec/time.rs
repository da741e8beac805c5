//! time dates and times (feature `time`), binary, in the units chrono's
//! and jiff's parts use, so one instant writes the same bytes whichever
//! crate holds it:
//!
//! | type | stored as |
//! | --- | --- |
//! | `Date` | days since 1970-01-01, `i32`, 4 bytes |
//! | `PrimitiveDateTime` | nanoseconds since 1970-01-01T00:00:00, `i64`, 8 bytes |
//! | `OffsetDateTime` | its UTC instant: nanoseconds since the Unix epoch, `i64`, 8 bytes |
//!
//! Signed integers with the sign bit flipped: earlier sorts first. An
//! `OffsetDateTime`'s offset is not stored: it decodes in UTC (the same
//! instant, which `==` and `Ord` on `OffsetDateTime` compare). A time
//! outside 1677-09-21..2262-04-11 is an encode error, never a truncated
//! key; stored days outside time's `Date` range are a decode error.
//!
//! ```
//! use rowkey::RowKey;
//! use time::macros::datetime;
//! use time::OffsetDateTime;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Event { at: OffsetDateTime, id: u32 }
//!
//! let at = datetime!(2021-12-01 20:00 +08:00);
//! let key = Event { at, id: 7 }.to_key()?;
//! let nanos = 1_638_360_000_000_000_000i64; // 2021-12-01 12:00 UTC
//! assert_eq!(&key[..8], &(nanos as u64 ^ 1 << 63).to_be_bytes());
//! let back = Event::decode(&key)?;
//! assert_eq!(back.at, at); // the same instant...
//! assert!(back.at.offset().is_utc()); // ...in UTC
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::codec::epoch::{days_part, nanos_part};
use time::{Date, OffsetDateTime, PrimitiveDateTime};

/// The Julian day number of 1970-01-01.
const EPOCH_JULIAN_DAY: i32 = 2_440_588;

// time's dates (±9999 years, ±999,999 with `large-dates`) are a few
// million days from the epoch: no overflow.
days_part!(
    Date,
    crate::layout::ValueKind::Date(crate::layout::TimeCrate::Time),
    to_days: |d| d.to_julian_day() - EPOCH_JULIAN_DAY,
    from_days: |days| {
        days.checked_add(EPOCH_JULIAN_DAY)
            .and_then(|jd| Date::from_julian_day(jd).ok())
    },
    "day outside time's Date range"
);

// Every i64 of nanoseconds is inside time's range; the error is for a
// future time crate that narrows it.
nanos_part!(
    OffsetDateTime,
    crate::layout::ValueKind::Instant(crate::layout::TimeCrate::Time),
    to_nanos: |t| Ok(t.unix_timestamp_nanos()),
    from_nanos: |n| OffsetDateTime::from_unix_timestamp_nanos(n.into()).ok(),
    "instant outside time's OffsetDateTime range"
);

nanos_part!(
    PrimitiveDateTime,
    crate::layout::ValueKind::DateTime(crate::layout::TimeCrate::Time),
    to_nanos: |t| Ok(t.assume_utc().unix_timestamp_nanos()),
    from_nanos: |n| {
        let utc = OffsetDateTime::from_unix_timestamp_nanos(n.into()).ok()?;
        Some(PrimitiveDateTime::new(utc.date(), utc.time()))
    },
    "instant outside time's OffsetDateTime range"
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::epoch::NANOS_OUT_OF_RANGE;
    use crate::codec::test_util::{check_ordered_part, dec, enc};
    use crate::DecodeErrorKind;
    use crate::EncodeErrorKind;
    use proptest::prelude::*;
    use time::macros::{date, datetime};

    #[test]
    fn golden_and_limits() {
        assert_eq!(enc(date!(1970 - 01 - 01)).unwrap(), [0x80, 0, 0, 0]);
        assert_eq!(
            enc(date!(1969 - 12 - 31)).unwrap(),
            [0x7F, 0xFF, 0xFF, 0xFF]
        );
        let t = OffsetDateTime::from_unix_timestamp_nanos(1).unwrap();
        assert_eq!(enc(t).unwrap(), [0x80, 0, 0, 0, 0, 0, 0, 1]);
        // The same instant at another offset: the same bytes.
        assert_eq!(
            enc(datetime!(2021-12-01 20:00 +08:00)).unwrap(),
            enc(datetime!(2021-12-01 12:00 UTC)).unwrap()
        );
        assert_eq!(
            enc(datetime!(2021-12-01 12:00)).unwrap(),
            enc(datetime!(2021-12-01 12:00 UTC)).unwrap()
        );
        for far in [datetime!(3000-01-01 0:00), datetime!(1000-01-01 0:00)] {
            let e = enc(far).unwrap_err();
            assert_eq!(e.kind(), EncodeErrorKind::Invalid(NANOS_OUT_OF_RANGE));
            assert!(enc(far.assume_utc()).is_err());
        }
        // The last nanosecond an i64 holds, and the one after it.
        let last = OffsetDateTime::from_unix_timestamp_nanos(i64::MAX.into()).unwrap();
        assert_eq!(enc(last).unwrap(), [0xFF; 8]);
        assert!(enc(last + time::Duration::nanoseconds(1)).is_err());
        let e = dec::<Date>(&enc(i32::MAX).unwrap()).unwrap_err();
        assert_eq!(
            e.kind(),
            DecodeErrorKind::Invalid("day outside time's Date range")
        );
    }

    fn date_from(days: i32) -> Date {
        Date::from_julian_day(days + EPOCH_JULIAN_DAY).unwrap()
    }

    proptest! {
        /// Dates over time's whole range: roundtrip, order, injectivity;
        /// any bytes decode to a date that writes them back, or are an
        /// error.
        #[test]
        fn dates(
            a in -4_371_587i32..=2_932_896,
            b in -4_371_587i32..=2_932_896,
            junk in proptest::collection::vec(any::<u8>(), 0..6),
        ) {
            check_ordered_part(date_from(a), date_from(b), &junk)?;
        }

        /// Instants to the nanosecond, at any offset: roundtrip (in UTC),
        /// order, injectivity, the primitive datetime's bytes equal to
        /// the UTC instant's, canonical decode of any bytes.
        #[test]
        fn instants(
            a: i64,
            b: i64,
            offset_s in -86_399i32..86_400,
            junk in proptest::collection::vec(any::<u8>(), 0..10),
        ) {
            let at = |n: i64| OffsetDateTime::from_unix_timestamp_nanos(n.into()).unwrap();
            let (a, b) = (at(a), at(b));
            let (ea, eb) = (enc(a).unwrap(), enc(b).unwrap());
            let back = dec::<OffsetDateTime>(&ea).unwrap();
            prop_assert_eq!(back, a);
            prop_assert!(back.offset().is_utc());
            prop_assert_eq!(a.cmp(&b), ea.cmp(&eb));
            let plain = PrimitiveDateTime::new(a.date(), a.time());
            prop_assert_eq!(enc(plain).unwrap(), ea.clone());
            prop_assert_eq!(dec::<PrimitiveDateTime>(&ea).unwrap(), plain);
            if let Ok(offset) = time::UtcOffset::from_whole_seconds(offset_s) {
                if let Some(shifted) = a.checked_to_offset(offset) {
                    prop_assert_eq!(enc(shifted).unwrap(), ea);
                }
            }
            if let Ok(v) = dec::<OffsetDateTime>(&junk) {
                prop_assert_eq!(enc(v).unwrap(), junk.clone());
            }
            if let Ok(v) = dec::<PrimitiveDateTime>(&junk) {
                prop_assert_eq!(enc(v).unwrap(), junk);
            }
        }
    }
}
