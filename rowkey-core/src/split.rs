//! Split keys: the row keys that pre-split a table into regions (HBase) or
//! tablets (Bigtable), from a salted layout or from HBase
//! `RegionSplitter`'s algorithms, and their renderings for the HBase shell,
//! `cbt` and plain lists.

use crate::key_text::hbase_string;
use crate::render::{ansi_c_body, ruby_single_quoted, shell_word, UnrenderableKey};
use crate::KeyDisplay;
use core::fmt;

/// Split keys in ascending order; `n` keys make `n + 1` regions.
///
/// ```
/// use rowkey::split::SplitKeys;
/// let s = SplitKeys::hex_string(4);
/// assert_eq!(s.to_string(), "40000000\n80000000\nc0000000\n");
/// assert_eq!(
///     s.hbase_shell("t", "cf"),
///     r#"create 't', 'cf', SPLITS => ["40000000", "80000000", "c0000000"]"#
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct SplitKeys {
    keys: Vec<Vec<u8>>,
}

impl SplitKeys {
    /// Split keys from any keys: sorted, duplicates and the empty key
    /// (which is no boundary) dropped.
    pub fn new(keys: impl IntoIterator<Item = Vec<u8>>) -> Self {
        let mut keys: Vec<Vec<u8>> = keys.into_iter().filter(|k| !k.is_empty()).collect();
        keys.sort();
        keys.dedup();
        SplitKeys { keys }
    }

    /// HBase's `HexStringSplit` for `regions` regions: the space
    /// `00000000..=ffffffff` cut every `2^32 / regions`, as 8 lower-case hex
    /// digits. Suits keys that start with hex hash characters.
    pub fn hex_string(regions: u32) -> Self {
        Self::number_string(regions, 16, 8)
    }

    /// HBase's `DecimalStringSplit`: `00000000..=99999999` cut every
    /// `10^8 / regions`, as 8 decimal digits.
    pub fn decimal_string(regions: u32) -> Self {
        Self::number_string(regions, 10, 8)
    }

    fn number_string(regions: u32, radix: u32, digits: u32) -> Self {
        let range = u64::from(radix).pow(digits);
        // As HBase requires: no more regions than keys in the range.
        let regions = u64::from(regions.max(1)).min(range);
        let step = range / regions;
        let keys = (1..regions)
            .map(|i| {
                let mut v = step * i;
                let mut out = vec![b'0'; digits as usize];
                for o in out.iter_mut().rev() {
                    *o = b"0123456789abcdef"[(v % u64::from(radix)) as usize];
                    v /= u64::from(radix);
                }
                out
            })
            .collect();
        SplitKeys { keys }
    }

    /// HBase's `UniformSplit`: 8-byte keys cutting `00..=FF` (8 bytes)
    /// every `2^64 / regions`. Suits keys that start with binary hash bytes.
    pub fn uniform(regions: u32) -> Self {
        let regions = u128::from(regions.max(1));
        let step = (1u128 << 64) / regions;
        let keys = (1..regions)
            .map(|i| ((step * i) as u64).to_be_bytes().to_vec())
            .collect();
        SplitKeys { keys }
    }

    /// The keys.
    pub fn keys(&self) -> &[Vec<u8>] {
        &self.keys
    }

    /// How many keys (regions minus one).
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// No keys: one region.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The keys in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Vec<u8>> {
        self.keys.iter()
    }

    /// The region (`0..=len()`) holding `key`: region `i` spans
    /// `[keys[i-1], keys[i])`.
    pub fn region_of(&self, key: &[u8]) -> usize {
        self.keys.partition_point(|k| k.as_slice() <= key)
    }

    /// The HBase shell command that creates `table` with family `family`
    /// pre-split on these keys. Keys print as `toStringBinary` does, inside
    /// double quotes so the shell (JRuby) reads `\xNN` back as bytes; `"`
    /// and `#` are escaped for Ruby.
    pub fn hbase_shell(&self, table: &str, family: &str) -> String {
        let keys: Vec<String> = self.keys.iter().map(|k| hbase_string(k)).collect();
        format!(
            "create {}, {}, SPLITS => [{}]",
            ruby_single_quoted(table),
            ruby_single_quoted(family),
            keys.join(", ")
        )
    }

    /// The `cbt` command that creates `table` with family `family`
    /// pre-split on these keys, quoted for a POSIX shell (`$'..'` with
    /// `\xNN` escapes where a key holds bytes that are not printable). A
    /// key holding `,` (cbt's list separator) or `0x00` (which no argument
    /// can carry), or a family holding `,` or `:` (cbt reads what follows
    /// a `:` as a GC policy), is an error: create such tables with the
    /// admin API (rowkey-bigtable's `BigtableAdmin`).
    pub fn cbt(&self, table: &str, family: &str) -> Result<String, UnrenderableKey> {
        let mut arg = String::from("splits=");
        for (i, k) in self.keys.iter().enumerate() {
            if k.contains(&b',') {
                return Err(UnrenderableKey {
                    tool: "cbt",
                    key: KeyDisplay(k).to_string(),
                    reason: "it holds ',', which cbt's splits= list cannot carry",
                });
            }
            if i > 0 {
                arg.push(',');
            }
            ansi_c_body(k, &mut arg)?;
        }
        if family.contains(',') {
            return Err(UnrenderableKey {
                tool: "cbt",
                key: family.to_string(),
                reason: "the family name holds ',', which cbt's families= list cannot carry",
            });
        }
        if family.contains(':') {
            // `families=cf:maxversions=1` is family `cf` with a GC policy.
            return Err(UnrenderableKey {
                tool: "cbt",
                key: family.to_string(),
                reason: "the family name holds ':', which cbt's families= list reads as the \
                         start of a GC policy (cf:maxversions=1)",
            });
        }
        Ok(format!(
            "cbt createtable {} {} $'{arg}'",
            shell_word("", table)?,
            shell_word("families=", family)?
        ))
    }
}

/// One key per line, as `toStringBinary` shows it.
impl fmt::Display for SplitKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for k in &self.keys {
            writeln!(f, "{}", KeyDisplay(k))?;
        }
        Ok(())
    }
}

impl<'a> IntoIterator for &'a SplitKeys {
    type Item = &'a Vec<u8>;
    type IntoIter = std::slice::Iter<'a, Vec<u8>>;
    fn into_iter(self) -> Self::IntoIter {
        self.keys.iter()
    }
}

impl IntoIterator for SplitKeys {
    type Item = Vec<u8>;
    type IntoIter = std::vec::IntoIter<Vec<u8>>;
    fn into_iter(self) -> Self::IntoIter {
        self.keys.into_iter()
    }
}

impl FromIterator<Vec<u8>> for SplitKeys {
    fn from_iter<I: IntoIterator<Item = Vec<u8>>>(iter: I) -> Self {
        SplitKeys::new(iter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn region_splitter_algorithms() {
        // HexStringSplit: 2^32 / 3 = 0x55555555.
        let hex: Vec<_> = SplitKeys::hex_string(3).into_iter().collect();
        assert_eq!(hex, [b"55555555".to_vec(), b"aaaaaaaa".to_vec()]);
        let dec: Vec<_> = SplitKeys::decimal_string(4).into_iter().collect();
        assert_eq!(
            dec,
            [
                b"25000000".to_vec(),
                b"50000000".to_vec(),
                b"75000000".to_vec()
            ]
        );
        let uni = SplitKeys::uniform(2);
        assert_eq!(uni.keys(), [vec![0x80, 0, 0, 0, 0, 0, 0, 0]]);
        assert_eq!(SplitKeys::uniform(256).len(), 255);
        assert_eq!(SplitKeys::uniform(256).keys()[0], [1, 0, 0, 0, 0, 0, 0, 0]);
        assert!(SplitKeys::hex_string(1).is_empty());
    }

    #[test]
    fn renderers_escape() {
        let s = SplitKeys::new([vec![1], b"a\"#b".to_vec(), b"x'y".to_vec()]);
        assert_eq!(
            s.hbase_shell("t", "cf"),
            r#"create 't', 'cf', SPLITS => ["\x01", "a\"\#b", "x'y"]"#
        );
        assert_eq!(
            s.cbt("t", "cf").unwrap(),
            r##"cbt createtable t families=cf $'splits=\x01,a"#b,x\'y'"##
        );
        let bad = SplitKeys::new([b"a,b".to_vec()]);
        assert_eq!(bad.cbt("t", "cf").unwrap_err().key, "a,b");
        // The issue's case: a binary split 00 05 would be cut at the NUL.
        let nul = SplitKeys::new([vec![0x00, 0x05], vec![0x01]]);
        assert!(nul.cbt("t", "cf").unwrap_err().reason.contains("0x00"));
    }

    /// `families=cf:maxversions=1` is what cbt reads as family `cf` with
    /// a GC policy: a family holding `:` is refused, as one holding `,`.
    #[test]
    fn cbt_refuses_a_family_with_a_colon() {
        let s = SplitKeys::new([b"a".to_vec()]);
        let e = s.cbt("t", "cf:maxversions=1").unwrap_err();
        assert_eq!(e.key, "cf:maxversions=1");
        assert!(e.reason.contains("':'"), "{}", e.reason);
        assert!(e.reason.contains("GC policy"), "{}", e.reason);
        assert!(s.cbt("t", "cf,x").is_err());
        assert!(s.cbt("t", "cf").is_ok());
    }

    /// A name holding CR LF once went into the shell's single quotes as
    /// is: the line ended there, and the shell read the rest as another
    /// command. Control characters are escaped in a double-quoted string.
    #[test]
    fn hbase_shell_escapes_control_characters_in_names() {
        let s = SplitKeys::new([b"a".to_vec()]);
        let shell = s.hbase_shell("t\r\nx", "c\u{7}f\u{85}\"#{x}");
        assert_eq!(
            shell,
            r#"create "t\x0D\x0Ax", "c\x07f\xC2\x85\"\#{x}", SPLITS => ["a"]"#
        );
        assert!(!shell.chars().any(char::is_control), "{shell:?}");
        assert_eq!(
            s.hbase_shell("t'", "cf"),
            r#"create 't\'', 'cf', SPLITS => ["a"]"#
        );
    }

    #[test]
    fn regions() {
        let s = SplitKeys::new([b"1".to_vec(), b"2".to_vec()]);
        assert_eq!(s.region_of(b"0zzz"), 0);
        assert_eq!(s.region_of(b"1"), 1);
        assert_eq!(s.region_of(b"2"), 2);
    }
}
