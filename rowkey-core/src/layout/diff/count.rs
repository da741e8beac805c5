//! Each change checked on each sample key by itself: the key's bucket
//! against the one the new layout computes for its values, one field's
//! stored bytes read by the new field alone, whole keys for changes that
//! move where every later byte is. So a key that one change misreads is
//! still counted for the others (issue 41: a bucket change beside a
//! dropped `#[desc_ts]` counted no key as moved).

use super::outcome::{same_value, KeyOutcome};
use super::Change;
use crate::layout::dynamic::{DecodedKey, Value};
use crate::layout::{FieldLayout, KeyPrefix, Layout, ValueKind};
use crate::KeyReader;
use core::fmt;

/// What part of a key a [`Change`] is about, so that each sample key can
/// be checked against that change alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scope {
    /// Nothing stored: the key's name.
    Nothing,
    /// Where the fields' bytes are (fields added, removed or reordered,
    /// the separator, a prefix added, removed or of another length): no
    /// byte can be read apart from the rest, so the whole key is read
    /// under the new layout.
    Key,
    /// Which bucket (salt) or hash prefix a row is under: the stored one
    /// against the one the new layout writes for the row's values.
    Bucket,
    /// The salt or hash prefix added, removed, or of another length:
    /// the new prefix on the old fields.
    PrefixAlone,
    /// The separator: the new separator between the old fields.
    SeparatorAlone,
    /// Whether the new salt reads the stored bucket's bytes at all.
    BucketBytes,
    /// Stored buckets from this one on, which the new salt does not have.
    BucketsFrom(u32),
    /// One field, `(old position, new position)`: its stored bytes read
    /// by the new field, everything else as before.
    Field(usize, usize),
}

/// How many of the caller's sample keys one change affects, that change
/// counted by itself ([`LayoutDiff::with_sample`](super::LayoutDiff::with_sample)).
///
/// ```
/// use rowkey::layout::SampleCount;
/// let c = SampleCount { affected: 1614, of: 3000 };
/// assert_eq!(c.to_string(), "1614 of 3000 sample keys (53.8%)");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SampleCount {
    /// Sample keys this change makes read otherwise: values read
    /// differently or not at all, or a row in another bucket.
    pub affected: u64,
    /// Sample keys of the old layout.
    pub of: u64,
}

impl fmt::Display for SampleCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pct = if self.of == 0 {
            0.0
        } else {
            self.affected as f64 * 100.0 / self.of as f64
        };
        write!(
            f,
            "{} of {} sample keys ({pct:.1}%)",
            self.affected, self.of
        )
    }
}

/// One old key, decoded under `old`, checked against each change.
pub(super) struct Checked<'k> {
    key: &'k [u8],
    stored: DecodedKey,
    /// The whole key read under the new layout does not read as before.
    whole_differs: bool,
    /// The key the new layout writes for the same values, if it can.
    rewritten: Option<Vec<u8>>,
}

impl<'k> Checked<'k> {
    pub(super) fn new(
        old: &Layout,
        new: &Layout,
        key: &'k [u8],
        stored: DecodedKey,
        whole: KeyOutcome,
    ) -> Self {
        let whole_differs = whole != KeyOutcome::Same;
        let values = carried(old, new, &stored);
        let rewritten = values.and_then(|v| new.encode_key(&v, None).ok());
        Checked {
            key,
            stored,
            whole_differs,
            rewritten,
        }
    }

    /// Whether `change`, by itself, makes this key read otherwise.
    pub(super) fn affected_by(&self, old: &Layout, new: &Layout, change: &Change) -> bool {
        match change.scope {
            Scope::Nothing => false,
            Scope::Key => self.whole_differs,
            Scope::Bucket => self.moves(old, new),
            Scope::PrefixAlone => match prefix_alone(old, new) {
                Some(alone) => KeyOutcome::of(old, &alone, self.key) != KeyOutcome::Same,
                None => self.whole_differs,
            },
            Scope::SeparatorAlone => {
                KeyOutcome::of(old, &separator_alone(old, new), self.key) != KeyOutcome::Same
            }
            Scope::BucketBytes => match &new.prefix {
                Some(KeyPrefix::Salt(s)) => {
                    let mut r = KeyReader::new(self.key, new.name);
                    s.take(&mut r).is_err()
                }
                _ => false,
            },
            Scope::BucketsFrom(first_gone) => match &old.prefix {
                Some(KeyPrefix::Salt(s)) => s
                    .bucket_of_prefix(self.key)
                    .is_some_and(|b| b >= first_gone),
                _ => false,
            },
            Scope::Field(j, i) => self.field_reads_otherwise(old, &new.fields[i], j),
        }
    }

    /// The stored prefix is not the one the new layout writes for the
    /// key's values (keys whose values it cannot write are counted by
    /// the change that refuses them, not here).
    fn moves(&self, old: &Layout, new: &Layout) -> bool {
        let (Some(a), Some(b)) = (old.prefix, new.prefix) else {
            return false;
        };
        match &self.rewritten {
            Some(k) if a.len() == b.len() => k.get(..b.len()) != self.key.get(..a.len()),
            _ => false,
        }
    }

    /// The old field `j`'s stored bytes, read by `n` where `j` was
    /// (last or not, after the same separator), give another value or
    /// none.
    fn field_reads_otherwise(&self, old: &Layout, n: &FieldLayout, j: usize) -> bool {
        let f = &self.stored.fields[j];
        let bytes = &self.key[f.span.clone()];
        let last = j + 1 == old.fields.len();
        let sep = old.separator.map(|c| c as u8);
        let mut r = KeyReader::new(bytes, old.name);
        match crate::layout::dynamic::take_field(&mut r, n, sep, last) {
            Ok(v) => r.finish().is_err() || !same_value(&f.value, &v),
            Err(_) => true,
        }
    }
}

/// `old` with `new`'s salt or hash prefix: `None` where that prefix
/// names a field `old` does not have.
fn prefix_alone(old: &Layout, new: &Layout) -> Option<Layout> {
    let has = |name: &str| old.fields.iter().any(|f| f.name == name);
    let names_known = match &new.prefix {
        Some(KeyPrefix::Salt(s)) => {
            s.inputs.iter().all(|n| has(n)) && s.groups.is_none_or(|g| has(g.field))
        }
        Some(KeyPrefix::HashPrefix(h)) => has(h.field),
        None => true,
    };
    let (a, b) = (
        old.prefix.map_or(0, |p| p.len()),
        new.prefix.map_or(0, |p| p.len()),
    );
    names_known.then(|| Layout {
        prefix: new.prefix,
        max_len: old.max_len - a + b,
        fixed_len: old.fixed_len.map(|n| n - a + b),
        ..*old
    })
}

/// `old` with `new`'s separator between its fields.
fn separator_alone(old: &Layout, new: &Layout) -> Layout {
    let seps = old.fields.len().saturating_sub(1);
    let (a, b) = (
        usize::from(old.separator.is_some()) * seps,
        usize::from(new.separator.is_some()) * seps,
    );
    Layout {
        separator: new.separator,
        max_len: old.max_len - a + b,
        fixed_len: old.fixed_len.map(|n| n - a + b),
        ..*old
    }
}

/// The stored values as the new layout's fields take them (by name where
/// both have a field, else by position): `None` where a new field has no
/// old value or cannot hold it.
fn carried(old: &Layout, new: &Layout, stored: &DecodedKey) -> Option<Vec<Value>> {
    new.fields
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let j = old
                .fields
                .iter()
                .position(|o| o.name == n.name)
                .unwrap_or(i);
            carry(&stored.fields.get(j)?.value, n)
        })
        .collect()
}

/// `v` as a value of field `n`: an enum's variant by name, text and bytes
/// by their bytes, an integer by its number.
fn carry(v: &Value, n: &FieldLayout) -> Option<Value> {
    Some(match (n.value.unwrapped(), v) {
        (ValueKind::Enum { variants, .. }, Value::Enum { variant, .. }) => {
            let index = variants.iter().position(|x| x == variant)?;
            Value::Enum {
                variant: variants[index],
                index: u8::try_from(index).ok()?,
            }
        }
        (ValueKind::Bytes, Value::Text(t)) => Value::Bytes(t.as_bytes().to_vec()),
        (ValueKind::Text, Value::Bytes(b)) => Value::Text(String::from_utf8(b.clone()).ok()?),
        (ValueKind::Int { signed: true, .. }, Value::UInt(u)) => {
            Value::Int(i128::try_from(*u).ok()?)
        }
        (ValueKind::Int { signed: false, .. }, Value::Int(i)) => {
            Value::UInt(u128::try_from(*i).ok()?)
        }
        _ => v.clone(),
    })
}
