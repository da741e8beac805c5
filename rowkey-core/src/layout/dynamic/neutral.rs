//! Stand-ins for chrono's, time's and jiff's types, so the interpreter
//! calls the very codecs derived code calls (the epoch-day and
//! epoch-nanosecond parts, `DateFormat`, `DescTs`) without a date crate.

use crate::codec::desc::Timestamp;
use crate::codec::epoch::{days_part, nanos_part};
use crate::codec::{CivilTime, TextDate};
use crate::layout::{TimeCrate, ValueKind};
use crate::EncodeErrorKind;

/// A date as days since 1970-01-01, as the date types store it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EpochDays(pub i32);

/// A date-time or instant as nanoseconds since the epoch (wider than an
/// `i64`, so that the codec, not this type, refuses what it cannot hold).
#[derive(Debug, Clone, Copy)]
pub(crate) struct EpochNanos(pub i128);

// The kind given here is not read: the field's own kind is in the layout.
days_part!(
    EpochDays,
    ValueKind::Date(TimeCrate::Chrono),
    to_days: |d| d.0,
    from_days: |d| Some(EpochDays(d)),
    "day outside the date type's range"
);

nanos_part!(
    EpochNanos,
    ValueKind::Instant(TimeCrate::Chrono),
    to_nanos: |t| Ok(t.0),
    from_nanos: |n| Some(EpochNanos(n.into())),
    "time outside the type's range"
);

impl Timestamp for EpochNanos {
    fn as_i128(self) -> i128 {
        self.0
    }
    fn to_ts(self) -> Option<i64> {
        i64::try_from(self.0).ok().filter(|n| *n >= 0)
    }
    fn from_ts(ts: i64) -> Option<Self> {
        Some(EpochNanos(ts.into()))
    }
    /// As the date types say it: the instant in the user's terms.
    fn out_of_range(self) -> EncodeErrorKind {
        match CivilTime::from_epoch_nanos(self.0) {
            Some(value) => EncodeErrorKind::DescTsOutOfRange { value },
            None => EncodeErrorKind::TimestampOutOfRange,
        }
    }
}

/// A calendar value for `#[text(format)]`: a date (`TIME = false`, which
/// the format reads only at midnight) or a date and time.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CivilValue<const TIME: bool>(pub CivilTime);

impl<const TIME: bool> TextDate for CivilValue<TIME> {
    const HAS_TIME: bool = TIME;
    fn to_civil(&self) -> Result<CivilTime, &'static str> {
        Ok(self.0)
    }
    fn from_civil(c: CivilTime) -> Option<Self> {
        Some(CivilValue(c))
    }
}
