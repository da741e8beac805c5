//! [`Layout`]: the complete description of a derived key, for people
//! ([`Layout::explain`]), tools (serde, behind the `serde` feature), the
//! interpreter that reads and writes keys by their layout alone
//! ([`dynamic`]) and the scan and salt planners that build on it.

mod codec;
mod diff;
pub mod dynamic;
mod explain;
pub(crate) mod fingerprint;
#[cfg(feature = "json")]
mod json;
mod key_count;
pub(crate) mod lengths;
pub mod rules;
#[cfg(feature = "json")]
mod validate;

pub use crate::values::{TimeCrate, ValueKind};
pub use diff::{
    diff, Change, Effect, KeyOutcome, LayoutDiff, MovedShare, SampleCount, SampleReport,
    ShareBasis, Verdict,
};
pub use fingerprint::{fnv1a_64, Fingerprint};
#[cfg(feature = "json")]
pub use json::{LayoutJsonError, MAX_LAYOUT_JSON_LEN};
pub use key_count::Thousands;

pub use crate::codec::field_codec::FieldCodec;
use crate::salt::{HashPrefixPlan, SaltPlan};
use crate::split::SplitKeys;
pub(crate) use codec::LayoutCodec;

/// The version of the layout format this crate writes and reads. A layout
/// records the version it was written in; tools refuse a newer one rather
/// than misread it. Version 2 added each field's [`ValueKind`].
pub const FORMAT_VERSION: u32 = 2;

/// How a derived key is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Layout {
    /// The layout format's version ([`FORMAT_VERSION`] when derived by this
    /// crate).
    pub format_version: u32,
    /// The struct's name.
    pub name: &'static str,
    /// The byte between fields, for text keys (`#[rowkey(separator = "_")]`).
    pub separator: Option<char>,
    /// The longest key.
    pub max_len: usize,
    /// `Some(n)` when every key is `n` bytes.
    pub fixed_len: Option<usize>,
    /// What comes before the first field: a salt bucket or a hash prefix.
    pub prefix: Option<KeyPrefix>,
    /// The fields in key order.
    pub fields: &'static [FieldLayout],
}

/// Bytes a key starts with that are not a field: computed from fields to
/// spread sequential keys over regions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum KeyPrefix {
    /// `#[salt(..)]`: a bucket number.
    Salt(SaltPlan),
    /// `#[hash_prefix(..)]`: the start of a hash of one field.
    HashPrefix(HashPrefixPlan),
}

impl KeyPrefix {
    /// Bytes before the first field.
    pub const fn len(&self) -> usize {
        match self {
            KeyPrefix::Salt(s) => s.prefix_len(),
            KeyPrefix::HashPrefix(h) => h.prefix_len(),
        }
    }

    /// Never true: a prefix has at least one byte (for clippy's `len`
    /// convention).
    pub const fn is_empty(&self) -> bool {
        false
    }
}

/// One field of a [`Layout`].
///
/// ```
/// use rowkey::{FieldCodec, Order, RowKey};
///
/// #[derive(RowKey)]
/// struct Spend<'a> {
///     #[text(width = 6)]
///     month: u32,
///     #[pad(width = 10, fill = 0x01, align = left)]
///     user: &'a str,
///     #[desc_ts]
///     at_ms: i64,
/// }
///
/// let at = Spend::layout().field("at_ms").unwrap();
/// assert_eq!(at.offset, Some(16));
/// assert_eq!(at.fixed_len, Some(8));
/// assert_eq!(at.order, Order::Descending);
/// assert_eq!(at.codec, FieldCodec::DescTimestamp { text: false });
/// // Left padding sorts by length first, so the layout promises no order.
/// assert_eq!(Spend::layout().fields[1].order, Order::Unordered);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FieldLayout {
    /// The field's name.
    pub name: &'static str,
    /// The field's Rust type, as written (for people: tools read
    /// [`value`](Self::value)).
    pub rust_type: &'static str,
    /// What its values are (for `Option<T>` fields, `T`'s).
    pub value: ValueKind,
    /// How its value is written.
    pub codec: FieldCodec,
    /// Byte offset in the key, when every field before it is fixed-width.
    pub offset: Option<usize>,
    /// The most bytes it takes (with its separator-free framing).
    pub max_len: usize,
    /// `Some(n)` when it always takes `n` bytes.
    pub fixed_len: Option<usize>,
    /// How the field's bytes sort relative to its values.
    pub order: Order,
    /// An `Option<T>`: one tag byte before the value.
    pub optional: bool,
    /// `#[desc]`: every byte the field writes is inverted (the option tag
    /// too), whatever [`order`](Self::order) says of the result.
    pub desc: bool,
}

/// How a field's bytes sort.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Order {
    /// Like the values.
    Ascending,
    /// Opposite to the values (`#[desc]`, `#[desc_ts]`: newest first).
    Descending,
    /// Not like the values (reversed, left-padded, separator-delimited
    /// variable text): equality works, ranges over values do not.
    Unordered,
}

impl Layout {
    /// Whether the key is an Apache Phoenix table's (its fields are
    /// Phoenix key columns, `#[rowkey(phoenix)]`).
    pub fn is_phoenix(&self) -> bool {
        self.fields
            .iter()
            .any(|f| matches!(f.codec, FieldCodec::Phoenix { .. }))
    }

    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<&FieldLayout> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// The salt, if the key has one.
    pub fn salt(&self) -> Option<&SaltPlan> {
        match &self.prefix {
            Some(KeyPrefix::Salt(s)) => Some(s),
            _ => None,
        }
    }

    /// The keys that pre-split a table of these keys into one region per
    /// salt bucket; none (one region) for an unsalted key. For a hash
    /// prefix, pick a region count and use [`SplitKeys::hex_string`] (hex
    /// prefixes) or [`SplitKeys::uniform`] (binary ones).
    pub fn split_keys(&self) -> SplitKeys {
        match self.salt() {
            Some(s) => SplitKeys::new(s.split_keys()),
            None => SplitKeys::default(),
        }
    }
}
