//! Writing a key by its layout: each value through the codec call the
//! derived `encode_into` makes, then the salt bucket or hash prefix.

use super::decode::part_width;
use super::neutral::{CivilValue, EpochDays, EpochNanos};
use super::salt::{choose_bucket, group_of, salted_parts};
use super::{EncodeValuesError, Value};
use crate::codec::{CivilTime, DescTs};
use crate::layout::{FieldCodec, FieldLayout, KeyPrefix, Layout, ValueKind};
use crate::{EncodeError, EncodeErrorKind, KeyPart, KeyWriter};

/// What [`Layout::encode_key`] runs.
pub(super) fn encode(
    layout: &Layout,
    values: &[Value],
    bucket: Option<u32>,
) -> Result<Vec<u8>, EncodeValuesError> {
    if values.len() != layout.fields.len() {
        return Err(EncodeValuesError::Values(format!(
            "{} takes {} values, one per field, not {}",
            layout.name,
            layout.fields.len(),
            values.len()
        )));
    }
    let mut out = vec![0u8; layout.max_len];
    let mut w = KeyWriter::new(&mut out, layout.name);
    match &layout.prefix {
        Some(KeyPrefix::Salt(s)) => s.reserve(&mut w)?,
        Some(KeyPrefix::HashPrefix(h)) => h.reserve(&mut w)?,
        None => {}
    }
    let sep = layout.separator.map(|c| c as u8);
    let mut spans = Vec::with_capacity(layout.fields.len());
    for (i, (f, v)) in layout.fields.iter().zip(values).enumerate() {
        if let (Some(b), true) = (sep, i > 0) {
            w.put_byte(b)?;
        }
        w.field(f.name);
        let start = w.position();
        check_group(&w, layout, f, v)?;
        put_field(&mut w, f, v, sep)?;
        spans.push(start..w.position());
    }
    match &layout.prefix {
        Some(KeyPrefix::Salt(s)) => {
            let key = w.written_since(0).to_vec();
            let parts = salted_parts(s, layout, &key, &spans);
            let b = choose_bucket(s, layout, values, &parts, bucket)?;
            s.write_bucket(&mut w, b);
        }
        Some(KeyPrefix::HashPrefix(h)) => {
            let i = layout.fields.iter().position(|f| f.name == h.field);
            let span = i.map_or(0..0, |i| spans[i].clone());
            h.write(&mut w, span.start, span.end);
        }
        None => {}
    }
    let n = w.finish();
    out.truncate(n);
    Ok(out)
}

/// The salt's group field picks a group, checked where the derived
/// `encode_into` checks it: at the start of the field, before its bytes
/// (so a value out of the groups is the error named, whatever follows).
fn check_group(
    w: &KeyWriter<'_>,
    layout: &Layout,
    f: &FieldLayout,
    v: &Value,
) -> Result<(), EncodeError> {
    match layout.salt().and_then(|s| s.groups) {
        Some(g) if g.field == f.name => group_of(&g, v)
            .map(|_| ())
            .map_err(|_| w.error(EncodeErrorKind::GroupOutOfRange)),
        _ => Ok(()),
    }
}

/// A value that is not of the field's kind.
fn mismatch(w: &KeyWriter<'_>) -> EncodeError {
    w.error(EncodeErrorKind::Invalid(
        "the value is not of the field's type",
    ))
}

fn put_field(
    w: &mut KeyWriter<'_>,
    f: &FieldLayout,
    v: &Value,
    sep: Option<u8>,
) -> Result<(), EncodeError> {
    if f.optional {
        let Value::Option(inner) = v else {
            return Err(mismatch(w));
        };
        crate::codec::option::put_tag(w, inner.is_some(), f.desc)?;
        return match inner {
            None => Ok(()),
            Some(v) => put_value(w, f, v, sep),
        };
    }
    put_value(w, f, v, sep)
}

/// A date, date-time or instant value's calendar fields, if `v` is of
/// `kind`.
fn civil(kind: &ValueKind, v: &Value) -> Option<CivilTime> {
    match (kind, v) {
        (ValueKind::Date(_), Value::Date(c))
        | (ValueKind::DateTime(_), Value::DateTime(c))
        | (ValueKind::Instant(_), Value::Instant(c)) => Some(*c),
        _ => None,
    }
}

fn put_value(
    w: &mut KeyWriter<'_>,
    f: &FieldLayout,
    v: &Value,
    sep: Option<u8>,
) -> Result<(), EncodeError> {
    let kind = f.value.unwrapped();
    match f.codec {
        FieldCodec::Binary => {
            let start = w.position();
            if f.desc && part_width(f).is_none() {
                return Err(mismatch(w));
            }
            put_part(w, kind, v, part_width(f))?;
            if f.desc {
                w.invert_since(start);
            }
            Ok(())
        }
        FieldCodec::Text { .. } => {
            let d = f.digits().ok_or_else(|| mismatch(w))?;
            with_int!(kind, mismatch(w), |T| {
                d.put::<T>(w, int_as::<T>(v).ok_or_else(|| mismatch(w))?)?
            })
        }
        FieldCodec::Bytes { .. } => {
            let c = f.bytes_codec(sep).ok_or_else(|| mismatch(w))?;
            match (kind, v) {
                (ValueKind::Text, Value::Text(s)) => c.put(w, s.as_bytes(), true),
                (ValueKind::Bytes, Value::Bytes(b)) => c.put(w, b, false),
                _ => Err(mismatch(w)),
            }
        }
        FieldCodec::DescTimestamp { text } => {
            let d = DescTs { text };
            match kind {
                ValueKind::Int { signed: true, .. } => {
                    d.put(w, int_as::<i64>(v).ok_or_else(|| mismatch(w))?)
                }
                ValueKind::Int { signed: false, .. } => {
                    d.put(w, int_as::<u64>(v).ok_or_else(|| mismatch(w))?)
                }
                _ => {
                    let c = civil(kind, v).ok_or_else(|| mismatch(w))?;
                    d.put(w, EpochNanos(c.epoch_nanos()))
                }
            }
        }
        FieldCodec::DateText { format } => match (kind, civil(kind, v)) {
            (ValueKind::Date(_), Some(c)) => format.put(w, &CivilValue::<false>(c)),
            (_, Some(c)) => format.put(w, &CivilValue::<true>(c)),
            _ => Err(mismatch(w)),
        },
        FieldCodec::UuidText => match v {
            Value::Uuid(b) => uuid_text(w, b),
            _ => Err(mismatch(w)),
        },
        FieldCodec::DecimalText { width, scale } => match v {
            Value::Decimal(d) => decimal_text(w, d, width, scale),
            _ => Err(mismatch(w)),
        },
    }
}

/// An integer value as `T`, or `None` for another value or one `T` does
/// not hold.
fn int_as<T: TryFrom<i128> + TryFrom<u128>>(v: &Value) -> Option<T> {
    match *v {
        Value::Int(x) => T::try_from(x).ok(),
        Value::UInt(x) => T::try_from(x).ok(),
        _ => None,
    }
}

#[cfg(feature = "uuid")]
fn uuid_text(w: &mut KeyWriter<'_>, b: &[u8; 16]) -> Result<(), EncodeError> {
    crate::codec::UuidText.put(w, &uuid::Uuid::from_bytes(*b))
}

#[cfg(not(feature = "uuid"))]
fn uuid_text(w: &mut KeyWriter<'_>, _: &[u8; 16]) -> Result<(), EncodeError> {
    Err(w.error(EncodeErrorKind::Invalid(
        "a UUID text field needs rowkey-core's `uuid` feature",
    )))
}

#[cfg(feature = "rust_decimal")]
fn parse_decimal(w: &KeyWriter<'_>, d: &str) -> Result<rust_decimal::Decimal, EncodeError> {
    use core::str::FromStr;
    rust_decimal::Decimal::from_str(d).map_err(|_| {
        w.error(EncodeErrorKind::Invalid(
            "not a decimal rust_decimal holds (28 digits at most)",
        ))
    })
}

#[cfg(feature = "rust_decimal")]
fn decimal_text(
    w: &mut KeyWriter<'_>,
    d: &str,
    width: usize,
    scale: u32,
) -> Result<(), EncodeError> {
    let d = parse_decimal(w, d)?;
    crate::codec::DecimalText { width, scale }.put(w, &d)
}

#[cfg(feature = "rust_decimal")]
fn decimal_part(w: &mut KeyWriter<'_>, d: &str) -> Result<(), EncodeError> {
    parse_decimal(w, d)?.encode(w)
}

#[cfg(not(feature = "rust_decimal"))]
fn decimal_text(w: &mut KeyWriter<'_>, _: &str, _: usize, _: u32) -> Result<(), EncodeError> {
    Err(w.error(EncodeErrorKind::Invalid(
        "a decimal field needs rowkey-core's `rust_decimal` feature",
    )))
}

#[cfg(not(feature = "rust_decimal"))]
fn decimal_part(w: &mut KeyWriter<'_>, d: &str) -> Result<(), EncodeError> {
    decimal_text(w, d, 0, 0)
}

/// A binary part of `kind` (under any newtype), written by the type's own
/// `KeyPart`; `opaque_len` is a hand-written part's width, if known.
fn put_part(
    w: &mut KeyWriter<'_>,
    kind: &ValueKind,
    v: &Value,
    opaque_len: Option<usize>,
) -> Result<(), EncodeError> {
    let kind = kind.unwrapped();
    match (kind, v) {
        (ValueKind::Int { .. }, Value::Int(_) | Value::UInt(_)) => {
            with_int!(kind, mismatch(w), |T| {
                int_as::<T>(v).ok_or_else(|| mismatch(w))?.encode(w)?
            })
        }
        (ValueKind::Float { bytes: 4 }, Value::F32(x)) => x.encode(w),
        (ValueKind::Float { bytes: 8 }, Value::F64(x)) => x.encode(w),
        (ValueKind::Bool, Value::Bool(x)) => x.encode(w),
        (ValueKind::Char, Value::Char(x)) => x.encode(w),
        (ValueKind::Unit, Value::Unit) => ().encode(w),
        (ValueKind::ByteArray(n), Value::Bytes(b)) if b.len() == *n => w.put(b),
        (ValueKind::Uuid, Value::Uuid(b)) => b.encode(w),
        (ValueKind::Date(krate), Value::Date(c)) => {
            let days = c.epoch_days();
            let days = i32::try_from(days)
                .ok()
                .filter(|_| krate.date_days().contains(&days))
                .ok_or_else(|| {
                    w.error(EncodeErrorKind::Invalid(
                        "a date outside what the field's date type holds",
                    ))
                })?;
            EpochDays(days).encode(w)
        }
        (ValueKind::DateTime(_) | ValueKind::Instant(_), _) => {
            let c = civil(kind, v).ok_or_else(|| mismatch(w))?;
            EpochNanos(c.epoch_nanos()).encode(w)
        }
        (ValueKind::Decimal, Value::Decimal(d)) => decimal_part(w, d),
        (ValueKind::Enum { variants, .. }, Value::Enum { variant, index })
            if variants.get(usize::from(*index)) == Some(variant) =>
        {
            w.put_byte(*index)
        }
        (ValueKind::Option(inner), Value::Option(x)) => {
            crate::codec::option::put_tag(w, x.is_some(), false)?;
            match x {
                None => Ok(()),
                Some(x) => put_part(w, inner, x, None),
            }
        }
        (ValueKind::Opaque, Value::Opaque(b)) if opaque_len.is_none_or(|n| n == b.len()) => {
            w.put(b)
        }
        _ => Err(mismatch(w)),
    }
}
