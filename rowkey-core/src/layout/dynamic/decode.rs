//! Reading a key by its layout: each field through its codec's
//! [`LayoutCodec`](crate::layout::LayoutCodec), which makes the call the
//! derived `decode` makes, with the parameters the layout records.

use super::decoded::{DecodedField, DecodedKey, PrefixReport};
use super::salt::verify_bucket;
use crate::codec::phoenix::{column_value, finish_read, take_column, PhoenixColumn, PhoenixKeyLen};
use crate::layout::{FieldCodec, FieldLayout, KeyPrefix, Layout};
use crate::values::value::Value;
use crate::{DecodeError, KeyReader};

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
    let mut phoenix = PhoenixKeyLen::new(prefix_end);
    for (i, f) in layout.fields.iter().enumerate() {
        r.field(f.name);
        if let (Some(b), true) = (sep, i > 0) {
            r.expect_separator(b)?;
        }
        let start = r.position();
        let last = i + 1 == layout.fields.len();
        let value = match f.codec {
            FieldCodec::Phoenix { ty, last, max_len } => {
                let col = PhoenixColumn::of(ty, f.desc, last, max_len);
                take_phoenix(&mut r, f, &col, &mut phoenix)?
            }
            _ => take_field(&mut r, f, sep, last)?,
        };
        fields.push(DecodedField {
            name: f.name,
            value,
            span: start..r.position(),
        });
    }
    if layout.is_phoenix() {
        finish_read(&r, &phoenix)?;
    } else {
        r.finish()?;
    }
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

/// One field's value, as [`decode`] reads it (the layout diff reads a
/// field's stored bytes with another field's codec this way).
pub(crate) fn take_field(
    r: &mut KeyReader<'_>,
    f: &FieldLayout,
    sep: Option<u8>,
    last: bool,
) -> Result<Value, DecodeError> {
    f.codec.with_codec(f.desc, sep, |c| {
        if !f.optional {
            return c.take_value(r, f, last);
        }
        Ok(Value::Option(
            if crate::codec::option::take_tag(r, f.desc)? {
                Some(Box::new(c.take_value(r, f, last)?))
            } else {
                None
            },
        ))
    })
}

/// A Phoenix key column's value: NULL is `Option(None)` in an `Option`
/// field, and an error in another.
fn take_phoenix(
    r: &mut KeyReader<'_>,
    f: &FieldLayout,
    col: &PhoenixColumn,
    end: &mut PhoenixKeyLen,
) -> Result<Value, DecodeError> {
    let at = r.position();
    let raw = take_column(r, col, end)?;
    let value = column_value::<Value>(raw, col).map_err(|e| r.error_at(at, e))?;
    Ok(match (f.optional, value) {
        (true, Value::Option(None)) => Value::Option(None),
        (true, v) => Value::Option(Some(Box::new(v))),
        (false, Value::Option(None)) => {
            return Err(r.error_at(
                at,
                crate::DecodeErrorKind::Invalid(
                    "the column is NULL here: the field is not an Option",
                ),
            ))
        }
        (false, v) => v,
    })
}
