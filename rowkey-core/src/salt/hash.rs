//! The hash functions a salt or hash prefix can use. Each is part of the
//! stored format: a key written today must get the same bucket on every
//! machine and in every future release, so each is specified exactly here
//! and frozen by golden vectors in the tests below.

use md5::{Digest, Md5};

/// rowkey's default salt hash: 32-bit FNV-1a over the bytes, then the
/// MurmurHash3 32-bit finaliser (`fmix32`) so that every output bit depends
/// on every input bit (FNV-1a alone leaves the low bits, which `% N` keeps,
/// weakly mixed for keys that differ only in their last byte).
///
/// ```text
/// h = 0x811C9DC5
/// for b in bytes: h = (h ^ b) * 0x01000193          (wrapping u32)
/// h ^= h >> 16; h *= 0x85EBCA6B; h ^= h >> 13; h *= 0xC2B2AE35; h ^= h >> 16
/// ```
///
/// ```
/// use rowkey::salt::default_hash;
/// assert_eq!(default_hash(&[b"foo0001"]), default_hash(&[b"foo", b"0001"]));
/// ```
#[inline]
pub fn default_hash(parts: &[&[u8]]) -> u32 {
    let mut h: u32 = 0x811C_9DC5;
    for part in parts {
        for &b in *part {
            h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
    }
    fmix32(h)
}

/// MurmurHash3's 32-bit finaliser.
const fn fmix32(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85EB_CA6B);
    h ^= h >> 13;
    h = h.wrapping_mul(0xC2B2_AE35);
    h ^ (h >> 16)
}

/// Java's `String.hashCode` of the text the bytes hold: `h = 31 * h + c`
/// (wrapping `int`) over the UTF-16 code units. Bytes that are not UTF-8
/// count as U+FFFD each maximal invalid run, as Rust's lossy decoding reads
/// them (Java's `new String(bytes, UTF_8)` agrees on valid input, which is
/// all a text key holds).
///
/// ```
/// use rowkey::salt::java_string_hash;
/// assert_eq!(java_string_hash(&[b"5678"]), 1632578);
/// assert_eq!(java_string_hash(&[b"polygenelubricants"]), i32::MIN);
/// ```
#[inline]
pub fn java_string_hash(parts: &[&[u8]]) -> i32 {
    let mut h: i32 = 0;
    let mut units = [0u16; 2];
    for part in parts {
        for chunk in part.utf8_chunks() {
            for c in chunk.valid().chars() {
                for &u in c.encode_utf16(&mut units).iter() {
                    h = h.wrapping_mul(31).wrapping_add(i32::from(u));
                }
            }
            if !chunk.invalid().is_empty() {
                h = h.wrapping_mul(31).wrapping_add(0xFFFD);
            }
        }
    }
    h
}

/// Java's `s.hashCode()` of a string: [`java_string_hash`] of its bytes.
/// For formulas such as the seed's call records,
/// `Math.abs(last4(tel).hashCode() ^ yyyyMM(time).hashCode()) % 6`:
///
/// ```
/// use rowkey::salt::{java_abs_mod, java_hash_code};
/// let h = java_hash_code("5678") ^ java_hash_code("202112");
/// assert_eq!(java_abs_mod(h, 6), 2);
/// ```
#[inline]
pub fn java_hash_code(s: &str) -> i32 {
    java_string_hash(&[s.as_bytes()])
}

/// `Math.abs(h) % n` as Java computes it, except for the one `h` where
/// Java's answer is negative: `Math.abs(Integer.MIN_VALUE)` is
/// `Integer.MIN_VALUE`, so the Java idiom yields `-(2^31 % n)`, a bucket
/// outside `0..n` (for `n` not a power of two). This returns `2^31 % n`
/// there, which is `Math.abs(h % n)`: the bucket is always in range.
///
/// ```
/// use rowkey::salt::java_abs_mod;
/// assert_eq!(java_abs_mod(-7, 6), 1);
/// assert_eq!(java_abs_mod(i32::MIN, 6), 2); // Java's Math.abs(h) % 6 is -2
/// ```
#[inline]
pub const fn java_abs_mod(h: i32, n: u32) -> u32 {
    // |h| as u32 is exact for every i32, MIN included (2^31).
    h.unsigned_abs() % n
}

/// Apache Phoenix's salt hash (`SaltingUtil.calculateSaltingByte`): over
/// every key byte after the salt byte, `h = 1; h = 31 * h + (byte as i8)`
/// (wrapping `int`, bytes signed as Java's are).
#[inline]
pub fn phoenix_hash(bytes: &[u8]) -> i32 {
    bytes.iter().fold(1i32, |h, &b| {
        h.wrapping_mul(31).wrapping_add(i32::from(b as i8))
    })
}

/// Phoenix's salt byte for `n` buckets: `(byte) Math.abs(h % n)`. Releases
/// before 4.x used `Math.abs(h) % n`, which differs only for
/// `h == Integer.MIN_VALUE`; this is the current formula.
///
/// ```
/// use rowkey::salt::{phoenix_bucket, phoenix_hash};
/// assert_eq!(phoenix_hash(b""), 1);
/// assert_eq!(phoenix_bucket(phoenix_hash(b"a"), 16), (31 + 97) % 16);
/// ```
#[inline]
pub const fn phoenix_bucket(h: i32, n: u32) -> u32 {
    // Java's `%` truncates toward zero, as Rust's does; |h % n| < n.
    (h % n as i32).unsigned_abs()
}

/// The MD5 digest of the concatenated parts.
pub fn md5_digest(parts: &[&[u8]]) -> [u8; 16] {
    let mut md5 = Md5::new();
    for part in parts {
        md5.update(part);
    }
    md5.finalize().into()
}

/// The salt value of the `md5` hash: the digest's first four bytes as a
/// big-endian `u32`.
#[inline]
pub fn md5_hash(parts: &[&[u8]]) -> u32 {
    let d = md5_digest(parts);
    u32::from_be_bytes([d[0], d[1], d[2], d[3]])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frozen: these values are part of the stored format. They were
    /// computed by an independent Python transcription of the spec above.
    #[test]
    fn default_hash_golden() {
        let golden: &[(&[u8], u32)] = &[
            (b"", 0xAB3E_7C0B),
            (b"a", 0x1A80_B1B3),
            (b"foo0001", 0x74C0_EAEB),
            (b"\x00\x00\x00\x00\x00\x00\x00\x01", 0xB660_9E24),
        ];
        for (input, want) in golden {
            assert_eq!(default_hash(&[input]), *want, "{:?}", input);
        }
    }

    #[test]
    fn java_hash_matches_java_vectors() {
        assert_eq!(java_string_hash(&[b""]), 0);
        assert_eq!(java_string_hash(&[b"a"]), 97);
        assert_eq!(java_string_hash(&[b"202112"]), 1_477_324_766);
        assert_eq!(java_string_hash(&[b"zhangsan12"]), 1_951_525_269);
        // A character outside the BMP counts as two UTF-16 units.
        let smile = "\u{1F600}".as_bytes();
        assert_eq!(java_string_hash(&[smile]), 0xD83D * 31 + 0xDE00);
    }

    #[test]
    fn java_abs_mod_stays_in_range() {
        for n in [1u32, 2, 6, 7, 120, 256, 65536] {
            for h in [i32::MIN, i32::MIN + 1, -1, 0, 1, i32::MAX] {
                assert!(java_abs_mod(h, n) < n);
                if h != i32::MIN {
                    assert_eq!(java_abs_mod(h, n) as i64, (h as i64).abs() % n as i64);
                }
            }
        }
    }

    #[test]
    fn phoenix_bucket_matches_java_semantics() {
        for n in [1u32, 2, 16, 255, 256] {
            for h in [i32::MIN, -1000, -1, 0, 1, i32::MAX] {
                let java = ((h as i64) % n as i64).abs();
                assert_eq!(phoenix_bucket(h, n) as i64, java);
            }
        }
        // Signed bytes: 0xFF counts as -1.
        assert_eq!(phoenix_hash(&[0xFF]), 31 - 1);
    }

    #[test]
    fn md5_of_seed_prefix() {
        let d = md5_digest(&[b"foo0001"]);
        assert_eq!(&d[..3], &[0x95, 0xf1, 0x8c]);
    }
}
