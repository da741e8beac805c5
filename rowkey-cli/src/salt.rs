//! Salt buckets from a layout: recomputed from the fields' bytes with the
//! hash the layout names, as derived code does; what a layout cannot
//! recompute (a user's hash or group function) is said, not guessed.

use crate::decode::DecodedKey;
use crate::value::Value;
use rowkey_core::layout::Layout;
use rowkey_core::salt::{GroupRule, SaltHash, SaltPlan};
use rowkey_core::{DecodeError, DecodeErrorKind};
use std::fmt;

/// How far a stored bucket was checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BucketCheck {
    /// Recomputed from the fields: it agrees.
    Verified,
    /// The bucket within its group agrees with the fields' hash; the group
    /// comes from a user function the layout only names.
    SlotVerified {
        /// The group function's path.
        group_fn: &'static str,
    },
    /// The bucket comes from a user function the layout only names.
    NotVerifiable {
        /// The function's path.
        hash_fn: &'static str,
    },
}

impl fmt::Display for BucketCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BucketCheck::Verified => f.write_str("verified against the fields"),
            BucketCheck::SlotVerified { group_fn } => write!(
                f,
                "bucket within the group verified; the group comes from {group_fn}(..), \
                 a function the CLI cannot run"
            ),
            BucketCheck::NotVerifiable { hash_fn } => write!(
                f,
                "not verified: the bucket comes from {hash_fn}(&key), a function the CLI \
                 cannot run"
            ),
        }
    }
}

/// What the fields say the bucket is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Computed {
    /// The bucket.
    Bucket(u32),
    /// Only the bucket within its group (`bucket % per_group`).
    Slot {
        /// The slot.
        slot: u32,
        /// Buckets per group.
        per_group: u32,
        /// The group function's path.
        group_fn: &'static str,
    },
    /// Nothing: a user hash function.
    Unknown {
        /// The function's path.
        hash_fn: &'static str,
    },
}

/// Why the group field's value picks no group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupOutOfRange {
    /// The group field.
    pub field: &'static str,
}

/// The bucket of a key whose fields are `values` (in field order) and
/// whose salted fields' bytes are `parts` (for Phoenix: the key after the
/// bucket).
pub fn compute(
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
            let out = GroupOutOfRange { field: g.field };
            match (g.rule, value) {
                (GroupRule::Range { lo, hi }, Some(v)) => {
                    let v = v.as_i128().ok_or(out)?;
                    if !(lo..=hi).contains(&v) {
                        return Err(out);
                    }
                    let offset = v.checked_sub(lo).ok_or(out)?;
                    Some(Some(u32::try_from(offset).map_err(|_| out)?))
                }
                // A derived KeyPart enum stores its variant's position,
                // which is its group.
                (GroupRule::Enum, Some(Value::Opaque(b))) if b.len() == 1 => {
                    if u32::from(b[0]) >= g.groups {
                        return Err(out);
                    }
                    Some(Some(u32::from(b[0])))
                }
                _ => None,
            }
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

/// The salted fields' bytes in `key`, as derived code hashes them.
pub fn parts<'k>(s: &SaltPlan, key: &'k [u8], decoded: &DecodedKey) -> Vec<&'k [u8]> {
    if s.hash == SaltHash::Phoenix {
        return vec![key.get(s.prefix_len()..).unwrap_or_default()];
    }
    s.inputs
        .iter()
        .map(|name| {
            decoded
                .fields
                .iter()
                .find(|f| f.name == *name)
                .map_or(&[][..], |f| &key[f.span.clone()])
        })
        .collect()
}

/// Checks a decoded key's stored bucket as derived `decode` does.
pub fn verify_bucket(
    layout: &Layout,
    s: &SaltPlan,
    key: &[u8],
    decoded: &DecodedKey,
    stored: u32,
) -> Result<BucketCheck, DecodeError> {
    let parts = parts(s, key, decoded);
    let computed = compute(s, layout, &decoded.values(), &parts)
        .map_err(|e| DecodeError::new(layout.name, e.field, 0, DecodeErrorKind::GroupOutOfRange))?;
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
