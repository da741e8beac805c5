//! Salt buckets by the layout: recomputed from the fields' bytes with the
//! hash the layout names, as derived code does; what a layout cannot
//! recompute (a user's hash or group function) is said, never guessed.

use super::decoded::{BucketCheck, DecodedKey};
use super::{EncodeValuesError, Value};
use crate::layout::Layout;
use crate::salt::groups::group_in_range;
use crate::salt::{BucketGroups, GroupRule, SaltHash, SaltPlan};
use crate::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use core::ops::Range;

/// What the fields say the bucket is.
enum Computed {
    Bucket(u32),
    /// Only the bucket within its group (`bucket % per_group`).
    Slot {
        slot: u32,
        per_group: u32,
        group_fn: &'static str,
    },
    Unknown {
        hash_fn: &'static str,
    },
}

/// The group field's value picks no group.
#[derive(Clone, Copy)]
pub(super) struct GroupOutOfRange(&'static str);

/// The bucket of a key whose values are `values` (in field order) and
/// whose salted fields' bytes are `parts`.
fn compute(
    s: &SaltPlan,
    layout: &Layout,
    values: &[Value],
    parts: &[&[u8]],
) -> Result<Computed, GroupOutOfRange> {
    let group = match &s.groups {
        None => Some(None),
        Some(g) => {
            let value = layout
                .fields
                .iter()
                .position(|f| f.name == g.field)
                .and_then(|i| values.get(i));
            value.map_or(Ok(None), |v| group_of(g, v))?.map(Some)
        }
    };
    if let SaltHash::Custom(hash_fn) = s.hash {
        return Ok(Computed::Unknown { hash_fn });
    }
    Ok(match (group, s.groups) {
        (None, Some(g)) => Computed::Slot {
            slot: s.bucket(parts, None),
            per_group: g.per_group,
            group_fn: match g.rule {
                GroupRule::Func(f) => f,
                _ => "KeyGroup::group",
            },
        },
        (group, _) => Computed::Bucket(s.bucket(parts, group.flatten())),
    })
}

/// The group the group field's value `v` picks by the layout's rule;
/// `None` where a user function picks it (the layout only names it).
pub(super) fn group_of(g: &BucketGroups, v: &Value) -> Result<Option<u32>, GroupOutOfRange> {
    let out = GroupOutOfRange(g.field);
    match (g.rule, v) {
        (GroupRule::Range { lo, hi }, v) => {
            let v = v.as_i128().ok_or(out)?;
            Ok(Some(group_in_range(v, lo, hi).ok_or(out)?))
        }
        // A derived KeyPart enum's group is its variant's position.
        (GroupRule::Enum, Value::Enum { index, .. }) => {
            let g = crate::salt::groups::checked_group(u32::from(*index), g.groups);
            Ok(Some(g.ok_or(out)?))
        }
        _ => Ok(None),
    }
}

/// The salted fields' bytes in `key` (fields at `spans`), as derived code
/// hashes them: for Phoenix, the whole key after the bucket.
pub(super) fn salted_parts<'k>(
    s: &SaltPlan,
    layout: &Layout,
    key: &'k [u8],
    spans: &[Range<usize>],
) -> Vec<&'k [u8]> {
    if s.hash == SaltHash::Phoenix {
        return vec![key.get(s.prefix_len()..).unwrap_or_default()];
    }
    s.inputs
        .iter()
        .map(|name| {
            let i = layout.fields.iter().position(|f| f.name == *name);
            i.and_then(|i| key.get(spans.get(i)?.clone()))
                .unwrap_or_default()
        })
        .collect()
}

/// Checks a decoded key's stored bucket as derived `decode` does.
pub(super) fn verify_bucket(
    layout: &Layout,
    s: &SaltPlan,
    key: &[u8],
    decoded: &DecodedKey,
    stored: u32,
) -> Result<BucketCheck, DecodeError> {
    let spans: Vec<_> = decoded.fields.iter().map(|f| f.span.clone()).collect();
    let values: Vec<Value> = decoded.fields.iter().map(|f| f.value.clone()).collect();
    let parts = salted_parts(s, layout, key, &spans);
    let computed = compute(s, layout, &values, &parts)
        .map_err(|e| DecodeError::new(layout.name, e.0, 0, DecodeErrorKind::GroupOutOfRange))?;
    match computed {
        Computed::Bucket(b) if b == stored => Ok(BucketCheck::Verified),
        Computed::Bucket(b) => Err(s.mismatch(layout.name, stored, b)),
        Computed::Slot {
            slot,
            per_group,
            group_fn,
        } => {
            if stored % per_group == slot {
                Ok(BucketCheck::SlotVerified { group_fn })
            } else {
                Err(s.mismatch(layout.name, stored, stored - stored % per_group + slot))
            }
        }
        Computed::Unknown { hash_fn } => Ok(BucketCheck::NotVerifiable { hash_fn }),
    }
}

/// The bucket to write: computed from the fields, or `given` where a
/// user function picks it (and checked against the fields where they
/// say anything).
pub(super) fn choose_bucket(
    s: &SaltPlan,
    layout: &Layout,
    values: &[Value],
    parts: &[&[u8]],
    given: Option<u32>,
) -> Result<u32, EncodeValuesError> {
    if let Some(b) = given {
        if b >= s.buckets {
            return Err(EncodeValuesError::Bucket(format!(
                "bucket {b} is outside the salt's 0..{}",
                s.buckets
            )));
        }
    }
    let computed = compute(s, layout, values, parts).map_err(|e| {
        EncodeValuesError::Key(EncodeError::new(
            layout.name,
            e.0,
            0,
            EncodeErrorKind::GroupOutOfRange,
        ))
    })?;
    let wrong = |b: u32, want: String| {
        EncodeValuesError::Bucket(format!(
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
        (Computed::Slot { group_fn, .. }, None) => Err(EncodeValuesError::Bucket(format!(
            "the salt's group comes from {group_fn}(..), which only the derived type can \
             run: give the bucket"
        ))),
        (Computed::Unknown { .. }, Some(b)) => Ok(b),
        (Computed::Unknown { hash_fn }, None) => Err(EncodeValuesError::Bucket(format!(
            "the salt bucket comes from {hash_fn}(&key), which only the derived type can \
             run: give the bucket"
        ))),
    }
}
