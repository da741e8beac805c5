//! jiff dates and times (feature `jiff`), binary, in the units chrono's
//! and time's parts use, so one instant writes the same bytes whichever
//! crate holds it:
//!
//! | type | stored as |
//! | --- | --- |
//! | `civil::Date` | days since 1970-01-01, `i32`, 4 bytes |
//! | `civil::DateTime` | nanoseconds since 1970-01-01T00:00:00, `i64`, 8 bytes |
//! | `Timestamp` | nanoseconds since the Unix epoch, `i64`, 8 bytes |
//!
//! Signed integers with the sign bit flipped: earlier sorts first. A time
//! outside 1677-09-21..2262-04-11 is an encode error, never a truncated
//! key; stored days outside jiff's `Date` range (years -9999..=9999) are
//! a decode error. A `Zoned` is not a key part: store its `timestamp()`.
//!
//! ```
//! use jiff::civil::date;
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Visit { day: jiff::civil::Date, user: u32 }
//!
//! let day = date(2021, 12, 1);
//! let key = Visit { day, user: 7 }.to_key()?;
//! assert_eq!(&key[..4], &(18962i32 as u32 ^ 1 << 31).to_be_bytes()); // 18962 days after 1970-01-01
//! assert_eq!(Visit::decode(&key)?, Visit { day, user: 7 });
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::codec::epoch::{days_part, nanos_part};
use jiff::civil::{Date, DateTime};
use jiff::{SignedDuration, Timestamp};

const EPOCH_DATE: Date = jiff::civil::date(1970, 1, 1);
const EPOCH_DATETIME: DateTime = jiff::civil::datetime(1970, 1, 1, 0, 0, 0, 0);

// Civil days are 24 hours; jiff's dates are within ±4.4 million days of
// the epoch, well inside an i32.
days_part!(
    Date,
    crate::layout::ValueKind::Date(crate::layout::TimeCrate::Jiff),
    to_days: |d| (d.duration_since(EPOCH_DATE).as_hours() / 24) as i32,
    from_days: |days| {
        EPOCH_DATE
            .checked_add(SignedDuration::from_hours(i64::from(days) * 24))
            .ok()
    },
    "day outside jiff's Date range"
);

// Every i64 of nanoseconds is inside jiff's range; the error is for a
// future jiff that narrows it.
nanos_part!(
    Timestamp,
    crate::layout::ValueKind::Instant(crate::layout::TimeCrate::Jiff),
    to_nanos: |t| Ok(t.as_nanosecond()),
    from_nanos: |n| Timestamp::from_nanosecond(n.into()).ok(),
    "instant outside jiff's Timestamp range"
);

nanos_part!(
    DateTime,
    crate::layout::ValueKind::DateTime(crate::layout::TimeCrate::Jiff),
    to_nanos: |t| Ok(t.duration_since(EPOCH_DATETIME).as_nanos()),
    from_nanos: |n| EPOCH_DATETIME.checked_add(SignedDuration::from_nanos(n)).ok(),
    "time outside jiff's DateTime range"
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::epoch::NANOS_OUT_OF_RANGE;
    use crate::codec::test_util::{check_ordered_part, dec, enc};
    use crate::DecodeErrorKind;
    use crate::EncodeErrorKind;
    use jiff::civil::{date, datetime};
    use proptest::prelude::*;

    #[test]
    fn golden_and_limits() {
        assert_eq!(enc(EPOCH_DATE).unwrap(), [0x80, 0, 0, 0]);
        assert_eq!(enc(date(1969, 12, 31)).unwrap(), [0x7F, 0xFF, 0xFF, 0xFF]);
        assert_eq!(enc(Date::MIN).unwrap(), enc(-4_371_587i32).unwrap());
        assert_eq!(enc(Date::MAX).unwrap(), enc(2_932_896i32).unwrap());
        let t = Timestamp::from_nanosecond(1).unwrap();
        assert_eq!(enc(t).unwrap(), [0x80, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(
            enc(datetime(2021, 12, 1, 12, 0, 0, 0)).unwrap(),
            enc("2021-12-01T12:00:00Z".parse::<Timestamp>().unwrap()).unwrap()
        );
        for far in [
            datetime(3000, 1, 1, 0, 0, 0, 0),
            datetime(1000, 1, 1, 0, 0, 0, 0),
        ] {
            let e = enc(far).unwrap_err();
            assert_eq!(e.kind(), EncodeErrorKind::Invalid(NANOS_OUT_OF_RANGE));
        }
        assert!(enc(Timestamp::MAX).is_err() && enc(Timestamp::MIN).is_err());
        // The last nanosecond an i64 holds, and the one after it.
        let last = Timestamp::from_nanosecond(i64::MAX.into()).unwrap();
        assert_eq!(enc(last).unwrap(), [0xFF; 8]);
        let e = enc(last + SignedDuration::from_nanos(1)).unwrap_err();
        assert_eq!(e.kind(), EncodeErrorKind::Invalid(NANOS_OUT_OF_RANGE));
        let e = dec::<Date>(&enc(i32::MAX).unwrap()).unwrap_err();
        assert_eq!(
            e.kind(),
            DecodeErrorKind::Invalid("day outside jiff's Date range")
        );
    }

    fn date_from(days: i32) -> Date {
        EPOCH_DATE
            .checked_add(SignedDuration::from_hours(i64::from(days) * 24))
            .unwrap()
    }

    proptest! {
        /// Dates over jiff's whole range: roundtrip, order, injectivity;
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

        /// Instants to the nanosecond: roundtrip, order, injectivity, the
        /// civil datetime's bytes equal to the UTC instant's, canonical
        /// decode of any bytes.
        #[test]
        fn instants(a: i64, b: i64, junk in proptest::collection::vec(any::<u8>(), 0..10)) {
            let at = |n: i64| Timestamp::from_nanosecond(n.into()).unwrap();
            let (a, b) = (at(a), at(b));
            let (ea, eb) = (enc(a).unwrap(), enc(b).unwrap());
            prop_assert_eq!(dec::<Timestamp>(&ea).unwrap(), a);
            prop_assert_eq!(a.cmp(&b), ea.cmp(&eb));
            let civil = jiff::tz::Offset::UTC.to_datetime(a);
            prop_assert_eq!(enc(civil).unwrap(), ea.clone());
            prop_assert_eq!(dec::<DateTime>(&ea).unwrap(), civil);
            if let Ok(v) = dec::<Timestamp>(&junk) {
                prop_assert_eq!(enc(v).unwrap(), junk.clone());
            }
            if let Ok(v) = dec::<DateTime>(&junk) {
                prop_assert_eq!(enc(v).unwrap(), junk);
            }
        }
    }
}
