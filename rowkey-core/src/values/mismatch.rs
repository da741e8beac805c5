//! What the codecs' interpreter methods
//! ([`LayoutCodec`](crate::layout::LayoutCodec)) share: a [`Value`] as
//! the type its field's kind says (an integer as its width, a date or
//! time as its calendar fields), and the errors when a value or a layout
//! does not fit the field.

use super::kind::ValueKind;
use super::value::Value;
use crate::codec::civil::CivilTime;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::reader::KeyReader;
use crate::writer::KeyWriter;

/// Runs `$body` with `$T` the integer type of `$kind`
/// (`ValueKind::Int`), or evaluates to `Err($err)`.
macro_rules! with_int {
    ($kind:expr, $err:expr, |$T:ident| $body:expr) => {{
        use $crate::values::kind::ValueKind as K;
        match *$kind {
            K::Int {
                bytes: 1,
                signed: false,
            } => {
                type $T = u8;
                Ok($body)
            }
            K::Int {
                bytes: 2,
                signed: false,
            } => {
                type $T = u16;
                Ok($body)
            }
            K::Int {
                bytes: 4,
                signed: false,
            } => {
                type $T = u32;
                Ok($body)
            }
            K::Int {
                bytes: 8,
                signed: false,
            } => {
                type $T = u64;
                Ok($body)
            }
            K::Int {
                bytes: 16,
                signed: false,
            } => {
                type $T = u128;
                Ok($body)
            }
            K::Int {
                bytes: 1,
                signed: true,
            } => {
                type $T = i8;
                Ok($body)
            }
            K::Int {
                bytes: 2,
                signed: true,
            } => {
                type $T = i16;
                Ok($body)
            }
            K::Int {
                bytes: 4,
                signed: true,
            } => {
                type $T = i32;
                Ok($body)
            }
            K::Int {
                bytes: 8,
                signed: true,
            } => {
                type $T = i64;
                Ok($body)
            }
            K::Int {
                bytes: 16,
                signed: true,
            } => {
                type $T = i128;
                Ok($body)
            }
            _ => Err($err),
        }
    }};
}
pub(crate) use with_int;

/// A value that is not of the field's kind.
pub(crate) fn mismatch(w: &KeyWriter<'_>) -> EncodeError {
    w.error(EncodeErrorKind::Invalid(
        "the value is not of the field's type",
    ))
}

/// Reads the field's layout could not have come from a derive: a codec
/// paired with a value kind it never takes.
pub(crate) fn kind_mismatch(r: &KeyReader<'_>) -> DecodeError {
    r.error(DecodeErrorKind::Invalid(
        "the layout pairs this field's codec with a type it does not take",
    ))
}

/// An integer value as `T`, or `None` for another value or one `T` does
/// not hold.
pub(crate) fn int_as<T: TryFrom<i128> + TryFrom<u128>>(v: &Value) -> Option<T> {
    match *v {
        Value::Int(x) => T::try_from(x).ok(),
        Value::UInt(x) => T::try_from(x).ok(),
        _ => None,
    }
}

/// Any integer as a [`Value`].
pub(crate) trait IntValue {
    fn value(self) -> Value;
}

macro_rules! int_values {
    ($($t:ty => $v:ident),*) => {$(
        impl IntValue for $t {
            fn value(self) -> Value {
                Value::$v(self.into())
            }
        }
    )*};
}
int_values!(u8 => UInt, u16 => UInt, u32 => UInt, u64 => UInt, u128 => UInt,
    i8 => Int, i16 => Int, i32 => Int, i64 => Int, i128 => Int);

/// An integer read as `T`, as a [`Value`].
pub(crate) fn int_value<T: IntValue>(v: T) -> Value {
    v.value()
}

/// A date, date-time or instant value's calendar fields, if `v` is of
/// `kind`.
pub(crate) fn civil(kind: &ValueKind, v: &Value) -> Option<CivilTime> {
    match (kind, v) {
        (ValueKind::Date(_), Value::Date(c))
        | (ValueKind::DateTime(_), Value::DateTime(c))
        | (ValueKind::Instant(_), Value::Instant(c)) => Some(*c),
        _ => None,
    }
}

/// A date, date-time or instant value of `kind`.
pub(crate) fn civil_value(
    r: &KeyReader<'_>,
    kind: &ValueKind,
    c: CivilTime,
) -> Result<Value, DecodeError> {
    match kind {
        ValueKind::Date(_) => Ok(Value::Date(c)),
        ValueKind::DateTime(_) => Ok(Value::DateTime(c)),
        ValueKind::Instant(_) => Ok(Value::Instant(c)),
        _ => Err(kind_mismatch(r)),
    }
}

/// The date-time or instant of `kind` `nanos` after the epoch, read at
/// `at`.
pub(crate) fn time_value(
    r: &KeyReader<'_>,
    at: usize,
    kind: &ValueKind,
    nanos: i128,
) -> Result<Value, DecodeError> {
    let c = CivilTime::from_epoch_nanos(nanos).ok_or_else(|| {
        r.error_at(
            at,
            DecodeErrorKind::Invalid("time outside the type's range"),
        )
    })?;
    civil_value(r, kind, c)
}
