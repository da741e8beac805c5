//! What [`Layout::decode_key`](crate::Layout::decode_key) reports: a
//! key's fields and values, and its prefix with how far it was checked.
//! Types only, which the decoder and the salt's check both build on.

use crate::values::value::Value;
use core::fmt;
use core::ops::Range;

/// A key read by its [`Layout`](crate::Layout) alone
/// ([`Layout::decode_key`](crate::Layout::decode_key)).
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
    /// The values in field order, as
    /// [`Layout::encode_key`](crate::Layout::encode_key) takes them.
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

/// How far a stored salt bucket was checked against the key's fields.
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
                 a function only the derived type can run"
            ),
            BucketCheck::NotVerifiable { hash_fn } => write!(
                f,
                "not verified: the bucket comes from {hash_fn}(&key), a function only the \
                 derived type can run"
            ),
        }
    }
}
