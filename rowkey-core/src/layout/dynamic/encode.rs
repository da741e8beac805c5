//! Writing a key by its layout: each value through its codec's
//! [`LayoutCodec`](crate::layout::LayoutCodec), which makes the call the
//! derived `encode_into` makes, then the salt bucket or hash prefix.

use super::salt::{choose_bucket, group_of, salted_parts};
use super::{EncodeValuesError, Value};
use crate::codec::phoenix::{finish_key, put_column, PhoenixColumn, PhoenixKeyLen};
use crate::layout::{FieldCodec, FieldLayout, KeyPrefix, Layout};
use crate::values::mismatch::mismatch;
use crate::{EncodeError, EncodeErrorKind, KeyWriter};

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
    let (spans, _) = write_head(&mut w, layout, values)?;
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
/// Reserves the layout's prefix, then writes `values` into the first
/// fields (separators between them), and returns each field's span: what
/// a whole key and a key prefix both start with. For a Phoenix key, also
/// the `00` separators owed after the last value that is not NULL
/// (written only before a later one), which a prefix's range takes in.
pub(super) fn write_head(
    w: &mut KeyWriter<'_>,
    layout: &Layout,
    values: &[Value],
) -> Result<(Vec<core::ops::Range<usize>>, usize), EncodeError> {
    match &layout.prefix {
        Some(KeyPrefix::Salt(s)) => s.reserve(w)?,
        Some(KeyPrefix::HashPrefix(h)) => h.reserve(w)?,
        None => {}
    }
    let sep = layout.separator.map(|c| c as u8);
    let mut spans = Vec::with_capacity(values.len());
    // A Phoenix key ends after its last column that is not NULL.
    let mut phoenix = PhoenixKeyLen::new(w.position());
    for (i, (f, v)) in layout.fields.iter().zip(values).enumerate() {
        if let (Some(b), true) = (sep, i > 0) {
            w.put_byte(b)?;
        }
        w.field(f.name);
        let start = w.position();
        check_group(w, layout, f, v)?;
        match f.codec {
            FieldCodec::Phoenix { ty, last, max_len } => {
                let col = PhoenixColumn::of(ty, f.desc, last, max_len);
                // NULL only in an Option field, as the derive takes it.
                if f.optional != matches!(v, Value::Option(_)) {
                    return Err(mismatch(w));
                }
                put_column(w, v, &col, &mut phoenix)?;
            }
            _ => put_field(w, f, v, sep)?,
        }
        spans.push(start..w.position());
    }
    if layout.is_phoenix() && values.len() == layout.fields.len() {
        finish_key(w, &phoenix)?;
    }
    Ok((spans, phoenix.pending()))
}

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

fn put_field(
    w: &mut KeyWriter<'_>,
    f: &FieldLayout,
    v: &Value,
    sep: Option<u8>,
) -> Result<(), EncodeError> {
    f.codec.with_codec(f.desc, sep, |c| {
        if !f.optional {
            return c.put_value(w, f, v);
        }
        let Value::Option(inner) = v else {
            return Err(mismatch(w));
        };
        crate::codec::option::put_tag(w, inner.is_some(), f.desc)?;
        match inner {
            None => Ok(()),
            Some(v) => c.put_value(w, f, v),
        }
    })
}
