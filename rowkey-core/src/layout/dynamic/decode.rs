//! Reading a key by its layout: each field through its codec's
//! [`LayoutCodec`](crate::layout::LayoutCodec), which makes the call the
//! derived `decode` makes, with the parameters the layout records.

use super::salt::{verify_bucket, BucketCheck};
use super::Value;
use crate::layout::{FieldLayout, KeyPrefix, Layout};
use crate::{DecodeError, KeyReader};
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
