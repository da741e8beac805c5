//! Hash prefixes: the first characters (or bytes) of a hash of one field in
//! front of the key, as in `md5_hex(uid)[0..6] + uid`. Point reads compute
//! the prefix from the field; range scans across that field are given up.

use super::hash::{default_hash, md5_digest};
use crate::error::DecodeErrorKind;
use crate::{DecodeError, EncodeError, KeyReader, KeyWriter};

/// The name errors give the hash prefix, which is not a field.
pub const HASH_PREFIX_FIELD: &str = "<hash_prefix>";

/// The hash behind a prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PrefixHash {
    /// MD5 (16 bytes, 32 hex characters): the common Java practice.
    Md5,
    /// [`default_hash`](super::default_hash) (4 bytes, 8 hex characters).
    Default,
}

impl PrefixHash {
    /// Digest bytes available.
    pub const fn digest_len(self) -> usize {
        match self {
            PrefixHash::Md5 => 16,
            PrefixHash::Default => 4,
        }
    }

    fn digest(self, bytes: &[u8]) -> [u8; 16] {
        match self {
            PrefixHash::Md5 => md5_digest(&[bytes]),
            PrefixHash::Default => {
                let mut d = [0; 16];
                d[..4].copy_from_slice(&default_hash(&[bytes]).to_be_bytes());
                d
            }
        }
    }
}

/// The hash prefix of a derived key.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct Profile {
///     #[hash_prefix(len = 6)]
///     #[max_len(32)]
///     uid: String,
/// }
///
/// let key = Profile { uid: "foo0001".into() }.to_key().unwrap();
/// assert_eq!(&*key, b"95f18cfoo0001");
/// assert_eq!(Profile::decode(&key).unwrap().uid, "foo0001");
/// assert!(Profile::decode(b"000000foo0001").is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct HashPrefixPlan {
    /// Hex characters (or bytes, when `binary`) kept.
    pub len: usize,
    /// Raw digest bytes instead of lower-case hex.
    pub binary: bool,
    /// The hash.
    pub hash: PrefixHash,
    /// The field hashed (its bytes as the key stores them).
    pub field: &'static str,
    /// Written after the prefix (the struct's separator, for text keys).
    pub separator: Option<u8>,
}

impl HashPrefixPlan {
    /// Bytes before the first field.
    #[inline]
    pub const fn prefix_len(&self) -> usize {
        self.len + if self.separator.is_some() { 1 } else { 0 }
    }

    /// The prefix of a field whose key bytes are `bytes`.
    #[inline]
    pub fn render(&self, bytes: &[u8], out: &mut [u8]) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let d = self.hash.digest(bytes);
        for (i, o) in out[..self.len].iter_mut().enumerate() {
            *o = if self.binary {
                d[i]
            } else {
                let b = d[i / 2];
                HEX[usize::from(if i % 2 == 0 { b >> 4 } else { b & 0xF })]
            };
        }
    }

    /// Writes a placeholder prefix and the separator.
    #[inline]
    pub fn reserve(&self, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
        w.field(HASH_PREFIX_FIELD);
        w.reserve(self.len)?;
        if let Some(sep) = self.separator {
            w.put_byte(sep)?;
        }
        Ok(())
    }

    /// Fills in the prefix once the field at `start..end` is written.
    #[inline]
    pub fn write(&self, w: &mut KeyWriter<'_>, start: usize, end: usize) {
        let mut digest_out = [0u8; 32];
        self.render(&w.written_since(start)[..end - start], &mut digest_out);
        w.written_since(0)[..self.len].copy_from_slice(&digest_out[..self.len]);
    }

    /// Reads the prefix and its separator.
    #[inline]
    pub fn take<'de>(&self, r: &mut KeyReader<'de>) -> Result<&'de [u8], DecodeError> {
        r.field(HASH_PREFIX_FIELD);
        let p = r.take(self.len)?;
        if let Some(sep) = self.separator {
            r.expect_separator(sep)?;
        }
        Ok(p)
    }

    /// Checks a stored prefix against the field's bytes.
    #[inline]
    pub fn verify(
        &self,
        key: &'static str,
        stored: &[u8],
        field_bytes: &[u8],
    ) -> Result<(), DecodeError> {
        let mut want = [0u8; 32];
        self.render(field_bytes, &mut want);
        if stored == &want[..self.len] {
            Ok(())
        } else {
            Err(DecodeError::new(
                key,
                HASH_PREFIX_FIELD,
                0,
                DecodeErrorKind::HashPrefixMismatch,
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(len: usize) -> HashPrefixPlan {
        HashPrefixPlan {
            len,
            binary: false,
            hash: PrefixHash::Md5,
            field: "id",
            separator: None,
        }
    }

    #[test]
    fn seed_prefixes() {
        // The common Java hash prefix: the first 6 hex characters of the
        // md5 of the row.
        for (row, prefix) in [
            ("foo0001", "95f18c"),
            ("foo0002", "6ccc20"),
            ("foo0003", "b61d00"),
            ("foo0004", "1a7475"),
        ] {
            let mut out = [0u8; 6];
            hex(6).render(row.as_bytes(), &mut out);
            assert_eq!(&out, prefix.as_bytes(), "{row}");
        }
    }

    #[test]
    fn odd_lengths_and_binary() {
        let mut out = [0u8; 32];
        hex(5).render(b"foo0001", &mut out);
        assert_eq!(&out[..5], b"95f18");
        let bin = HashPrefixPlan {
            binary: true,
            len: 2,
            ..hex(2)
        };
        bin.render(b"foo0001", &mut out);
        assert_eq!(&out[..2], &[0x95, 0xf1]);
    }
}
