//! Reading a key by its layout: each field through the codec call the
//! derived `decode` makes, with the parameters the layout records.

use super::neutral::{CivilValue, EpochDays, EpochNanos};
use super::salt::{verify_bucket, BucketCheck};
use super::Value;
use crate::codec::{CivilTime, DescTs};
use crate::layout::{FieldCodec, FieldLayout, KeyPrefix, Layout, ValueKind};
use crate::{DecodeError, DecodeErrorKind, DecodePart, KeyReader};
use core::ops::Range;

/// A key read by its [`Layout`] alone ([`Layout::decode_key`]).
#[derive(Debug, Clone, PartialEq)]
pub struct DecodedKey {
    /// What the key starts with before its fields, and how far it was
    /// checked against them.
    pub prefix: Option<PrefixReport>,
    /// The fields in key order.
    pub fields: Vec<DecodedField>,
}

/// One field of a [`DecodedKey`].
#[derive(Debug, Clone, PartialEq)]
pub struct DecodedField {
    /// Its name.
    pub name: &'static str,
    /// Its value.
    pub value: Value,
    /// Its bytes in the key (after any separator before it).
    pub span: Range<usize>,
}

/// A key's salt bucket or hash prefix, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrefixReport {
    /// The salt bucket.
    Bucket {
        /// The bucket.
        bucket: u32,
        /// Its bytes in the key.
        span: Range<usize>,
        /// How far it was checked against the fields.
        check: BucketCheck,
    },
    /// The hash prefix, verified against its field.
    HashPrefix {
        /// The prefix's bytes.
        stored: Vec<u8>,
    },
}

impl DecodedKey {
    /// The values in field order, as [`Layout::encode_key`] takes them.
    pub fn values(&self) -> Vec<Value> {
        self.fields.iter().map(|f| f.value.clone()).collect()
    }

    /// The value of the field called `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| &f.value)
    }
}

/// What [`Layout::decode_key`] runs.
pub(super) fn decode(layout: &Layout, key: &[u8]) -> Result<DecodedKey, DecodeError> {
    let mut r = KeyReader::new(key, layout.name);
    let mut stored_bucket = None;
    let mut stored_prefix = None;
    match &layout.prefix {
        Some(KeyPrefix::Salt(s)) => stored_bucket = Some(s.take(&mut r)?),
        Some(KeyPrefix::HashPrefix(h)) => stored_prefix = Some(h.take(&mut r)?.to_vec()),
        None => {}
    }
    let prefix_end = r.position();
    let sep = layout.separator.map(|c| c as u8);
    let mut fields = Vec::with_capacity(layout.fields.len());
    for (i, f) in layout.fields.iter().enumerate() {
        r.field(f.name);
        if let (Some(b), true) = (sep, i > 0) {
            r.expect_separator(b)?;
        }
        let start = r.position();
        let last = i + 1 == layout.fields.len();
        let value = take_field(&mut r, f, sep, last)?;
        fields.push(DecodedField {
            name: f.name,
            value,
            span: start..r.position(),
        });
    }
    r.finish()?;
    let mut decoded = DecodedKey {
        prefix: None,
        fields,
    };
    match (&layout.prefix, stored_bucket, stored_prefix) {
        (Some(KeyPrefix::Salt(s)), Some(bucket), _) => {
            let check = verify_bucket(layout, s, key, &decoded, bucket)?;
            decoded.prefix = Some(PrefixReport::Bucket {
                bucket,
                span: 0..prefix_end,
                check,
            });
        }
        (Some(KeyPrefix::HashPrefix(h)), _, Some(stored)) => {
            let span = decoded
                .fields
                .iter()
                .find(|f| f.name == h.field)
                .map_or(0..0, |f| f.span.clone());
            h.verify(layout.name, &stored, &key[span])?;
            decoded.prefix = Some(PrefixReport::HashPrefix { stored });
        }
        _ => {}
    }
    Ok(decoded)
}

fn take_field(
    r: &mut KeyReader<'_>,
    f: &FieldLayout,
    sep: Option<u8>,
    last: bool,
) -> Result<Value, DecodeError> {
    if f.optional {
        return Ok(Value::Option(
            if crate::codec::option::take_tag(r, f.desc)? {
                Some(Box::new(take_value(r, f, sep, last)?))
            } else {
                None
            },
        ));
    }
    take_value(r, f, sep, last)
}

/// Reads the field's layout could not have come from a derive: a codec
/// paired with a value kind it never takes.
pub(super) fn kind_mismatch(r: &KeyReader<'_>) -> DecodeError {
    r.error(DecodeErrorKind::Invalid(
        "the layout pairs this field's codec with a type it does not take",
    ))
}

fn take_value(
    r: &mut KeyReader<'_>,
    f: &FieldLayout,
    sep: Option<u8>,
    last: bool,
) -> Result<Value, DecodeError> {
    let kind = f.value.unwrapped();
    match f.codec {
        FieldCodec::Binary if f.desc => {
            let n = part_width(f).ok_or_else(|| kind_mismatch(r))?;
            crate::codec::desc_part::take_inverted_with(r, n, |r| take_part(r, kind, true, Some(n)))
        }
        FieldCodec::Binary => take_part(r, kind, last, part_width(f)),
        FieldCodec::Text { .. } => {
            let d = f.digits().ok_or_else(|| kind_mismatch(r))?;
            with_int!(kind, kind_mismatch(r), |T| int_value(d.take::<T>(r)?))
        }
        FieldCodec::Bytes { .. } => {
            let c = f.bytes_codec(sep).ok_or_else(|| kind_mismatch(r))?;
            match kind {
                ValueKind::Text => Ok(Value::Text(c.take_owned::<String>(r)?)),
                ValueKind::Bytes => Ok(Value::Bytes(c.take_owned::<Vec<u8>>(r)?)),
                _ => Err(kind_mismatch(r)),
            }
        }
        FieldCodec::DescTimestamp { text } => {
            let d = DescTs { text };
            match kind {
                ValueKind::Int {
                    bytes: 8,
                    signed: true,
                } => Ok(Value::Int(d.take::<i64>(r)?.into())),
                ValueKind::Int {
                    bytes: 8,
                    signed: false,
                } => Ok(Value::UInt(d.take::<u64>(r)?.into())),
                ValueKind::DateTime(_) | ValueKind::Instant(_) => {
                    let at = r.position();
                    let nanos = d.take::<EpochNanos>(r)?.0;
                    time_value(r, at, kind, nanos)
                }
                _ => Err(kind_mismatch(r)),
            }
        }
        FieldCodec::DateText { format } => {
            let c = match kind {
                ValueKind::Date(_) => format.take::<CivilValue<false>>(r)?.0,
                _ => format.take::<CivilValue<true>>(r)?.0,
            };
            civil_value(r, kind, c)
        }
        FieldCodec::UuidText => uuid_text(r),
        FieldCodec::DecimalText { width, scale } => decimal_text(r, width, scale),
    }
}

/// A date, date-time or instant value of `kind`.
fn civil_value(r: &KeyReader<'_>, kind: &ValueKind, c: CivilTime) -> Result<Value, DecodeError> {
    match kind {
        ValueKind::Date(_) => Ok(Value::Date(c)),
        ValueKind::DateTime(_) => Ok(Value::DateTime(c)),
        ValueKind::Instant(_) => Ok(Value::Instant(c)),
        _ => Err(kind_mismatch(r)),
    }
}

fn time_value(
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

#[cfg(feature = "uuid")]
fn uuid_text(r: &mut KeyReader<'_>) -> Result<Value, DecodeError> {
    Ok(Value::Uuid(*crate::codec::UuidText.take(r)?.as_bytes()))
}

#[cfg(not(feature = "uuid"))]
fn uuid_text(r: &mut KeyReader<'_>) -> Result<Value, DecodeError> {
    Err(r.error(DecodeErrorKind::Invalid(
        "a UUID text field needs rowkey-core's `uuid` feature",
    )))
}

#[cfg(feature = "rust_decimal")]
fn decimal_text(r: &mut KeyReader<'_>, width: usize, scale: u32) -> Result<Value, DecodeError> {
    let d = crate::codec::DecimalText { width, scale }.take(r)?;
    Ok(Value::Decimal(d.to_string()))
}

#[cfg(not(feature = "rust_decimal"))]
fn decimal_text(r: &mut KeyReader<'_>, _: usize, _: u32) -> Result<Value, DecodeError> {
    Err(r.error(DecodeErrorKind::Invalid(
        "a decimal field needs rowkey-core's `rust_decimal` feature",
    )))
}

#[cfg(feature = "rust_decimal")]
fn decimal_part(r: &mut KeyReader<'_>) -> Result<Value, DecodeError> {
    Ok(Value::Decimal(
        rust_decimal::Decimal::decode(r)?.to_string(),
    ))
}

#[cfg(not(feature = "rust_decimal"))]
fn decimal_part(r: &mut KeyReader<'_>) -> Result<Value, DecodeError> {
    decimal_text(r, 0, 0)
}

/// Any integer as a [`Value`].
pub(super) trait IntValue {
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

fn int_value<T: IntValue>(v: T) -> Value {
    v.value()
}

/// The bytes a binary field's part always takes, when fixed: its kind's
/// width, or for a hand-written part the width the layout records.
pub(super) fn part_width(f: &FieldLayout) -> Option<usize> {
    f.value
        .part_fixed_len()
        .or(if f.optional { None } else { f.fixed_len })
}

/// A binary key part of `kind` (under any newtype), read by the type's own
/// `DecodePart`; `opaque_len` is a hand-written part's width, if known.
fn take_part(
    r: &mut KeyReader<'_>,
    kind: &ValueKind,
    last: bool,
    opaque_len: Option<usize>,
) -> Result<Value, DecodeError> {
    Ok(match *kind.unwrapped() {
        ValueKind::Int { .. } => with_int!(kind.unwrapped(), kind_mismatch(r), |T| int_value(
            T::decode(r)?
        ))?,
        ValueKind::Float { bytes: 4 } => Value::F32(f32::decode(r)?),
        ValueKind::Float { .. } => Value::F64(f64::decode(r)?),
        ValueKind::Bool => Value::Bool(bool::decode(r)?),
        ValueKind::Char => Value::Char(char::decode(r)?),
        ValueKind::Unit => Value::Unit,
        ValueKind::ByteArray(n) => Value::Bytes(r.take(n)?.to_vec()),
        ValueKind::Uuid => Value::Uuid(<[u8; 16]>::decode(r)?),
        ValueKind::Date(krate) => {
            let at = r.position();
            let days = EpochDays::decode(r)?.0;
            if !krate.date_days().contains(&i64::from(days)) {
                return Err(r.error_at(
                    at,
                    DecodeErrorKind::Invalid("day outside the date type's range"),
                ));
            }
            let c = CivilTime::from_epoch_days(days.into()).ok_or_else(|| kind_mismatch(r))?;
            Value::Date(c)
        }
        ValueKind::DateTime(_) | ValueKind::Instant(_) => {
            let at = r.position();
            let nanos = EpochNanos::decode(r)?.0;
            time_value(r, at, kind.unwrapped(), nanos)?
        }
        ValueKind::Decimal => decimal_part(r)?,
        ValueKind::Enum { variants, .. } => {
            let at = r.position();
            let index = r.take_byte()?;
            let variant = variants.get(usize::from(index)).ok_or_else(|| {
                r.error_at(
                    at,
                    DecodeErrorKind::Invalid("no variant of the enum is stored as this byte"),
                )
            })?;
            Value::Enum { variant, index }
        }
        ValueKind::Option(inner) => Value::Option(if crate::codec::option::take_tag(r, false)? {
            Some(Box::new(take_part(r, inner, last, None)?))
        } else {
            None
        }),
        ValueKind::Opaque => match opaque_len {
            Some(n) => Value::Opaque(r.take(n)?.to_vec()),
            None if last => Value::Opaque(r.take_rest().to_vec()),
            None => {
                return Err(r.error(DecodeErrorKind::Invalid(
                    "a hand-written KeyPart of variable width before other fields: \
                     where it ends is known only to its impl",
                )))
            }
        },
        ValueKind::Text | ValueKind::Bytes | ValueKind::Newtype { .. } => {
            return Err(kind_mismatch(r))
        }
    })
}
