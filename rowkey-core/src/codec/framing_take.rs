//! Reading a [`BytesCodec`] field back: borrowed where the stored bytes
//! are the value, else copied with its escapes, fill, inversion and
//! reversal undone; only bytes the encoder could have written decode.

use super::byte_search::find_byte;
use super::bytes::{DecodeBytes, DecodeBytesOwned};
use super::bytes_codec::BytesCodec;
use super::escaped;
use super::framing::{Framing, Side};
use super::reverse::{reverse_in_place, Reverse};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::reader::KeyReader;

impl BytesCodec {
    /// The stored bytes of the field, still framed (escapes, fill, inversion).
    #[inline]
    fn take_stored<'de>(&self, r: &mut KeyReader<'de>) -> Result<&'de [u8], DecodeError> {
        match self.framing {
            // Escaped fields are not borrowable and are read by `take_vec`.
            Framing::Escaped => Err(r.error(DecodeErrorKind::Invalid(
                "escaped fields cannot be borrowed",
            ))),
            Framing::Raw => Ok(r.take_rest()),
            Framing::Delimited => {
                let n = match self.separator {
                    Some(sep) => find_byte(r.remaining(), sep),
                    None => None,
                };
                Ok(match n {
                    Some(n) => r.take(n)?,
                    None => r.take_rest(),
                })
            }
            Framing::Padded { width, .. } => r.take(width),
        }
    }

    /// Strips the fill from a padded field's (un-inverted) bytes.
    #[inline]
    fn unpad<'a>(&self, stored: &'a [u8]) -> &'a [u8] {
        match self.framing {
            Framing::Padded {
                fill,
                side: Side::Left,
                ..
            } => {
                let n = stored.iter().take_while(|&&b| b == fill).count();
                &stored[n..]
            }
            Framing::Padded {
                fill,
                side: Side::Right,
                ..
            } => {
                let n = stored.iter().rev().take_while(|&&b| b == fill).count();
                &stored[..stored.len() - n]
            }
            _ => stored,
        }
    }

    /// What the encoder guarantees of every value it writes: no longer
    /// than `max_len`, no separator inside. Checked on decode so that only
    /// keys the encoder could have written decode.
    #[inline]
    fn check_value(&self, r: &KeyReader<'_>, at: usize, value: &[u8]) -> Result<(), DecodeError> {
        if value.len() > self.max_len {
            return Err(r.error_at(
                at,
                DecodeErrorKind::TooLong {
                    len: value.len(),
                    max: self.max_len,
                },
            ));
        }
        match self.separator {
            Some(sep) if value.contains(&sep) => Err(r.error_at(
                at,
                DecodeErrorKind::Invalid("the field holds the separator, which no encoder writes"),
            )),
            _ => Ok(()),
        }
    }

    /// Reads the field into a type that borrows from the key. Only for
    /// codecs where [`BytesCodec::can_borrow`] holds; others are read by
    /// [`BytesCodec::take_owned`].
    ///
    /// Always inlined, as [`BytesCodec::put`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn take_borrowed<'de, T: DecodeBytes<'de>>(
        &self,
        r: &mut KeyReader<'de>,
    ) -> Result<T, DecodeError> {
        if !self.can_borrow() {
            return Err(r.error(DecodeErrorKind::Invalid(
                "this field's bytes are transformed and cannot be borrowed",
            )));
        }
        let at = r.position();
        let stored = self.take_stored(r)?;
        let value = self.unpad(stored);
        self.check_value(r, at, value)?;
        self.wrap(r, at, T::from_borrowed(value).ok())
    }

    #[inline]
    fn wrap<T>(&self, r: &KeyReader<'_>, at: usize, v: Option<T>) -> Result<T, DecodeError> {
        v.ok_or_else(|| r.error_at(at, DecodeErrorKind::InvalidUtf8))
    }

    /// Reads the field into an owned value (copying and undoing escapes,
    /// inversion and reversal). Always inlined, as [`BytesCodec::put`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn take_owned<T: DecodeBytesOwned>(&self, r: &mut KeyReader<'_>) -> Result<T, DecodeError> {
        let at = r.position();
        let v = self.take_vec(r, T::IS_TEXT)?;
        self.wrap(r, at, T::from_vec(v).ok())
    }

    // Always inlined, as `put`: on a `const` codec the framing, mask and
    // reversal branches fold away.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn take_vec(&self, r: &mut KeyReader<'_>, text: bool) -> Result<Vec<u8>, DecodeError> {
        let at = r.position();
        let mask = if self.desc { 0xFF } else { 0 };
        let mut v = if let Framing::Escaped = self.framing {
            let v = escaped::take(r, mask)?;
            self.check_value(r, at, &v)?;
            v
        } else {
            let stored: Vec<u8> = self.take_stored(r)?.iter().map(|b| b ^ mask).collect();
            let value = self.unpad(&stored);
            self.check_value(r, at, value)?;
            value.to_vec()
        };
        // Reversed text is stored as valid UTF-8 (the characters of a
        // string, back to front). Undoing the reversal is a bijection only
        // on valid UTF-8, so anything else is rejected first: otherwise two
        // different keys could decode to the same string.
        if text && self.reverse != Reverse::No && core::str::from_utf8(&v).is_err() {
            return Err(r.error_at(at, DecodeErrorKind::InvalidUtf8));
        }
        if self.reverse != Reverse::No {
            reverse_in_place(&mut v, self.reverse, text);
        }
        Ok(v)
    }
}
