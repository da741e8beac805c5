//! [`FuzzyKey`]: a pattern of key bytes, each fixed or free, for queries
//! that bind a later field while an earlier fixed-width one is left free
//! ("every event with status X, for any user"), and the filters that carry
//! it to the backends: HBase's `FuzzyRowFilter` pair and Bigtable's
//! `RowKeyRegexFilter`. [`FuzzyFilter`] is the same pattern owned, as a
//! read request carries it.

use super::fuzzy_tail::{interval_regex, tail_matches, TailRange};
use crate::buf::KeyBuf;
use crate::KeyDisplay;
use core::fmt;

/// HBase's mask byte for a fixed position.
const FIXED: u8 = 0;
/// HBase's mask byte for a free position.
const FREE: u8 = 1;

/// A pattern of up to `N` key bytes, each fixed or free, on the stack.
/// A key matches when it starts with the pattern: at least as long, equal
/// at every fixed byte, anything at free bytes and after the pattern.
/// The empty pattern matches every key.
///
/// Build it in key order with [`push_fixed`](Self::push_fixed) and
/// [`push_free`](Self::push_free).
///
/// # What the backends were checked against
///
/// - **HBase `FuzzyRowFilter`** (`hbase-client`, `org.apache.hadoop.hbase.
///   filter.FuzzyRowFilter`, read on the 2.x branch): the constructor takes
///   `(row, mask)` pairs of equal length, mask byte `0` = fixed (the row's
///   byte must equal the pair's), `1` = free. 2.x preprocesses the mask
///   (`0 -> 0xFF`, `1 -> 2`, then `>> 2` per match: `0xFF` and `0x00`) and
///   sets the pair's row bytes at free positions to `0`, then tests
///   `row & mask == bytes` word by word: so the row bytes at free positions
///   must be `0` for a match on the unpreprocessed path, and are written as
///   `0` here. HBase compares only `min(row length, pattern length)` bytes:
///   **a row shorter than the pattern whose bytes agree with it can match in
///   HBase**, where [`FuzzyKey::matches`] (and the regex) say no. Whether
///   HBase returns such a row depends on the seek hint the row before it
///   gave: on a real HBase 2.6.1, random patterns over random short keys
///   kept 181 of 185 such rows and passed over the rest
///   (`rowkey-hbase/tests/it/java_checks.rs`). Keys of a layout whose
///   fields up to the end of the pattern all have a fixed width are never
///   shorter than the pattern, so there both agree: the same test checks
///   on the server that the filter keeps exactly the plan's rows.
/// - **Bigtable `RowKeyRegexFilter`**: RE2 syntax. The client docs say
///   that since keys hold arbitrary bytes, `\C` must be used for a true
///   wildcard, and that `.` does not match `\n`. The pattern here is
///   `(?s)^`, then `\xHH` per fixed byte and `\C` per free byte, then
///   `\C*`. `\xHH` names byte `HH` when the engine reads keys one byte per
///   character (Latin-1), as Bigtable does: Google's own HBase adapter
///   (`FuzzyRowFilterAdapter`, the same `\C` per free byte and `\C*` tail)
///   writes key bytes above `0x7F` raw into patterns, and the emulator
///   (`bttest`, on `rsc.io/binaryregexp`, one byte per character) escapes
///   them as `\xHH` "to work more closely to what's seen with the real
///   BigTable". The emulator of gcloud SDK 528 (binaryregexp v0.2.0) was
///   checked by hand with `cbt read t regex=..`: `\C` and `(?s).` each
///   match exactly one byte, `\n` included; `.` without `(?s)` skips `\n`;
///   `\xFF` matches byte `0xFF`. `\C` is what Bigtable documents, so it is
///   used; `(?s)` stays so that no `.` a user appends misses `\n`. The
///   emulator matches the whole key (`^(?:pattern)$`), hence the `\C*`
///   tail; `^` anchors the pattern at the first byte for an engine that
///   searches. The Store conformance suite (`fixtures/src/conformance/fuzzy.rs`)
///   checks on the emulator that the filter selects exactly the keys
///   [`FuzzyKey::matches`] selects.
/// - **HBase Thrift1 filter strings**: none is given. The filter language
///   has no `FuzzyRowFilter`, and its `RowFilter(=, 'regexstring:..')`
///   builds a `RegexStringComparator` that decodes rows as **UTF-8** (its
///   default charset; the filter language cannot change it), which maps
///   distinct bytes above `0x7F` to the same character and several bytes to
///   one: no regex over that text is exact for binary keys. Over Thrift1,
///   scan the plan's ranges and keep the rows that
///   [`matches`](FuzzyKey::matches) accepts.
///
/// ```
/// use rowkey::scan::FuzzyKey;
///
/// // A 4-byte user left free, then status "OK".
/// let mut fuzzy = FuzzyKey::<16>::new();
/// fuzzy.push_free(4)?;
/// fuzzy.push_fixed(b"OK")?;
/// assert!(fuzzy.matches(b"\x00\x00\x00\x07OK\x01"));
/// assert!(!fuzzy.matches(b"\x00\x00\x00\x07NO\x01"));
/// assert!(!fuzzy.matches(b"\x00\x00\x00\x07O")); // shorter: never
/// assert_eq!(fuzzy.bigtable_regex(), r"(?s)^\C\C\C\C\x4F\x4B\C*");
/// let (row, mask) = fuzzy.hbase_fuzzy_pair();
/// assert_eq!((row.as_slice(), mask.as_slice()), (&b"\0\0\0\0OK"[..], &[1, 1, 1, 1, 0, 0][..]));
/// # Ok::<(), rowkey::scan::FuzzyKeyFull>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FuzzyKey<const N: usize> {
    /// The fixed bytes; `0` at free positions (as HBase 2.x wants them).
    bytes: [u8; N],
    /// HBase's mask: [`FIXED`] or [`FREE`] per byte.
    mask: [u8; N],
    len: usize,
    /// A range the bytes after the pattern must lie in (a range on a
    /// field after a free one).
    tail: Option<TailRange<N>>,
}

impl<const N: usize> Default for FuzzyKey<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> FuzzyKey<N> {
    /// The empty pattern (it matches every key).
    pub const fn new() -> Self {
        FuzzyKey {
            bytes: [0; N],
            mask: [FIXED; N],
            len: 0,
            tail: None,
        }
    }

    /// Appends bytes every matching key holds here. On error (the pattern
    /// would exceed `N` bytes) nothing is appended.
    pub fn push_fixed(&mut self, bytes: &[u8]) -> Result<(), FuzzyKeyFull> {
        let at = self.reserve(bytes.len())?;
        self.bytes[at..self.len].copy_from_slice(bytes);
        Ok(())
    }

    /// Appends `width` bytes a matching key may hold anything at. On error
    /// (the pattern would exceed `N` bytes) nothing is appended.
    pub fn push_free(&mut self, width: usize) -> Result<(), FuzzyKeyFull> {
        let at = self.reserve(width)?;
        self.mask[at..self.len].fill(FREE);
        Ok(())
    }

    /// Grows the pattern by `n` fixed zero bytes; returns where they start.
    fn reserve(&mut self, n: usize) -> Result<usize, FuzzyKeyFull> {
        let at = self.len;
        match at.checked_add(n) {
            Some(end) if end <= N => {
                self.len = end;
                Ok(at)
            }
            _ => Err(FuzzyKeyFull {
                len: at,
                adding: n,
                capacity: N,
            }),
        }
    }

    /// The pattern's length in bytes: a matching key is at least this long.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the pattern is empty (it matches every key).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether any byte is free. A pattern without one is a plain prefix,
    /// which a scan range answers without a filter.
    pub fn has_free(&self) -> bool {
        self.mask().contains(&FREE)
    }

    /// The fixed bytes, `0` at free positions: the row of HBase's pair.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// HBase 2.x's mask: `0` where the byte is fixed, `1` where it is free.
    pub fn mask(&self) -> &[u8] {
        &self.mask[..self.len]
    }

    /// Whether `key` starts with the pattern (and, with a
    /// [tail range](Self::with_tail_range), its bytes after the pattern
    /// lie in that range).
    pub fn matches(&self, key: &[u8]) -> bool {
        matches(self.bytes(), self.mask(), key)
            && self
                .tail
                .is_none_or(|t| tail_matches(t.lo(), t.hi(), &key[self.len..]))
    }

    /// The same pattern, keeping only the keys whose bytes after it lie in
    /// `[lo, hi)` (`hi` `None`: no upper bound), compared as bytes: a range
    /// on the field after the pattern, its bounds encoded as the field
    /// stores them. This is how a range after a field left free is
    /// answered: the scan reads the free field's whole extent and keeps
    /// these rows. `None` when a bound does not fit in `N` bytes.
    ///
    /// ```
    /// use rowkey::scan::FuzzyKey;
    ///
    /// // Any 1-byte driver, then a 2-byte time in [0x0010, 0x0020).
    /// let mut fuzzy = FuzzyKey::<8>::new();
    /// fuzzy.push_free(1)?;
    /// let fuzzy = fuzzy.with_tail_range(b"\x00\x10", Some(b"\x00\x20")).unwrap();
    /// assert!(fuzzy.matches(b"\x07\x00\x10") && fuzzy.matches(b"\x09\x00\x1F\x05"));
    /// assert!(!fuzzy.matches(b"\x07\x00\x20") && !fuzzy.matches(b"\x07\x00"));
    /// assert_eq!(fuzzy.tail_range(), Some((&b"\x00\x10"[..], Some(&b"\x00\x20"[..]))));
    /// # Ok::<(), rowkey::scan::FuzzyKeyFull>(())
    /// ```
    pub fn with_tail_range(mut self, lo: &[u8], hi: Option<&[u8]>) -> Option<Self> {
        let hi = match hi {
            Some(h) => Some(KeyBuf::from_slice(h)?),
            None => None,
        };
        self.tail = Some(TailRange {
            lo: KeyBuf::from_slice(lo)?,
            hi,
            field: "",
        });
        Some(self)
    }

    /// The range the bytes after the pattern must lie in, if any: `(lo,
    /// hi)`, `lo` inclusive, `hi` exclusive (`None`: unbounded).
    pub fn tail_range(&self) -> Option<(&[u8], Option<&[u8]>)> {
        self.tail.as_ref().map(|t| (t.lo(), t.hi()))
    }

    /// The field the tail range is on, when the typed builder set it.
    pub(crate) fn tail_field(&self) -> Option<&'static str> {
        self.tail.map(|t| t.field).filter(|f| !f.is_empty())
    }

    /// Names the field the tail range is on (for `explain`).
    pub(crate) fn name_tail(&mut self, field: &'static str) {
        if let Some(t) = &mut self.tail {
            t.field = field;
        }
    }

    /// The `(row, mask)` pair for HBase's `FuzzyRowFilter` (2.x mask
    /// convention: `0` fixed, `1` free; row bytes `0` where free). HBase also
    /// accepts rows shorter than the pattern that agree with it: see
    /// [`FuzzyKey`]. A [tail range](Self::with_tail_range) is not in the
    /// pair: keep the rows that [`matches`](Self::matches) accepts.
    pub fn hbase_fuzzy_pair(&self) -> (Vec<u8>, Vec<u8>) {
        (self.bytes().to_vec(), self.mask().to_vec())
    }

    /// The RE2 pattern for Bigtable's `RowKeyRegexFilter`:
    /// `(?s)^`, `\xHH` per fixed byte, `\C` (any byte) per free one, `\C*`
    /// (or, with a [tail range](Self::with_tail_range), an expression of
    /// exactly the byte strings in that range).
    pub fn bigtable_regex(&self) -> String {
        regex(
            self.bytes(),
            self.mask(),
            self.tail.as_ref().map(|t| (t.lo(), t.hi())),
        )
    }

    /// The same pattern, owned (as a store's read request carries it:
    /// `rowkey::store::ReadRequest`).
    pub fn to_filter(&self) -> FuzzyFilter {
        FuzzyFilter {
            bytes: self.bytes().to_vec(),
            mask: self.mask().to_vec(),
            tail: self
                .tail
                .map(|t| (t.lo().to_vec(), t.hi().map(<[u8]>::to_vec))),
        }
    }
}

/// Fixed bytes as `toStringBinary` shows them, `?` per free byte (a `?`
/// key byte shows as `\x3F`): `????OK`.
impl<const N: usize> fmt::Display for FuzzyKey<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display(self.bytes(), self.mask(), f)?;
        display_tail(self.tail_range(), f)
    }
}

impl<const N: usize> fmt::Debug for FuzzyKey<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FuzzyKey(\"{self}\")")
    }
}

/// A [`FuzzyKey`] owned, of any length: what a read request carries to a
/// store. Same matching rule and backend forms.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FuzzyFilter {
    bytes: Vec<u8>,
    mask: Vec<u8>,
    /// `[lo, hi)` of the bytes after the pattern.
    tail: Option<(Vec<u8>, Option<Vec<u8>>)>,
}

impl FuzzyFilter {
    /// The pattern's length in bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the pattern is empty (it matches every key).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The fixed bytes, `0` at free positions.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// HBase 2.x's mask: `0` fixed, `1` free.
    pub fn mask(&self) -> &[u8] {
        &self.mask
    }

    /// Whether `key` starts with the pattern (and its bytes after it lie
    /// in the [tail range](Self::tail_range), if any).
    pub fn matches(&self, key: &[u8]) -> bool {
        matches(&self.bytes, &self.mask, key)
            && self
                .tail_range()
                .is_none_or(|(lo, hi)| tail_matches(lo, hi, &key[self.bytes.len()..]))
    }

    /// See [`FuzzyKey::tail_range`].
    pub fn tail_range(&self) -> Option<(&[u8], Option<&[u8]>)> {
        self.tail
            .as_ref()
            .map(|(lo, hi)| (lo.as_slice(), hi.as_deref()))
    }

    /// See [`FuzzyKey::hbase_fuzzy_pair`].
    pub fn hbase_fuzzy_pair(&self) -> (Vec<u8>, Vec<u8>) {
        (self.bytes.clone(), self.mask.clone())
    }

    /// See [`FuzzyKey::bigtable_regex`].
    pub fn bigtable_regex(&self) -> String {
        regex(&self.bytes, &self.mask, self.tail_range())
    }
}

impl<const N: usize> From<&FuzzyKey<N>> for FuzzyFilter {
    fn from(key: &FuzzyKey<N>) -> Self {
        key.to_filter()
    }
}

impl<const N: usize> From<FuzzyKey<N>> for FuzzyFilter {
    fn from(key: FuzzyKey<N>) -> Self {
        key.to_filter()
    }
}

impl fmt::Display for FuzzyFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display(&self.bytes, &self.mask, f)?;
        display_tail(self.tail_range(), f)
    }
}

impl fmt::Debug for FuzzyFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FuzzyFilter(\"{self}\")")
    }
}

/// A [`FuzzyKey`] would grow past its `N` bytes.
///
/// ```
/// use rowkey::scan::FuzzyKey;
/// let mut k = FuzzyKey::<4>::new();
/// k.push_fixed(b"abc").unwrap();
/// let e = k.push_free(2).unwrap_err();
/// assert_eq!(e.to_string(), "a fuzzy key of 3 bytes cannot take 2 more: it holds at most 4");
/// assert_eq!(k.len(), 3); // unchanged
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FuzzyKeyFull {
    /// The pattern's length before the push.
    pub len: usize,
    /// The bytes the push would have added.
    pub adding: usize,
    /// The most bytes the pattern holds (`N`).
    pub capacity: usize,
}

impl fmt::Display for FuzzyKeyFull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a fuzzy key of {} bytes cannot take {} more: it holds at most {}",
            self.len, self.adding, self.capacity
        )
    }
}

impl std::error::Error for FuzzyKeyFull {}

fn matches(bytes: &[u8], mask: &[u8], key: &[u8]) -> bool {
    key.len() >= bytes.len()
        && bytes
            .iter()
            .zip(mask)
            .zip(key)
            .all(|((&b, &m), &k)| m == FREE || b == k)
}

fn regex(bytes: &[u8], mask: &[u8], tail: Option<(&[u8], Option<&[u8]>)>) -> String {
    use fmt::Write;
    let mut re = String::with_capacity(8 + 4 * bytes.len());
    re.push_str("(?s)^");
    for (&b, &m) in bytes.iter().zip(mask) {
        if m == FREE {
            re.push_str("\\C");
        } else {
            let _ = write!(re, "\\x{b:02X}");
        }
    }
    match tail {
        Some((lo, hi)) => re.push_str(&interval_regex(lo, hi)),
        None => re.push_str("\\C*"),
    }
    re
}

/// ` then [lo, hi)` after the pattern, keys as `toStringBinary` shows them.
fn display_tail(tail: Option<(&[u8], Option<&[u8]>)>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match tail {
        Some((lo, Some(hi))) => write!(f, " then [{}, {})", KeyDisplay(lo), KeyDisplay(hi)),
        Some((lo, None)) => write!(f, " then [{}, end)", KeyDisplay(lo)),
        None => Ok(()),
    }
}

fn display(bytes: &[u8], mask: &[u8], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let mut run = 0;
    for i in 0..=bytes.len() {
        if i < bytes.len() && mask[i] == FIXED {
            continue;
        }
        let fixed = &bytes[run..i];
        // `?` would read as a free byte: show it escaped.
        for part in fixed.split_inclusive(|&b| b == b'?') {
            match part.split_last() {
                Some((b'?', head)) => write!(f, "{}\\x3F", KeyDisplay(head))?,
                _ => write!(f, "{}", KeyDisplay(part))?,
            }
        }
        if i < bytes.len() {
            f.write_str("?")?;
        }
        run = i + 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_and_refuses_overflow() {
        let mut k = FuzzyKey::<6>::new();
        assert!(k.matches(b"") && k.is_empty() && !k.has_free());
        k.push_free(2).unwrap();
        k.push_fixed(b"?\n").unwrap();
        assert_eq!(k.to_string(), r"??\x3F\x0A");
        assert_eq!(
            format!("{:?}", k.to_filter()),
            r#"FuzzyFilter("??\x3F\x0A")"#
        );
        assert_eq!(
            k.push_fixed(b"abc"),
            Err(FuzzyKeyFull {
                len: 4,
                adding: 3,
                capacity: 6
            })
        );
        assert!(k.push_free(usize::MAX).is_err());
        assert_eq!(k.len(), 4);
        assert_eq!(k.bigtable_regex(), r"(?s)^\C\C\x3F\x0A\C*");
        assert!(k.matches(b"\xFF\x00?\n") && k.matches(b"xy?\nz"));
        assert!(!k.matches(b"xy?") && !k.matches(b"xy?\r"));
        assert_eq!(k.to_filter().bigtable_regex(), k.bigtable_regex());
    }
}
