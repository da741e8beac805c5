//! Stand-ins for chrono's, time's and jiff's types, so the interpreter
//! calls the very codecs derived code calls (the epoch-day and
//! epoch-nanosecond parts, `DateFormat`, `DescTs`) without a date crate.

use crate::codec::civil::CivilTime;
use crate::codec::epoch::{days_part, nanos_part};
use crate::values::kind::{TimeCrate, ValueKind};

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

/// A calendar value for `#[text(format)]`: a date (`TIME = false`, which
/// the format reads only at midnight) or a date and time.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CivilValue<const TIME: bool>(pub CivilTime);
