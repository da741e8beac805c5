//! Self-delimiting variable-length bytes, the CockroachDB/memcomparable way:
//! every `0x00` in the value is written `0x00 0xFF`, and the value ends with
//! the terminator `0x00 0x01`.
//!
//! Why this works: the encoding is *prefix-free* (no value's encoding is a
//! prefix of another's), and byte order follows value order: where two
//! values first differ, a data byte beats the terminator and an escaped
//! `0x00` (`00 FF`) beats the terminator (`00 01`). So `("a", "bc")` and
//! `("ab", "c")` differ, and inverting every byte (`#[desc]`) gives exactly
//! the reverse order, because no encoding is a prefix of another.
//!
//! ```
//! use rowkey::codec::escaped;
//! use rowkey::{KeyReader, KeyWriter};
//! let mut out = [0u8; 16];
//! let mut w = KeyWriter::new(&mut out, "Demo");
//! escaped::put(&mut w, b"a\0b").unwrap();
//! let n = w.finish();
//! assert_eq!(&out[..n], b"a\x00\xFFb\x00\x01");
//! assert_eq!(n, escaped::escaped_len(b"a\0b"));
//! let mut r = KeyReader::new(&out[..n], "Demo");
//! assert_eq!(escaped::take(&mut r, 0).unwrap(), b"a\0b");
//! ```

use super::byte_search::find_byte;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::reader::KeyReader;
use crate::writer::KeyWriter;

/// `0x00` in the value is written as these two bytes.
pub const ESCAPED_ZERO: [u8; 2] = [0x00, 0xFF];
/// The end of an escaped value.
pub const TERMINATOR: [u8; 2] = [0x00, 0x01];

/// Length of `value` once escaped and terminated.
#[inline]
pub fn escaped_len(value: &[u8]) -> usize {
    value.len() + value.iter().filter(|&&b| b == 0).count() + TERMINATOR.len()
}

/// The most bytes a value of at most `max` bytes takes.
pub const fn max_escaped_len(max: usize) -> usize {
    2 * max + TERMINATOR.len()
}

/// Writes `value` escaped and terminated.
///
/// Always inlined: it is the body of every escaped field's encode, and a
/// call would move the writer out of registers.
#[inline(always)]
pub fn put(w: &mut KeyWriter<'_>, value: &[u8]) -> Result<(), EncodeError> {
    put_unterminated(w, value)?;
    w.put(&TERMINATOR)
}

/// Writes `value` escaped, without the terminator: what every escaped
/// value that starts with `value` starts with.
#[inline(always)]
pub fn put_unterminated(w: &mut KeyWriter<'_>, value: &[u8]) -> Result<(), EncodeError> {
    let mut rest = value;
    while let Some(zero) = find_byte(rest, 0) {
        w.put(&rest[..zero])?;
        w.put(&ESCAPED_ZERO)?;
        rest = &rest[zero + 1..];
    }
    w.put(rest)
}

/// Escapes, in place, the raw bytes written since `start` and terminates
/// them (used when the value was transformed in the buffer first).
pub fn escape_written(w: &mut KeyWriter<'_>, start: usize) -> Result<(), EncodeError> {
    let raw_len = w.written_since(start).len();
    let zeros = w.written_since(start).iter().filter(|&&b| b == 0).count();
    w.reserve(zeros)?;
    let buf = w.written_since(start);
    // Walk backwards so that nothing is overwritten before it is moved.
    let mut dst = raw_len + zeros;
    for src in (0..raw_len).rev() {
        let b = buf[src];
        if b == 0 {
            dst -= 2;
            buf[dst..dst + 2].copy_from_slice(&ESCAPED_ZERO);
        } else {
            dst -= 1;
            buf[dst] = b;
        }
    }
    w.put(&TERMINATOR)
}

/// Reads one escaped value written with every byte XORed with `mask`
/// (`0xFF` for descending fields), and returns it unescaped.
///
/// Always inlined: `mask` is a constant where generated code calls it
/// (through `BytesCodec`), and the search loop specialises on it.
#[inline(always)]
pub fn take(r: &mut KeyReader<'_>, mask: u8) -> Result<Vec<u8>, DecodeError> {
    let start = r.position();
    let input = r.remaining();
    let mut out = Vec::with_capacity(input.len().min(64));
    // Copy the runs between stored zeros (`mask`) whole, as a search and
    // one copy each, not byte by byte.
    let mut i = 0;
    while let Some(run) = find_byte(&input[i..], mask) {
        let zero = i + run;
        let bytes = &input[i..zero];
        if mask == 0 {
            out.extend_from_slice(bytes);
        } else {
            out.extend(bytes.iter().map(|b| b ^ mask));
        }
        match input.get(zero + 1).map(|&n| n ^ mask) {
            Some(0xFF) => {
                out.push(0);
                i = zero + 2;
            }
            Some(0x01) => {
                r.take(zero + 2)?;
                return Ok(out);
            }
            Some(byte) => {
                return Err(r.error_at(start + zero + 1, DecodeErrorKind::InvalidEscape { byte }))
            }
            None => break,
        }
    }
    Err(r.error_at(start, DecodeErrorKind::Unterminated))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn enc(v: &[u8]) -> Vec<u8> {
        let mut out = vec![0u8; max_escaped_len(v.len())];
        let mut w = KeyWriter::new(&mut out, "T");
        put(&mut w, v).unwrap();
        let n = w.finish();
        out.truncate(n);
        assert_eq!(n, escaped_len(v));
        out
    }

    fn enc_in_place(v: &[u8]) -> Vec<u8> {
        let mut out = vec![0u8; max_escaped_len(v.len()) + 1];
        let mut w = KeyWriter::new(&mut out, "T");
        w.put(b"k").unwrap();
        w.put(v).unwrap();
        escape_written(&mut w, 1).unwrap();
        let n = w.finish();
        out[1..n].to_vec()
    }

    #[test]
    fn golden() {
        assert_eq!(enc(b""), [0, 1]);
        assert_eq!(enc(b"a"), [b'a', 0, 1]);
        assert_eq!(enc(b"a\0b"), [b'a', 0, 0xFF, b'b', 0, 1]);
        assert_eq!(enc(b"\0"), [0, 0xFF, 0, 1]);
    }

    #[test]
    fn no_collision_across_fields() {
        let mut ab = enc(b"a");
        ab.extend(enc(b"bc"));
        let mut ba = enc(b"ab");
        ba.extend(enc(b"c"));
        assert_ne!(ab, ba);
        assert!(ab < ba);
    }

    #[test]
    fn bad_input() {
        let mut r = KeyReader::new(&[b'a', 0, 7], "T");
        assert_eq!(
            take(&mut r, 0).unwrap_err().kind(),
            DecodeErrorKind::InvalidEscape { byte: 7 }
        );
        let mut r = KeyReader::new(b"abc", "T");
        assert_eq!(
            take(&mut r, 0).unwrap_err().kind(),
            DecodeErrorKind::Unterminated
        );
    }

    /// Short runs of the bytes the escape and the word-at-a-time search
    /// turn on (0x00, 0x01, 0xFE, 0xFF), long enough to span several
    /// eight-byte words.
    fn edge_bytes() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            proptest::collection::vec(0u8..4, 0..8),
            proptest::collection::vec(
                prop_oneof![Just(0u8), Just(1), Just(0xFE), Just(0xFF), any::<u8>()],
                0..40
            ),
        ]
    }

    proptest! {
        #[test]
        fn roundtrip_order_prefix_free(a in edge_bytes(), b in edge_bytes(), tail: u8) {
            let (ea, eb) = (enc(&a), enc(&b));
            prop_assert_eq!(enc_in_place(&a), ea.clone());
            let mut input = ea.clone();
            input.push(tail);
            let mut r = KeyReader::new(&input, "T");
            prop_assert_eq!(take(&mut r, 0).unwrap(), a.clone());
            prop_assert_eq!(r.remaining(), &[tail][..]);
            prop_assert_eq!(a.cmp(&b), ea.cmp(&eb));
            if a != b {
                prop_assert!(!eb.starts_with(&ea));
            }
            // Inverted (descending) order is exactly the reverse.
            let inv = |v: &[u8]| v.iter().map(|b| !b).collect::<Vec<u8>>();
            let (ia, ib) = (inv(&ea), inv(&eb));
            prop_assert_eq!(b.cmp(&a), ia.cmp(&ib));
            let mut r = KeyReader::new(&ia, "T");
            prop_assert_eq!(take(&mut r, 0xFF).unwrap(), a);
        }

        #[test]
        fn arbitrary_bytes_never_panic(b in edge_bytes(), mask: bool) {
            let mask = if mask { 0xFF } else { 0 };
            let mut r = KeyReader::new(&b, "T");
            // Canonical: whatever decodes re-encodes to the bytes it used.
            if let Ok(v) = take(&mut r, mask) {
                let used = b.len() - r.remaining().len();
                let stored: Vec<u8> = enc(&v).iter().map(|x| x ^ mask).collect();
                prop_assert_eq!(&b[..used], &stored[..]);
            }
        }
    }
}
