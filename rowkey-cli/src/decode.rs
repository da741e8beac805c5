//! Decoding a key with nothing but its [`Layout`]: each field is read by
//! the same rowkey-core codec the derived `decode` calls, with the
//! parameters the layout records, so both accept the same keys and give
//! the same values and errors.

use crate::kind::{self, IntTy, PartKind};
use crate::salt::{self, BucketCheck};
use crate::value::Value;
use rowkey_core::codec::DescTs;
use rowkey_core::layout::{FieldCodec, FieldLayout, KeyPrefix, Layout};
use rowkey_core::{DecodeError, DecodeErrorKind, DecodePart, KeyReader};
use std::ops::Range;

/// A key read with its layout.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodedKey {
    /// What the key starts with before its fields, and whether it agrees
    /// with them.
    pub prefix: Option<PrefixReport>,
    /// The fields in key order.
    pub fields: Vec<DecodedField>,
}

/// One decoded field.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodedField {
    /// Its name.
    pub name: &'static str,
    /// Its value.
    pub value: Value,
    /// Its bytes in the key (after any separator before it).
    pub span: Range<usize>,
}

/// A key's salt bucket or hash prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrefixReport {
    /// The stored salt bucket.
    Bucket {
        /// The bucket.
        bucket: u32,
        /// How far it was checked against the fields.
        check: BucketCheck,
    },
    /// The stored hash prefix, checked against its field.
    HashPrefix {
        /// The prefix's bytes.
        stored: Vec<u8>,
    },
}

impl DecodedKey {
    /// The value of the field called `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| &f.value)
    }

    /// The values in field order.
    pub fn values(&self) -> Vec<Value> {
        self.fields.iter().map(|f| f.value.clone()).collect()
    }

    /// `Name { a: 1, b: "x" }`: what `{:?}` of the derived struct prints
    /// (for fields whose types the layout describes).
    pub fn rust_debug(&self, layout: &Layout) -> String {
        let fields: Vec<String> = self
            .fields
            .iter()
            .map(|f| format!("{}: {}", f.name, f.value.rust_debug()))
            .collect();
        format!("{} {{ {} }}", layout.name, fields.join(", "))
    }
}

/// Decodes `key` with `layout`: every field, then the salt bucket or hash
/// prefix checked as the derived `decode` checks it (a bucket chosen by a
/// user function cannot be recomputed: [`BucketCheck`] says so).
///
/// ```
/// use rowkey::RowKey;
/// #[derive(RowKey)]
/// struct Op { uid: u64, #[desc_ts] at: i64 }
/// let key = Op { uid: 7, at: 10 }.to_vec().unwrap();
/// let decoded = rowkey_cli::decode::decode(Op::layout(), &key).unwrap();
/// assert_eq!(decoded.rust_debug(Op::layout()), "Op { uid: 7, at: 10 }");
/// let e = rowkey_cli::decode::decode(Op::layout(), &key[..12]).unwrap_err();
/// assert_eq!(e.field(), "at");
/// ```
pub fn decode(layout: &Layout, key: &[u8]) -> Result<DecodedKey, DecodeError> {
    let mut r = KeyReader::new(key, layout.name);
    let mut stored_bucket = None;
    let mut stored_prefix = None;
    match &layout.prefix {
        Some(KeyPrefix::Salt(s)) => stored_bucket = Some(s.take(&mut r)?),
        Some(KeyPrefix::HashPrefix(h)) => stored_prefix = Some(h.take(&mut r)?.to_vec()),
        None => {}
    }
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
            let check = salt::verify_bucket(layout, s, key, &decoded, bucket)?;
            decoded.prefix = Some(PrefixReport::Bucket { bucket, check });
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
        let at = r.position();
        let byte = r.take_byte()?;
        return match if f.desc { !byte } else { byte } {
            0 => Ok(Value::Option(None)),
            1 => Ok(Value::Option(Some(Box::new(take_value(r, f, sep, last)?)))),
            _ => Err(r.error_at(at, DecodeErrorKind::InvalidTag { byte })),
        };
    }
    take_value(r, f, sep, last)
}

fn not_integer(r: &KeyReader<'_>) -> DecodeError {
    r.error(DecodeErrorKind::Invalid(
        "the layout gives this integer field a type that is not an integer",
    ))
}

fn take_value(
    r: &mut KeyReader<'_>,
    f: &FieldLayout,
    sep: Option<u8>,
    last: bool,
) -> Result<Value, DecodeError> {
    match f.codec {
        FieldCodec::Binary => {
            let kind = kind::binary_kind(f);
            if f.desc {
                take_inverted(r, &kind)
            } else {
                take_part(r, &kind, last)
            }
        }
        FieldCodec::Text { .. } => {
            let d = f.digits().ok_or_else(|| not_integer(r))?;
            let ty = kind::int_type(f).ok_or_else(|| not_integer(r))?;
            macro_rules! digits {
                ($($v:ident => $t:ty),*) => {
                    match ty { $(IntTy::$v => int_value(d.take::<$t>(r)?),)* }
                };
            }
            Ok(
                digits!(U8 => u8, U16 => u16, U32 => u32, U64 => u64, U128 => u128,
                I8 => i8, I16 => i16, I32 => i32, I64 => i64, I128 => i128),
            )
        }
        FieldCodec::Bytes { .. } => {
            let c = f.bytes_codec(sep).ok_or_else(|| {
                r.error(DecodeErrorKind::Invalid(
                    "the layout's bytes field has no bytes codec",
                ))
            })?;
            Ok(if kind::is_text(f) {
                Value::Text(c.take_owned::<String>(r)?)
            } else {
                Value::Bytes(c.take_owned::<Vec<u8>>(r)?)
            })
        }
        FieldCodec::DateText { .. } | FieldCodec::UuidText | FieldCodec::DecimalText { .. } => {
            crate::text_form::take(r, f.codec)
        }
        FieldCodec::DescTimestamp { text } => {
            let d = DescTs { text };
            match kind::int_type(f) {
                Some(IntTy::U64) => Ok(Value::UInt(d.take::<u64>(r)?.into())),
                Some(IntTy::I64) => Ok(Value::Int(d.take::<i64>(r)?.into())),
                _ => Err(not_integer(r)),
            }
        }
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

fn int_value<T: IntValue>(v: T) -> Value {
    v.value()
}

/// `#[desc]` on a part: its fixed width inverted, then read as the part.
fn take_inverted(r: &mut KeyReader<'_>, kind: &PartKind) -> Result<Value, DecodeError> {
    let Some(n) = kind.fixed_len() else {
        return Err(r.error(DecodeErrorKind::Invalid(
            "#[desc] on a part the layout gives no fixed width",
        )));
    };
    let at = r.position();
    let scratch: Vec<u8> = r.take(n)?.iter().map(|b| !b).collect();
    let mut inner = r.nested(&scratch, at);
    let v = take_part(&mut inner, kind, true)?;
    inner.finish()?;
    Ok(v)
}

fn take_part(r: &mut KeyReader<'_>, kind: &PartKind, last: bool) -> Result<Value, DecodeError> {
    Ok(match kind {
        PartKind::Int(t) => {
            macro_rules! ints {
                ($($v:ident => $t:ty),*) => {
                    match t { $(IntTy::$v => int_value(<$t>::decode(r)?),)* }
                };
            }
            ints!(U8 => u8, U16 => u16, U32 => u32, U64 => u64, U128 => u128,
                I8 => i8, I16 => i16, I32 => i32, I64 => i64, I128 => i128)
        }
        PartKind::F32 => Value::F32(f32::decode(r)?),
        PartKind::F64 => Value::F64(f64::decode(r)?),
        PartKind::Bool => Value::Bool(bool::decode(r)?),
        PartKind::Char => Value::Char(char::decode(r)?),
        PartKind::Array(n) => Value::Bytes(r.take(*n)?.to_vec()),
        PartKind::Unit => Value::Unit,
        PartKind::Uuid => Value::Uuid(uuid::Uuid::decode(r)?),
        PartKind::Date => Value::Date(chrono::NaiveDate::decode(r)?),
        PartKind::Date9999 => {
            let at = r.position();
            let d = chrono::NaiveDate::decode(r)?;
            if !crate::value::within_9999(d) {
                return Err(r.error_at(
                    at,
                    DecodeErrorKind::Invalid(
                        "day outside time's and jiff's Date range (±9999 years)",
                    ),
                ));
            }
            Value::Date(d)
        }
        PartKind::Decimal => Value::Decimal(rust_decimal::Decimal::decode(r)?),
        PartKind::DateTime => Value::DateTime(chrono::NaiveDateTime::decode(r)?),
        PartKind::DateTimeUtc => Value::DateTimeUtc(chrono::DateTime::decode(r)?),
        PartKind::Option(inner) => {
            let at = r.position();
            match r.take_byte()? {
                0 => Value::Option(None),
                1 => Value::Option(Some(Box::new(take_part(r, inner, last)?))),
                byte => return Err(r.error_at(at, DecodeErrorKind::InvalidTag { byte })),
            }
        }
        PartKind::Opaque(Some(n)) => Value::Opaque(r.take(*n)?.to_vec()),
        PartKind::Opaque(None) if last => Value::Opaque(r.take_rest().to_vec()),
        PartKind::Opaque(None) => {
            return Err(r.error(DecodeErrorKind::Invalid(
                "a type the layout cannot describe, of variable width, before other \
                 fields: where it ends is known only to its KeyPart impl",
            )))
        }
    })
}
