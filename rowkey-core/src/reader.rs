//! [`KeyReader`]: the cursor every codec reads through.

use crate::error::{DecodeError, DecodeErrorKind};

/// A bounds-checked cursor over the bytes of one key.
///
/// Reads borrow from the input (`&'de [u8]`), so borrowed fields decode
/// without a copy. Running past the end is
/// [`DecodeErrorKind::UnexpectedEnd`], never a panic.
///
/// ```
/// use rowkey::KeyReader;
/// let mut r = KeyReader::new(b"abc", "Demo");
/// r.field("a");
/// assert_eq!(r.take(2).unwrap(), b"ab");
/// assert!(r.take(2).is_err());
/// ```
#[derive(Debug, Clone)]
pub struct KeyReader<'de> {
    input: &'de [u8],
    pos: usize,
    base: usize,
    key: &'static str,
    field: &'static str,
}

impl<'de> KeyReader<'de> {
    /// A reader at the start of `input`, for key struct `key`.
    pub fn new(input: &'de [u8], key: &'static str) -> Self {
        KeyReader {
            input,
            pos: 0,
            base: 0,
            key,
            field: "",
        }
    }

    /// A reader over `scratch`, a transformed copy (un-inverted, reversed)
    /// of this reader's bytes that start at `offset`; its errors report
    /// offsets in the original key.
    pub fn nested<'s>(&self, scratch: &'s [u8], offset: usize) -> KeyReader<'s> {
        KeyReader {
            input: scratch,
            pos: 0,
            base: self.base + offset,
            key: self.key,
            field: self.field,
        }
    }

    /// Names the field whose bytes come next (for errors).
    #[inline]
    pub fn field(&mut self, name: &'static str) {
        self.field = name;
    }

    /// Bytes read so far.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The unread bytes, without consuming them.
    #[inline]
    pub fn remaining(&self) -> &'de [u8] {
        &self.input[self.pos..]
    }

    /// An error of `kind` at the current position.
    //
    // Inlined, handing plain values to an out-of-line constructor: a
    // reader whose address reached a call would have to live in memory
    // on the hot path too; this way it stays in registers.
    #[inline(always)]
    pub fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        self.error_at(self.pos, kind)
    }

    /// An error of `kind` at byte `offset` of this reader's input.
    #[inline(always)]
    pub fn error_at(&self, offset: usize, kind: DecodeErrorKind) -> DecodeError {
        decode_error(self.key, self.field, self.base.wrapping_add(offset), kind)
    }

    /// The next `n` bytes.
    #[inline]
    pub fn take(&mut self, n: usize) -> Result<&'de [u8], DecodeError> {
        // One bounds check: an end past the input (or an overflowing one,
        // which wraps below `pos`) finds no slice.
        let end = self.pos.wrapping_add(n);
        match self.input.get(self.pos..end) {
            Some(bytes) => {
                self.pos = end;
                Ok(bytes)
            }
            None => Err(self.error(DecodeErrorKind::UnexpectedEnd {
                needed: n.saturating_sub(self.input.len().saturating_sub(self.pos)),
            })),
        }
    }

    /// The next byte.
    #[inline]
    pub fn take_byte(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take(1)?[0])
    }

    /// The next `N` bytes, copied into an array.
    #[inline]
    pub fn take_array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let bytes = self.take(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(bytes);
        Ok(a)
    }

    /// Everything left.
    #[inline]
    pub fn take_rest(&mut self) -> &'de [u8] {
        let rest = self.remaining();
        self.pos = self.input.len();
        rest
    }

    /// Consumes `byte` or fails with [`DecodeErrorKind::MissingSeparator`].
    #[inline]
    pub fn expect_separator(&mut self, byte: u8) -> Result<(), DecodeError> {
        match self.remaining().first() {
            Some(&b) if b == byte => {
                self.pos += 1;
                Ok(())
            }
            Some(&found) => Err(self.error(DecodeErrorKind::MissingSeparator {
                expected: byte,
                found,
            })),
            None => Err(self.error(DecodeErrorKind::UnexpectedEnd { needed: 1 })),
        }
    }

    /// Ends the key: unread bytes are [`DecodeErrorKind::TrailingBytes`].
    #[inline]
    pub fn finish(&self) -> Result<(), DecodeError> {
        let count = self.input.len().saturating_sub(self.pos);
        if count == 0 {
            Ok(())
        } else {
            Err(self.trailing(count))
        }
    }

    #[inline(always)]
    fn trailing(&self, count: usize) -> DecodeError {
        decode_error(
            self.key,
            "",
            self.base.wrapping_add(self.pos),
            DecodeErrorKind::TrailingBytes { count },
        )
    }
}

/// [`wrong_length`] of a key decoded by `decode`, which is run once on
/// `bytes` to find the field at fault: the cold path of
/// [`decode_fields`], out of line.
#[cold]
#[inline(never)]
fn wrong_length_of<'k, T>(
    key: &'static str,
    fixed: usize,
    bytes: &'k [u8],
    decode: fn(&'k [u8]) -> Result<T, DecodeError>,
) -> DecodeError {
    wrong_length(key, fixed, bytes.len(), decode(bytes).err())
}

/// Decodes `bytes` with `fields`, a derived key's field reader. A
/// fixed-length layout (`fixed`) reads a key of that length with the
/// length as a constant, so every field's bounds check folds into this
/// one; any other length (always an error, found by the same reader)
/// is read out of line. Written once here, not per key. Not API: generated
/// code calls it through `__private`.
#[inline(always)]
pub fn decode_fields<'k, T>(
    key: &'static str,
    fixed: Option<usize>,
    bytes: &'k [u8],
    fields: fn(&'k [u8]) -> Result<T, DecodeError>,
) -> Result<T, DecodeError> {
    if let Some(n) = fixed {
        return if bytes.len() == n {
            fields(&bytes[..n])
        } else {
            Err(wrong_length_of(key, n, bytes, fields))
        };
    }
    fields(bytes)
}

/// The error for a key of `len` bytes of a layout whose keys are all
/// `fixed` bytes long: `found`, the error reading its fields gave, or
/// (should they have read it anyway: a hand-written part that reads
/// other than its `FIXED_LEN`) the missing or extra bytes. Called off the
/// hot path, for keys of any other length, so that path returns only
/// errors.
#[cold]
fn wrong_length(
    key: &'static str,
    fixed: usize,
    len: usize,
    found: Option<DecodeError>,
) -> DecodeError {
    found.unwrap_or_else(|| match len.checked_sub(fixed) {
        Some(count) => DecodeError::new(key, "", fixed, DecodeErrorKind::TrailingBytes { count }),
        None => DecodeError::new(
            key,
            "",
            len,
            DecodeErrorKind::UnexpectedEnd {
                needed: fixed - len,
            },
        ),
    })
}

/// Every reader error is built here, from plain values (see
/// [`KeyReader::error`]). Inlined: an out-of-line constructor returns
/// its error through memory, and the compiler, not knowing that the value
/// is an error, would then keep a path on which the read "succeeded" and
/// rejoined the hot path, losing what it knew of the position there. The
/// error paths are marked cold instead.
#[inline(always)]
fn decode_error(
    key: &'static str,
    field: &'static str,
    offset: usize,
    kind: DecodeErrorKind,
) -> DecodeError {
    crate::error::cold_path();
    DecodeError::new(key, field, offset, kind)
}

#[cfg(test)]
mod tests {
    use super::{wrong_length, KeyReader};
    use crate::{DecodeError, DecodeErrorKind};

    #[test]
    fn a_key_of_another_length_gets_its_fields_error_else_the_length() {
        let found = DecodeError::new("K", "a", 3, DecodeErrorKind::InvalidDigit { byte: b'x' });
        assert_eq!(wrong_length("K", 8, 5, Some(found)), found);
        let short = wrong_length("K", 8, 5, None);
        assert_eq!((short.field(), short.offset()), ("", 5));
        assert_eq!(short.kind(), DecodeErrorKind::UnexpectedEnd { needed: 3 });
        let long = wrong_length("K", 8, 10, None);
        assert_eq!((long.field(), long.offset()), ("", 8));
        assert_eq!(long.kind(), DecodeErrorKind::TrailingBytes { count: 2 });
    }

    #[test]
    fn reads_past_the_end_name_what_is_missing() {
        let mut r = KeyReader::new(b"abc", "K");
        r.field("f");
        assert_eq!(r.take(2).unwrap(), b"ab");
        let e = r.take(usize::MAX).unwrap_err();
        assert_eq!((e.field(), e.offset()), ("f", 2));
        assert_eq!(
            e.kind(),
            DecodeErrorKind::UnexpectedEnd {
                needed: usize::MAX - 1
            }
        );
        assert_eq!(
            r.finish().unwrap_err().kind(),
            DecodeErrorKind::TrailingBytes { count: 1 }
        );
    }
}
