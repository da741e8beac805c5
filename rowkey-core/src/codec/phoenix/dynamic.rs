//! A layout's [`Value`] as a Phoenix column's value: what the interpreter
//! (`rowkey decode`, `encode`, layout JSON) writes and reads.
//!
//! - `VARCHAR`, `CHAR`: [`Value::Text`]; `BINARY`, `VARBINARY`:
//!   [`Value::Bytes`];
//! - integers, and `DATE`/`TIME` (milliseconds): [`Value::Int`] or
//!   [`Value::UInt`];
//! - `TIMESTAMP`: [`Value::Int`] of nanoseconds since the epoch;
//! - `FLOAT`, `DOUBLE`: [`Value::F32`], [`Value::F64`]; `BOOLEAN`:
//!   [`Value::Bool`]; `DECIMAL`: [`Value::Decimal`] (its text);
//! - NULL: [`Value::Option`]`(None)`.

use super::decimal::{decimal_bytes, decimal_from, DecimalDigits};
use super::{PhoenixTimestamp, PhoenixType, PhoenixValue};
use crate::error::{DecodeErrorKind, EncodeErrorKind};
use crate::layout::dynamic::Value;
use crate::layout::ValueKind;

const MISMATCH: &str = "the value is not of the kind the Phoenix column holds";

/// The Rust value a `Value` stands for, as `ty` holds it.
enum Held {
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F32(f32),
    F64(f64),
    Bool(bool),
    Ts(PhoenixTimestamp),
    Dec(DecimalDigits),
}

/// `v`'s integer, in `T` if `T` holds it.
fn fit<T: TryFrom<i128>>(v: &Value) -> Result<T, EncodeErrorKind> {
    let i = match *v {
        Value::Int(i) => i,
        Value::UInt(u) => i128::try_from(u).map_err(|_| EncodeErrorKind::Invalid(MISMATCH))?,
        _ => return Err(EncodeErrorKind::Invalid(MISMATCH)),
    };
    T::try_from(i)
        .map_err(|_| EncodeErrorKind::Invalid("the value is outside the Phoenix type's range"))
}

fn held(v: &Value, ty: &PhoenixType) -> Result<Held, EncodeErrorKind> {
    Ok(match ty {
        PhoenixType::TinyInt => Held::I8(fit(v)?),
        PhoenixType::SmallInt => Held::I16(fit(v)?),
        PhoenixType::Integer => Held::I32(fit(v)?),
        PhoenixType::BigInt | PhoenixType::Date | PhoenixType::Time => Held::I64(fit(v)?),
        PhoenixType::UnsignedTinyInt => Held::U8(fit(v)?),
        PhoenixType::UnsignedSmallInt => Held::U16(fit(v)?),
        PhoenixType::UnsignedInt => Held::U32(fit(v)?),
        PhoenixType::UnsignedLong | PhoenixType::UnsignedDate | PhoenixType::UnsignedTime => {
            Held::U64(fit(v)?)
        }
        PhoenixType::Timestamp | PhoenixType::UnsignedTimestamp => {
            let nanos: i128 = fit(v)?;
            let millis = i64::try_from(nanos.div_euclid(1_000_000))
                .map_err(|_| EncodeErrorKind::Invalid("a TIMESTAMP out of range"))?;
            let sub = nanos.rem_euclid(1_000_000) as u32;
            Held::Ts(PhoenixTimestamp::new(millis, sub).ok_or(EncodeErrorKind::Invalid(MISMATCH))?)
        }
        PhoenixType::Float | PhoenixType::UnsignedFloat => match *v {
            Value::F32(f) => Held::F32(f),
            _ => return Err(EncodeErrorKind::Invalid(MISMATCH)),
        },
        PhoenixType::Double | PhoenixType::UnsignedDouble => match *v {
            Value::F64(f) => Held::F64(f),
            _ => return Err(EncodeErrorKind::Invalid(MISMATCH)),
        },
        PhoenixType::Boolean => match *v {
            Value::Bool(b) => Held::Bool(b),
            _ => return Err(EncodeErrorKind::Invalid(MISMATCH)),
        },
        PhoenixType::Decimal { .. } => match v {
            Value::Decimal(text) => Held::Dec(DecimalDigits::parse(text).ok_or(
                EncodeErrorKind::Invalid("not a decimal of at most 38 digits"),
            )?),
            _ => return Err(EncodeErrorKind::Invalid(MISMATCH)),
        },
        PhoenixType::Varchar { .. }
        | PhoenixType::Char { .. }
        | PhoenixType::Binary { .. }
        | PhoenixType::Varbinary => return Err(EncodeErrorKind::Invalid(MISMATCH)),
    })
}

macro_rules! each_held {
    ($h:expr, |$v:ident| $body:expr) => {
        match $h {
            Held::I8($v) => $body,
            Held::I16($v) => $body,
            Held::I32($v) => $body,
            Held::I64($v) => $body,
            Held::U8($v) => $body,
            Held::U16($v) => $body,
            Held::U32($v) => $body,
            Held::U64($v) => $body,
            Held::F32($v) => $body,
            Held::F64($v) => $body,
            Held::Bool($v) => $body,
            Held::Ts($v) => $body,
            Held::Dec(_) => unreachable!("decimals are written on their own"),
        }
    };
}

/// `Value` in every Phoenix type, by the kinds above.
impl PhoenixValue for Value {
    const HOLDS: u32 = u32::MAX;

    fn is_null(&self) -> bool {
        matches!(self, Value::Option(None))
    }

    fn phoenix_len(&self, ty: &PhoenixType) -> usize {
        let mut n = 0;
        self.put_phoenix(ty, &mut |b| n += b.len());
        n
    }

    fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
        match (self, ty) {
            (Value::Option(None), _) => Ok(()),
            (Value::Option(Some(v)), _) => v.check(ty),
            (Value::Text(s), PhoenixType::Varchar { .. } | PhoenixType::Char { .. }) => s.check(ty),
            (Value::Bytes(b), PhoenixType::Binary { .. } | PhoenixType::Varbinary) => b.check(ty),
            (_, PhoenixType::Decimal { .. }) => {
                let Held::Dec(d) = held(self, ty)? else {
                    return Err(EncodeErrorKind::Invalid(MISMATCH));
                };
                if let Some(why) = super::decimal::misfit(&d, ty) {
                    return Err(EncodeErrorKind::Invalid(why));
                }
                decimal_bytes(&d)
                    .map(|_| ())
                    .map_err(EncodeErrorKind::Invalid)
            }
            _ => each_held!(held(self, ty)?, |v| v.check(ty)),
        }
    }

    fn put_phoenix(&self, ty: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
        match self {
            Value::Option(None) => {}
            Value::Option(Some(v)) => v.put_phoenix(ty, out),
            Value::Text(s) => s.put_phoenix(ty, out),
            Value::Bytes(b) => b.put_phoenix(ty, out),
            _ => match held(self, ty) {
                Ok(Held::Dec(d)) => {
                    if let Ok(b) = decimal_bytes(&d) {
                        out(b.as_slice());
                    }
                }
                Ok(h) => each_held!(h, |v| v.put_phoenix(ty, out)),
                Err(_) => {}
            },
        }
    }

    fn from_phoenix(bytes: Option<&[u8]>, ty: &PhoenixType) -> Result<Self, DecodeErrorKind> {
        let Some(raw) = bytes else {
            return Ok(Value::Option(None));
        };
        let b = Some(raw);
        Ok(match ty {
            PhoenixType::Varchar { .. } | PhoenixType::Char { .. } => {
                Value::Text(String::from_phoenix(b, ty)?)
            }
            PhoenixType::Binary { .. } | PhoenixType::Varbinary => {
                Value::Bytes(Vec::<u8>::from_phoenix(b, ty)?)
            }
            PhoenixType::TinyInt => Value::Int(i8::from_phoenix(b, ty)?.into()),
            PhoenixType::SmallInt => Value::Int(i16::from_phoenix(b, ty)?.into()),
            PhoenixType::Integer => Value::Int(i32::from_phoenix(b, ty)?.into()),
            PhoenixType::BigInt | PhoenixType::Date | PhoenixType::Time => {
                Value::Int(i64::from_phoenix(b, ty)?.into())
            }
            PhoenixType::UnsignedTinyInt => Value::UInt(u8::from_phoenix(b, ty)?.into()),
            PhoenixType::UnsignedSmallInt => Value::UInt(u16::from_phoenix(b, ty)?.into()),
            PhoenixType::UnsignedInt => Value::UInt(u32::from_phoenix(b, ty)?.into()),
            PhoenixType::UnsignedLong | PhoenixType::UnsignedDate | PhoenixType::UnsignedTime => {
                Value::UInt(u64::from_phoenix(b, ty)?.into())
            }
            PhoenixType::Float | PhoenixType::UnsignedFloat => {
                Value::F32(f32::from_phoenix(b, ty)?)
            }
            PhoenixType::Double | PhoenixType::UnsignedDouble => {
                Value::F64(f64::from_phoenix(b, ty)?)
            }
            PhoenixType::Boolean => Value::Bool(bool::from_phoenix(b, ty)?),
            PhoenixType::Timestamp | PhoenixType::UnsignedTimestamp => {
                Value::Int(PhoenixTimestamp::from_phoenix(b, ty)?.nanos())
            }
            PhoenixType::Decimal { .. } => {
                let d = decimal_from(raw)?;
                if let Some(why) = super::decimal::misfit(&d, ty) {
                    return Err(DecodeErrorKind::Invalid(why));
                }
                Value::Decimal(d.to_string())
            }
        })
    }
}

impl PhoenixType {
    /// What a layout says the column's values are (see this module).
    pub const fn value_kind(&self) -> ValueKind {
        match self {
            PhoenixType::Varchar { .. } | PhoenixType::Char { .. } => ValueKind::Text,
            PhoenixType::Binary { .. } | PhoenixType::Varbinary => ValueKind::Bytes,
            PhoenixType::TinyInt => ValueKind::Int {
                bytes: 1,
                signed: true,
            },
            PhoenixType::SmallInt => ValueKind::Int {
                bytes: 2,
                signed: true,
            },
            PhoenixType::Integer => ValueKind::Int {
                bytes: 4,
                signed: true,
            },
            PhoenixType::BigInt | PhoenixType::Date | PhoenixType::Time => ValueKind::Int {
                bytes: 8,
                signed: true,
            },
            PhoenixType::UnsignedTinyInt => ValueKind::Int {
                bytes: 1,
                signed: false,
            },
            PhoenixType::UnsignedSmallInt => ValueKind::Int {
                bytes: 2,
                signed: false,
            },
            PhoenixType::UnsignedInt => ValueKind::Int {
                bytes: 4,
                signed: false,
            },
            PhoenixType::UnsignedLong | PhoenixType::UnsignedDate | PhoenixType::UnsignedTime => {
                ValueKind::Int {
                    bytes: 8,
                    signed: false,
                }
            }
            PhoenixType::Timestamp | PhoenixType::UnsignedTimestamp => ValueKind::Int {
                bytes: 16,
                signed: true,
            },
            PhoenixType::Float | PhoenixType::UnsignedFloat => ValueKind::Float { bytes: 4 },
            PhoenixType::Double | PhoenixType::UnsignedDouble => ValueKind::Float { bytes: 8 },
            PhoenixType::Decimal { .. } => ValueKind::Decimal,
            PhoenixType::Boolean => ValueKind::Bool,
        }
    }
}
