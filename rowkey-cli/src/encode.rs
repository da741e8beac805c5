//! Encoding a key from field values with nothing but its [`Layout`], by
//! the rowkey-core codecs the derived `encode_into` calls.

use crate::kind::{self, IntTy, PartKind};
use crate::salt::{self, Computed};
use crate::value::Value;
use rowkey_core::codec::DescTs;
use rowkey_core::layout::{FieldCodec, FieldLayout, KeyPrefix, Layout};
use rowkey_core::salt::SaltPlan;
use rowkey_core::{EncodeError, EncodeErrorKind, KeyPart, KeyWriter};
use std::fmt;

/// Why a key could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncodeFailure {
    /// A value the layout rejects, where and why.
    Key(EncodeError),
    /// The salt bucket cannot be computed here, or the one given is wrong.
    Bucket(String),
}

impl fmt::Display for EncodeFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeFailure::Key(e) => e.fmt(f),
            EncodeFailure::Bucket(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for EncodeFailure {}

impl From<EncodeError> for EncodeFailure {
    fn from(e: EncodeError) -> Self {
        EncodeFailure::Key(e)
    }
}

/// Encodes one value per field (in field order). `bucket` is the salt
/// bucket for a key whose bucket a user function picks; when the layout
/// can compute the bucket, a given one must agree.
///
/// ```
/// use rowkey::RowKey;
/// use rowkey_cli::value::Value;
/// #[derive(RowKey)]
/// struct Op { uid: u64, #[desc_ts] at: i64 }
/// let key = rowkey_cli::encode::encode(Op::layout(), &[Value::UInt(7), Value::Int(10)], None);
/// assert_eq!(key.unwrap(), Op { uid: 7, at: 10 }.to_vec().unwrap());
/// ```
pub fn encode(
    layout: &Layout,
    values: &[Value],
    bucket: Option<u32>,
) -> Result<Vec<u8>, EncodeFailure> {
    let mut out = vec![0u8; layout.max_len];
    let mut w = KeyWriter::new(&mut out, layout.name);
    match &layout.prefix {
        Some(KeyPrefix::Salt(s)) => s.reserve(&mut w)?,
        Some(KeyPrefix::HashPrefix(h)) => h.reserve(&mut w)?,
        None => {}
    }
    let sep = layout.separator.map(|c| c as u8);
    let mut spans = Vec::with_capacity(layout.fields.len());
    for (i, f) in layout.fields.iter().enumerate() {
        if let (Some(b), true) = (sep, i > 0) {
            w.put_byte(b)?;
        }
        w.field(f.name);
        let start = w.position();
        let v = values
            .get(i)
            .ok_or_else(|| EncodeFailure::Bucket(format!("no value for field `{}`", f.name)))?;
        put_field(&mut w, f, v, sep)?;
        spans.push(start..w.position());
    }
    match &layout.prefix {
        Some(KeyPrefix::Salt(s)) => {
            let key = w.written_since(0).to_vec();
            let parts: Vec<&[u8]> = match s.hash {
                rowkey_core::salt::SaltHash::Phoenix => vec![&key[s.prefix_len()..]],
                _ => s
                    .inputs
                    .iter()
                    .map(|name| {
                        let i = layout.fields.iter().position(|f| f.name == *name);
                        i.map_or(&[][..], |i| &key[spans[i].clone()])
                    })
                    .collect(),
            };
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

fn choose_bucket(
    s: &SaltPlan,
    layout: &Layout,
    values: &[Value],
    parts: &[&[u8]],
    given: Option<u32>,
) -> Result<u32, EncodeFailure> {
    if let Some(b) = given {
        if b >= s.buckets {
            return Err(EncodeFailure::Bucket(format!(
                "bucket {b} is outside the salt's 0..{}",
                s.buckets
            )));
        }
    }
    let computed = salt::compute(s, layout, values, parts).map_err(|e| {
        EncodeFailure::Key(EncodeError::new(
            layout.name,
            e.field,
            0,
            EncodeErrorKind::GroupOutOfRange,
        ))
    })?;
    let wrong = |b: u32, want: String| {
        EncodeFailure::Bucket(format!(
            "bucket {b} is not the one the fields hash to ({want})"
        ))
    };
    match (computed, given) {
        (Computed::Bucket(c), None) => Ok(c),
        (Computed::Bucket(c), Some(b)) if b == c => Ok(c),
        (Computed::Bucket(c), Some(b)) => Err(wrong(b, c.to_string())),
        (
            Computed::Slot {
                slot, per_group, ..
            },
            Some(b),
        ) if b % per_group == slot => Ok(b),
        (
            Computed::Slot {
                slot, per_group, ..
            },
            Some(b),
        ) => Err(wrong(
            b,
            format!("a bucket g * {per_group} + {slot} for its group g"),
        )),
        (Computed::Slot { group_fn, .. }, None) => Err(EncodeFailure::Bucket(format!(
            "the salt's group comes from {group_fn}(..), which the CLI cannot run: \
             give the bucket with --bucket N"
        ))),
        (Computed::Unknown { .. }, Some(b)) => Ok(b),
        (Computed::Unknown { hash_fn }, None) => Err(EncodeFailure::Bucket(format!(
            "the salt bucket comes from {hash_fn}(&key), which the CLI cannot run: \
             give the bucket with --bucket N"
        ))),
    }
}

fn mismatch(w: &KeyWriter<'_>) -> EncodeError {
    w.error(EncodeErrorKind::Invalid(
        "the value does not fit the field's type",
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
        let tag = u8::from(inner.is_some());
        w.put_byte(if f.desc { !tag } else { tag })?;
        return match inner {
            None => Ok(()),
            Some(v) => put_value(w, f, v, sep),
        };
    }
    put_value(w, f, v, sep)
}

fn put_value(
    w: &mut KeyWriter<'_>,
    f: &FieldLayout,
    v: &Value,
    sep: Option<u8>,
) -> Result<(), EncodeError> {
    match f.codec {
        FieldCodec::Binary => {
            let start = w.position();
            put_part(w, &kind::binary_kind(f), v)?;
            if f.desc {
                w.invert_since(start);
            }
            Ok(())
        }
        FieldCodec::Text { .. } => {
            let d = f.digits().ok_or_else(|| mismatch(w))?;
            let ty = kind::int_type(f).ok_or_else(|| mismatch(w))?;
            put_int(w, ty, v, |w, x| d.put(w, x), |w, x| d.put(w, x))
        }
        FieldCodec::Bytes { .. } => {
            let c = f.bytes_codec(sep).ok_or_else(|| mismatch(w))?;
            match v {
                Value::Text(s) => c.put(w, s.as_bytes(), true),
                Value::Bytes(b) => c.put(w, b, false),
                _ => Err(mismatch(w)),
            }
        }
        FieldCodec::DateText { .. } | FieldCodec::UuidText | FieldCodec::DecimalText { .. } => {
            crate::text_form::put(w, f.codec, v)
        }
        FieldCodec::DescTimestamp { text } => {
            let d = DescTs { text };
            match (kind::int_type(f), v) {
                (Some(IntTy::I64), Value::Int(x)) => {
                    d.put(w, i64::try_from(*x).map_err(|_| mismatch(w))?)
                }
                (Some(IntTy::U64), Value::UInt(x)) => {
                    d.put(w, u64::try_from(*x).map_err(|_| mismatch(w))?)
                }
                _ => Err(mismatch(w)),
            }
        }
    }
}

/// Writes an integer value as its concrete type `ty` through `put`
/// (generic over the type, so given twice: once per signedness).
fn put_int(
    w: &mut KeyWriter<'_>,
    ty: IntTy,
    v: &Value,
    signed: impl Fn(&mut KeyWriter<'_>, i128) -> Result<(), EncodeError>,
    unsigned: impl Fn(&mut KeyWriter<'_>, u128) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    match (ty.signed(), v) {
        (true, Value::Int(x)) => signed(w, *x),
        (false, Value::UInt(x)) => unsigned(w, *x),
        _ => Err(mismatch(w)),
    }
}

fn put_part(w: &mut KeyWriter<'_>, kind: &PartKind, v: &Value) -> Result<(), EncodeError> {
    match (kind, v) {
        (PartKind::Int(t), Value::Int(_) | Value::UInt(_)) => {
            macro_rules! ints {
                ($($var:ident => $ty:ty),*) => {
                    match t {
                        $(IntTy::$var => {
                            let x: $ty = match *v {
                                Value::Int(x) => <$ty>::try_from(x).ok(),
                                Value::UInt(x) => <$ty>::try_from(x).ok(),
                                _ => None,
                            }
                            .ok_or_else(|| mismatch(w))?;
                            x.encode(w)
                        })*
                    }
                };
            }
            ints!(U8 => u8, U16 => u16, U32 => u32, U64 => u64, U128 => u128,
                I8 => i8, I16 => i16, I32 => i32, I64 => i64, I128 => i128)
        }
        (PartKind::F32, Value::F32(x)) => x.encode(w),
        (PartKind::F64, Value::F64(x)) => x.encode(w),
        (PartKind::Bool, Value::Bool(x)) => x.encode(w),
        (PartKind::Char, Value::Char(x)) => x.encode(w),
        (PartKind::Array(n), Value::Bytes(b)) if b.len() == *n => w.put(b),
        (PartKind::Unit, Value::Unit) => Ok(()),
        (PartKind::Uuid, Value::Uuid(x)) => x.encode(w),
        (PartKind::Date, Value::Date(x)) => x.encode(w),
        (PartKind::Date9999, Value::Date(x)) if crate::value::within_9999(*x) => x.encode(w),
        (PartKind::Decimal, Value::Decimal(x)) => x.encode(w),
        (PartKind::DateTime, Value::DateTime(x)) => x.encode(w),
        (PartKind::DateTimeUtc, Value::DateTimeUtc(x)) => x.encode(w),
        (PartKind::Option(inner), Value::Option(x)) => {
            w.put_byte(u8::from(x.is_some()))?;
            match x {
                None => Ok(()),
                Some(x) => put_part(w, inner, x),
            }
        }
        (PartKind::Opaque(n), Value::Opaque(b)) if n.is_none_or(|n| n == b.len()) => w.put(b),
        _ => Err(mismatch(w)),
    }
}
