//! [`BinaryPart`]: a field written by its type's own [`KeyPart`] (the
//! binary codec, [`FieldCodec::Binary`](super::FieldCodec::Binary)):
//! integers, floats, `bool`, `char`, arrays, enums, dates, UUIDs,
//! decimals, newtypes and hand-written parts, each by its module's impl.
//! Here: what the layout's tools know of such a field, which is what its
//! [`ValueKind`] says.

use crate::layout::dynamic::neutral::{EpochDays, EpochNanos};
use crate::layout::rules::{ByteSet, CodecRules, Ends, Lengths, RangeScan, ScanRefusal, Sorts};
use crate::layout::{FieldLayout, LayoutCodec, ValueKind};
use crate::values::mismatch::{
    civil, int_as, int_value, kind_mismatch, mismatch, time_value, with_int,
};
use crate::values::value::Value;
use crate::{
    DecodeError, DecodeErrorKind, DecodePart, EncodeError, EncodeErrorKind, KeyPart, KeyReader,
    KeyWriter,
};
use core::fmt::{self, Write};

/// The binary codec: the type's [`KeyPart`] bytes, every one inverted
/// under `#[desc]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BinaryPart {
    /// Bytes inverted (`#[desc]`, fixed-width parts only).
    pub desc: bool,
}

impl BinaryPart {
    /// Its format rules: the type says its length and order; its bytes
    /// are any bytes, and a range (not a text prefix) is how to scan
    /// them.
    pub(crate) const fn rules(&self) -> CodecRules {
        CodecRules {
            len: Lengths::OfType,
            sorts: Sorts::AsTheTypeSays,
            prefix_scan: Err(ScanRefusal::BinaryHasNoTextPrefix),
            range_scan: Ok(RangeScan::Values),
            borrows: true,
            writes: ByteSet::ALL,
            ends: Ends::Itself,
        }
    }
}

impl LayoutCodec for BinaryPart {
    fn put_value(
        &self,
        w: &mut KeyWriter<'_>,
        f: &FieldLayout,
        v: &Value,
    ) -> Result<(), EncodeError> {
        let start = w.position();
        if self.desc && part_width(f).is_none() {
            return Err(mismatch(w));
        }
        put_part(w, f.value.unwrapped(), v, part_width(f))?;
        if self.desc {
            w.invert_since(start);
        }
        Ok(())
    }

    fn take_value(
        &self,
        r: &mut KeyReader<'_>,
        f: &FieldLayout,
        last: bool,
    ) -> Result<Value, DecodeError> {
        let kind = f.value.unwrapped();
        if !self.desc {
            return take_part(r, kind, last, part_width(f));
        }
        let n = part_width(f).ok_or_else(|| kind_mismatch(r))?;
        super::desc_part::take_inverted_with(r, n, |r| take_part(r, kind, true, Some(n)))
    }

    fn explain(&self, s: &mut String, ty: &str) -> fmt::Result {
        write!(s, "{ty} as {}", binary_form(ty))
    }
}

/// How a binary part's bytes look, by its type as written: signed integers
/// flip the sign bit, unsigned ones are plain big-endian, anything else
/// (`bool`, `char`, arrays, enums, newtypes, your own parts) is written by
/// its `KeyPart` impl.
fn binary_form(ty: &str) -> &'static str {
    let inner = ty
        .strip_prefix("Option<")
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(ty)
        .trim();
    match inner {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "binary (big-endian, sign bit flipped)",
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "binary (big-endian)",
        "f32" | "f64" => "binary (IEEE 754 bits in total order; -0.0 as 0.0, NaN refused)",
        _ => "its KeyPart bytes",
    }
}

/// The bytes a binary field's part always takes, when fixed: its kind's
/// width, or for a hand-written part the width the layout records.
fn part_width(f: &FieldLayout) -> Option<usize> {
    f.value
        .part_fixed_len()
        .or(if f.optional { None } else { f.fixed_len })
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
        (ValueKind::Decimal, Value::Decimal(d)) => put_decimal(w, d),
        (ValueKind::Enum { variants, .. }, Value::Enum { variant, index })
            if variants.get(usize::from(*index)) == Some(variant) =>
        {
            w.put_byte(*index)
        }
        (ValueKind::Bits { fields, .. }, Value::Bits { values, .. })
            if values.len() == fields.len() =>
        {
            let word = super::bits::pack_all(values, fields).map_err(|(i, value)| {
                w.error(EncodeErrorKind::TooManyBits {
                    field: fields[i].name,
                    value,
                    bits: fields[i].bits,
                })
            })?;
            super::bits::put_word(w, word, crate::values::kind::bits_len(fields))
        }
        (ValueKind::Option(inner), Value::Option(x)) => {
            super::option::put_tag(w, x.is_some(), false)?;
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
            let c = crate::codec::CivilTime::from_epoch_days(days.into())
                .ok_or_else(|| kind_mismatch(r))?;
            Value::Date(c)
        }
        ValueKind::DateTime(_) | ValueKind::Instant(_) => {
            let at = r.position();
            let nanos = EpochNanos::decode(r)?.0;
            time_value(r, at, kind.unwrapped(), nanos)?
        }
        ValueKind::Decimal => take_decimal(r)?,
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
        ValueKind::Bits { fields, .. } => {
            let word = super::bits::take_word(r, crate::values::kind::bits_len(fields))?;
            Value::Bits {
                fields,
                values: super::bits::unpack_all(word, fields).collect(),
            }
        }
        ValueKind::Option(inner) => Value::Option(if super::option::take_tag(r, false)? {
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

#[cfg(feature = "rust_decimal")]
fn put_decimal(w: &mut KeyWriter<'_>, d: &str) -> Result<(), EncodeError> {
    super::decimal_text::parse_decimal(w, d)?.encode(w)
}

#[cfg(not(feature = "rust_decimal"))]
fn put_decimal(w: &mut KeyWriter<'_>, _: &str) -> Result<(), EncodeError> {
    let why = super::decimal_text::NEEDS_RUST_DECIMAL;
    Err(w.error(EncodeErrorKind::Invalid(why)))
}

#[cfg(feature = "rust_decimal")]
fn take_decimal(r: &mut KeyReader<'_>) -> Result<Value, DecodeError> {
    Ok(Value::Decimal(
        rust_decimal::Decimal::decode(r)?.to_string(),
    ))
}

#[cfg(not(feature = "rust_decimal"))]
fn take_decimal(r: &mut KeyReader<'_>) -> Result<Value, DecodeError> {
    let why = super::decimal_text::NEEDS_RUST_DECIMAL;
    Err(r.error(DecodeErrorKind::Invalid(why)))
}
