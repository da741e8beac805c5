//! Salting: a bucket number in front of the key, computed from chosen
//! fields, so that sequential keys spread over `N` regions instead of
//! piling into the last one. [`SaltPlan`] is the derived plan of one key;
//! the hash functions here ([`default_hash`], [`java_string_hash`],
//! [`phoenix_hash`], [`md5_hash`]) are the ones it can use.
//!
//! A salted key starts with its bucket, then the struct's separator (text
//! buckets of separator-joined keys), then the fields:
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! #[rowkey(separator = "_")]
//! struct Event {
//!     #[salt(buckets = 16)]
//!     #[text(width = 8)]
//!     id: u32,
//!     #[max_len(16)]
//!     kind: String,
//! }
//!
//! let e = Event { id: 42, kind: "click".into() };
//! let key = e.to_key().unwrap();
//! // Two digits (the width of 15), '_', then the fields.
//! assert_eq!(&key[2..], b"_00000042_click");
//! assert_eq!(Event::decode(&key).unwrap(), e);
//! assert_eq!(Event::split_keys().len(), 15);
//! ```

pub(crate) mod groups;
mod hash;
mod hash_prefix;

pub use hash::{
    default_hash, java_abs_mod, java_hash_code, java_string_hash, md5_digest, md5_hash,
    phoenix_bucket, phoenix_hash,
};
pub use hash_prefix::{HashPrefixPlan, PrefixHash};

use crate::error::DecodeErrorKind;
use crate::{DecodeError, EncodeError, KeyReader, KeyWriter};

/// The most buckets a salt may have (two binary bytes).
pub const MAX_BUCKETS: u32 = 65536;
/// The most buckets of a Phoenix salt, which Phoenix stores in one byte.
pub const PHOENIX_MAX_BUCKETS: u32 = 256;

/// Bytes before a salted key's first field: the bucket, and after a text
/// bucket the separator of a separator-joined key (a binary bucket is not
/// text, so nothing separates it).
#[inline]
pub const fn bucket_prefix_len(buckets: u32, binary: bool, separated: bool) -> usize {
    bucket_width(buckets, binary) + (!binary && separated) as usize
}

/// Bytes (binary) or digits (text) of the bucket of a salt with `buckets`
/// buckets: one byte up to 256 buckets, then two; the digits of `N - 1`.
#[inline]
pub const fn bucket_width(buckets: u32, binary: bool) -> usize {
    if binary {
        if buckets > 256 {
            2
        } else {
            1
        }
    } else {
        // The digits of `N - 1` in one step (no loop per call).
        match buckets.saturating_sub(1).checked_ilog10() {
            Some(log) => log as usize + 1,
            None => 1,
        }
    }
}

/// The name errors and layouts give the salt bucket, which is not a field.
pub const SALT_FIELD: &str = "<salt>";

/// Which hash picks the bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum SaltHash {
    /// [`default_hash`] of the salted fields' bytes, `% N`.
    Default,
    /// [`java_string_hash`] of the salted fields' text, then
    /// [`java_abs_mod`]: `Math.abs(s.hashCode()) % N`.
    Java,
    /// Apache Phoenix's salt byte: [`phoenix_hash`] of every key byte after
    /// the bucket, then [`phoenix_bucket`].
    Phoenix,
    /// [`md5_hash`] of the salted fields' bytes, `% N`.
    Md5,
    /// A user function `fn(&Self) -> u32`, `% N`.
    Custom(&'static str),
}

/// How the bucket is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BucketFormat {
    /// Decimal digits, zero-padded to the digits of `N - 1`.
    Text,
    /// Big-endian binary: one byte up to 256 buckets, two above.
    Binary,
}

/// Buckets split into groups chosen by a field, so a query on that field
/// scans `per_group` buckets, not all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BucketGroups {
    /// The field whose value picks the group.
    pub field: &'static str,
    /// How many groups.
    pub groups: u32,
    /// Buckets per group: group `g` owns `g * per_group .. (g + 1) * per_group`.
    pub per_group: u32,
    /// How the field's value becomes its group.
    pub rule: GroupRule,
}

/// How a salt's `group_by` field picks its group, for tools that read a
/// key from its [`Layout`](crate::Layout) alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum GroupRule {
    /// A [`KeyGroup`] type, such as a `#[derive(KeyPart)]` enum (whose
    /// group is its stored byte, the variant's position). Not named
    /// `KeyGroup`: a second item of that name would make rustc spell the
    /// trait's full path in every error that names it.
    Enum,
    /// An integer declared with `range = lo..=hi`: group `value - lo`.
    Range {
        /// The first value, group 0.
        lo: i128,
        /// The last value.
        hi: i128,
    },
    /// A user function `fn(&T) -> u32` (`group = path`), by its path.
    Func(&'static str),
}

/// The salt of a derived key: bucket count, format, hash and inputs.
///
/// The bucket is `hash % N`, or with [`BucketGroups`]
/// `group * per_group + hash % per_group`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SaltPlan {
    /// `N`: buckets are `0..N`.
    pub buckets: u32,
    /// Text digits or binary.
    pub format: BucketFormat,
    /// Written after a text bucket (the struct's separator).
    pub separator: Option<u8>,
    /// The hash.
    pub hash: SaltHash,
    /// The fields hashed, in key order (Phoenix hashes the whole rest of
    /// the key whatever this says).
    pub inputs: &'static [&'static str],
    /// Bucket groups, if any.
    pub groups: Option<BucketGroups>,
}

impl SaltPlan {
    /// Bytes of the bucket itself.
    #[inline]
    pub const fn width(&self) -> usize {
        bucket_width(self.buckets, matches!(self.format, BucketFormat::Binary))
    }

    /// Bytes before the first field: the bucket and its separator.
    #[inline]
    pub const fn prefix_len(&self) -> usize {
        bucket_prefix_len(
            self.buckets,
            matches!(self.format, BucketFormat::Binary),
            self.separator.is_some(),
        )
    }

    /// The bucket's bytes: digits or big-endian binary, `width()` long.
    #[inline]
    pub fn render(&self, bucket: u32, out: &mut [u8]) {
        let w = self.width();
        let out = &mut out[..w];
        match self.format {
            BucketFormat::Binary => {
                out.copy_from_slice(&bucket.to_be_bytes()[4 - w..]);
            }
            BucketFormat::Text => {
                let mut v = bucket;
                for b in out.iter_mut().rev() {
                    *b = b'0' + (v % 10) as u8;
                    v /= 10;
                }
            }
        }
    }

    /// Writes the bucket's prefix (bucket and separator) into the first
    /// [`prefix_len`](Self::prefix_len) bytes of `out`.
    #[inline]
    pub fn write_prefix(&self, bucket: u32, out: &mut [u8]) {
        self.render(bucket, out);
        if let (BucketFormat::Text, Some(sep)) = (self.format, self.separator) {
            out[self.width()] = sep;
        }
    }

    /// The bucket whose prefix `key` starts with, if any (prefixes sort
    /// like their buckets, so this is a binary search).
    pub fn bucket_of_prefix(&self, key: &[u8]) -> Option<u32> {
        let len = self.prefix_len();
        let head = key.get(..len)?;
        let mut buf = [0u8; 8];
        let (mut lo, mut hi) = (0u32, self.buckets);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            self.write_prefix(mid, &mut buf[..len]);
            match buf[..len].cmp(head) {
                core::cmp::Ordering::Less => lo = mid + 1,
                core::cmp::Ordering::Greater => hi = mid,
                core::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// The bucket's prefix bytes (bucket and separator) as a `Vec`.
    pub fn prefix(&self, bucket: u32) -> Vec<u8> {
        let mut v = vec![0; self.prefix_len()];
        self.write_prefix(bucket, &mut v);
        v
    }

    /// The bucket for a raw hash value: `raw % N`, or within `group`.
    #[inline]
    pub fn bucket_of_raw(&self, raw: u32, group: Option<u32>) -> u32 {
        match (group, self.groups) {
            (Some(g), Some(gs)) => g * gs.per_group + raw % gs.per_group,
            _ => raw % self.buckets,
        }
    }

    /// Slots the hash chooses among: `N`, or `per_group` with groups.
    #[inline]
    fn slots(&self) -> u32 {
        self.groups.map_or(self.buckets, |g| g.per_group)
    }

    /// The bucket of a key whose salted fields are `parts` (their bytes in
    /// the key, in key order; for Phoenix, the whole key after the
    /// bucket). `group` is the group index when the plan has groups.
    /// A [`SaltHash::Custom`] plan takes its hash from
    /// [`bucket_of_raw`](Self::bucket_of_raw) instead.
    #[inline]
    pub fn bucket(&self, parts: &[&[u8]], group: Option<u32>) -> u32 {
        let slots = self.slots();
        let slot = match self.hash {
            SaltHash::Default | SaltHash::Custom(_) => default_hash(parts) % slots,
            SaltHash::Java => java_abs_mod(java_string_hash(parts), slots),
            SaltHash::Phoenix => {
                let bytes = parts.first().copied().unwrap_or_default();
                phoenix_bucket(phoenix_hash(bytes), slots)
            }
            SaltHash::Md5 => md5_hash(parts) % slots,
        };
        match (group, self.groups) {
            (Some(g), Some(gs)) => g * gs.per_group + slot,
            _ => slot,
        }
    }

    /// [`bucket`](Self::bucket) of the parts of `key` at `spans` (byte
    /// ranges `start..end`; an end past the key stops at its end, a span
    /// outside it is empty). Derived keys call this with the salted fields'
    /// positions; Phoenix's single span runs from the salt to the key's end.
    #[inline]
    pub fn bucket_of_spans<const K: usize>(
        &self,
        key: &[u8],
        spans: [(usize, usize); K],
        group: Option<u32>,
    ) -> u32 {
        let parts =
            spans.map(|(start, end)| key.get(start..end.min(key.len())).unwrap_or_default());
        self.bucket(&parts, group)
    }

    /// Writes a placeholder bucket and the separator; [`write_bucket`]
    /// fills the bucket in once the fields are written.
    ///
    /// [`write_bucket`]: Self::write_bucket
    #[inline]
    pub fn reserve(&self, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
        w.field(SALT_FIELD);
        w.reserve(self.width())?;
        if let (BucketFormat::Text, Some(sep)) = (self.format, self.separator) {
            w.put_byte(sep)?;
        }
        Ok(())
    }

    /// Writes `bucket` into the placeholder at the key's start.
    #[inline]
    pub fn write_bucket(&self, w: &mut KeyWriter<'_>, bucket: u32) {
        self.render(bucket, w.written_since(0));
    }

    /// Reads the bucket and its separator, rejecting a bucket outside `0..N`.
    #[inline]
    pub fn take(&self, r: &mut KeyReader<'_>) -> Result<u32, DecodeError> {
        r.field(SALT_FIELD);
        let at = r.position();
        let bytes = r.take(self.width())?;
        let bucket = match self.format {
            BucketFormat::Binary => bytes.iter().fold(0u32, |v, &b| v << 8 | u32::from(b)),
            BucketFormat::Text => {
                let mut v = 0u32;
                for (i, &b) in bytes.iter().enumerate() {
                    if !b.is_ascii_digit() {
                        return Err(r.error_at(at + i, DecodeErrorKind::InvalidDigit { byte: b }));
                    }
                    v = v * 10 + u32::from(b - b'0');
                }
                v
            }
        };
        if bucket >= self.buckets {
            return Err(r.error_at(
                at,
                DecodeErrorKind::BucketOutOfRange {
                    bucket,
                    buckets: self.buckets,
                },
            ));
        }
        if let (BucketFormat::Text, Some(sep)) = (self.format, self.separator) {
            r.expect_separator(sep)?;
        }
        Ok(bucket)
    }

    /// The error for a stored bucket that is not the one the key's fields
    /// hash to.
    pub fn mismatch(&self, key: &'static str, stored: u32, computed: u32) -> DecodeError {
        DecodeError::new(
            key,
            SALT_FIELD,
            0,
            DecodeErrorKind::SaltMismatch { stored, computed },
        )
    }

    /// The split keys that give each bucket its own region: `N - 1` keys,
    /// the first key of buckets `1..N` (see [`split_key`](Self::split_key)).
    pub fn split_keys(&self) -> Vec<Vec<u8>> {
        (0..self.buckets.saturating_sub(1))
            .map(|b| self.split_key(b))
            .collect()
    }

    /// The boundary between bucket `b` and `b + 1`. For text buckets of a
    /// separator-joined key it is the bucket followed by `|` when the
    /// separator sorts below `|` (the Java convention: `0|`, `1|`, ...,
    /// since `k_...` < `k|` < `(k+1)...`); otherwise it is the next
    /// bucket's bytes (Phoenix's single bytes `1..N-1` for binary salts).
    pub fn split_key(&self, b: u32) -> Vec<u8> {
        match (self.format, self.separator) {
            (BucketFormat::Text, Some(sep)) if sep < b'|' => {
                let mut v = vec![0; self.width() + 1];
                self.render(b, &mut v);
                v[self.width()] = b'|';
                v
            }
            _ => {
                let mut v = vec![0; self.width()];
                self.render(b + 1, &mut v);
                v
            }
        }
    }
}

/// A unit enum as a bucket group: `#[derive(KeyPart)]` implements it, so
/// such an enum can be a salt's `group_by` field.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot choose a salt bucket group",
    label = "group_by needs a #[derive(KeyPart)] enum here",
    note = "for an integer field add `range = LO..=HI`; for anything else add \
            `group = path::to::fn, groups = K` with fn(&T) -> u32"
)]
pub trait KeyGroup {
    /// How many groups (variants).
    const GROUPS: u32;
    /// This value's group, in `0..GROUPS`.
    fn group(&self) -> u32;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(buckets: u32, format: BucketFormat, separator: Option<u8>) -> SaltPlan {
        SaltPlan {
            buckets,
            format,
            separator,
            hash: SaltHash::Default,
            inputs: &[],
            groups: None,
        }
    }

    #[test]
    fn spans_are_clamped_to_the_key() {
        let p = plan(16, BucketFormat::Text, None);
        let key = b"xxabcd";
        assert_eq!(
            p.bucket_of_spans(key, [(2, 4), (4, 6)], None),
            p.bucket(&[b"ab", b"cd"], None)
        );
        assert_eq!(
            p.bucket_of_spans(key, [(2, usize::MAX)], None),
            p.bucket(&[b"abcd"], None)
        );
        assert_eq!(
            p.bucket_of_spans(key, [(9, 12)], None),
            p.bucket(&[b""], None)
        );
    }

    #[test]
    fn widths() {
        use BucketFormat::*;
        assert_eq!(plan(1, Text, None).width(), 1);
        assert_eq!(plan(6, Text, None).width(), 1);
        assert_eq!(plan(10, Text, None).width(), 1);
        assert_eq!(plan(11, Text, None).width(), 2);
        assert_eq!(plan(120, Text, None).width(), 3);
        // Each side of every power of ten (the digits of N - 1).
        for (n, w) in [
            (100, 2),
            (101, 3),
            (1000, 3),
            (1001, 4),
            (10000, 4),
            (10001, 5),
        ] {
            assert_eq!(plan(n, Text, None).width(), w, "{n} buckets");
        }
        assert_eq!(plan(0, Text, None).width(), 1);
        assert_eq!(plan(65536, Text, None).width(), 5);
        assert_eq!(plan(256, Binary, None).width(), 1);
        assert_eq!(plan(257, Binary, None).width(), 2);
    }

    #[test]
    fn seed_split_keys() {
        let p = plan(6, BucketFormat::Text, Some(b'_'));
        let keys: Vec<String> = p
            .split_keys()
            .into_iter()
            .map(|k| String::from_utf8(k).unwrap())
            .collect();
        assert_eq!(keys, ["0|", "1|", "2|", "3|", "4|"]);
        let bin = plan(4, BucketFormat::Binary, None).split_keys();
        assert_eq!(bin, [vec![1], vec![2], vec![3]]);
        let wide = plan(300, BucketFormat::Binary, None).split_keys();
        assert_eq!(wide[255], [1, 0]);
        let plain = plan(12, BucketFormat::Text, None).split_keys();
        assert_eq!(plain[0], b"01");
        assert_eq!(plain[10], b"11");
    }

    #[test]
    fn split_keys_separate_every_bucket() {
        for p in [
            plan(6, BucketFormat::Text, Some(b'_')),
            plan(120, BucketFormat::Text, Some(b'|')),
            plan(120, BucketFormat::Text, None),
            plan(300, BucketFormat::Binary, None),
        ] {
            let splits = p.split_keys();
            for b in 0..p.buckets {
                // The smallest and a large key of bucket b.
                let lo = p.prefix(b);
                let mut hi = p.prefix(b);
                hi.extend_from_slice(&[0xFF; 4]);
                let region = |k: &[u8]| splits.partition_point(|s| s.as_slice() <= k);
                assert_eq!(region(&lo), b as usize, "{p:?} bucket {b}");
                assert_eq!(region(&hi), b as usize, "{p:?} bucket {b}");
            }
        }
    }
}
