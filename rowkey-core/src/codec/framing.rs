//! [`BytesCodec`]: how a text or byte field sits in the key — escaped,
//! raw at the end, padded to a fixed width, or delimited by the struct's
//! separator — plus reversal and descending order on top.

use super::byte_search::find_byte;
use super::bytes::{DecodeBytes, DecodeBytesOwned};
use super::escaped;
use super::reverse::{reverse_in_place, Reverse};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::reader::KeyReader;
use crate::writer::KeyWriter;
use core::fmt;

/// Where a variable-length value's bytes end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Framing {
    /// Escaped and terminated ([`escaped`]): self-delimiting and ordered.
    Escaped,
    /// As is; only for the last field of a key, which ends at the key's end.
    Raw,
    /// Exactly `width` bytes: the value and `fill` bytes on `side`.
    Padded {
        /// Total bytes.
        width: usize,
        /// The fill byte.
        fill: u8,
        /// Where the fill goes.
        side: Side,
    },
    /// As is, up to the struct's separator (or the key's end).
    Delimited,
}

/// Everything the derive decided about one text or byte field.
///
/// ```
/// use rowkey::codec::{BytesCodec, Framing};
/// use rowkey::codec::framing::Side;
/// use rowkey::{KeyReader, KeyWriter};
/// let pad = BytesCodec::new(Framing::Padded { width: 10, fill: 0x01, side: Side::Left }, 10);
/// let mut out = [0u8; 10];
/// let mut w = KeyWriter::new(&mut out, "Spend");
/// pad.put(&mut w, b"zhangsan", true).unwrap();
/// assert_eq!(&out, b"\x01\x01zhangsan");
/// let mut r = KeyReader::new(&out, "Spend");
/// assert_eq!(pad.take_borrowed::<&str>(&mut r).unwrap(), "zhangsan");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BytesCodec {
    /// How the value is delimited.
    pub framing: Framing,
    /// The longest value accepted, in bytes.
    pub max_len: usize,
    /// Reversal applied to the value.
    pub reverse: Reverse,
    /// Bytes inverted for descending order.
    pub desc: bool,
    /// The struct's separator, which the value must not contain.
    pub separator: Option<u8>,
}

impl BytesCodec {
    /// A codec with this framing for values of at most `max_len` bytes.
    pub const fn new(framing: Framing, max_len: usize) -> Self {
        BytesCodec {
            framing,
            max_len,
            reverse: Reverse::No,
            desc: false,
            separator: None,
        }
    }

    /// The most bytes the field takes in a key.
    pub const fn max_encoded_len(&self) -> usize {
        match self.framing {
            Framing::Escaped => escaped::max_escaped_len(self.max_len),
            Framing::Raw | Framing::Delimited => self.max_len,
            Framing::Padded { width, .. } => width,
        }
    }

    /// `Some(width)` for padded fields, which always take `width` bytes.
    pub const fn fixed_len(&self) -> Option<usize> {
        match self.framing {
            Framing::Padded { width, .. } => Some(width),
            _ => None,
        }
    }

    /// Bytes `value` takes in a key.
    #[inline]
    pub fn encoded_len(&self, value: &[u8]) -> usize {
        match self.framing {
            Framing::Escaped => escaped::escaped_len(value),
            Framing::Raw | Framing::Delimited => value.len(),
            Framing::Padded { width, .. } => width,
        }
    }

    /// Writes `value`; `text` says it is UTF-8 (reversal keeps characters).
    ///
    /// Always inlined: generated code calls it on a `const` codec, so the
    /// framing, reversal, separator and order checks fold away and only
    /// the chosen framing's writes remain.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn put(&self, w: &mut KeyWriter<'_>, value: &[u8], text: bool) -> Result<(), EncodeError> {
        let start = w.position();
        if value.len() > self.max_len {
            return Err(w.error(EncodeErrorKind::TooLong {
                len: value.len(),
                max: self.max_len,
            }));
        }
        if let Some(separator) = self.separator {
            if let Some(index) = find_byte(value, separator) {
                return Err(w.error(EncodeErrorKind::ContainsSeparator { separator, index }));
            }
        }
        match self.framing {
            Framing::Escaped if self.reverse == Reverse::No => escaped::put(w, value)?,
            Framing::Escaped => {
                self.put_reversed(w, value, text)?;
                escaped::escape_written(w, start)?;
            }
            Framing::Raw | Framing::Delimited => self.put_reversed(w, value, text)?,
            Framing::Padded { width, fill, side } => {
                let Some(pad) = width.checked_sub(value.len()) else {
                    return Err(w.error(EncodeErrorKind::TooLong {
                        len: value.len(),
                        max: width,
                    }));
                };
                // Fill the whole (constant) width, then place the value:
                // cheaper than a variable-length fill call for the pad.
                let out = w.reserve(width)?;
                out.fill(fill);
                let stored = match side {
                    Side::Left => &mut out[pad..],
                    Side::Right => &mut out[..value.len()],
                };
                stored.copy_from_slice(value);
                if self.reverse != Reverse::No {
                    reverse_in_place(stored, self.reverse, text);
                }
                let edge = match side {
                    Side::Left => stored.first(),
                    Side::Right => stored.last(),
                };
                if edge == Some(&fill) {
                    return Err(w.error_at(start, EncodeErrorKind::FillAtEdge { fill, side }));
                }
            }
        }
        if self.desc {
            w.invert_since(start);
        }
        Ok(())
    }

    /// Writes what every stored value starting with `prefix` starts with
    /// (for prefix scans): the bytes, escaped for escaped fields but with
    /// no terminator, no padding.
    ///
    /// Bytes no value may hold are refused first: `TooLong` says only that
    /// the prefix is longer than any value (a scan reads that as nothing).
    pub fn put_prefix(&self, w: &mut KeyWriter<'_>, prefix: &[u8]) -> Result<(), EncodeError> {
        let start = w.position();
        if let Some(separator) = self.separator {
            if let Some(index) = find_byte(prefix, separator) {
                return Err(w.error(EncodeErrorKind::ContainsSeparator { separator, index }));
            }
        }
        if let Framing::Padded { fill, side, .. } = self.framing {
            // Stored `ab` + fill starts with the prefix `ab` + fill, though
            // the value `ab` does not: such a prefix would match too much.
            if prefix.last() == Some(&fill) {
                return Err(w.error_at(start, EncodeErrorKind::FillAtEdge { fill, side }));
            }
        }
        if prefix.len() > self.max_len {
            return Err(w.error(EncodeErrorKind::TooLong {
                len: prefix.len(),
                max: self.max_len,
            }));
        }
        match self.framing {
            Framing::Escaped => escaped::put_unterminated(w, prefix)?,
            _ => w.put(prefix)?,
        }
        if self.desc {
            w.invert_since(start);
        }
        Ok(())
    }

    #[inline]
    fn put_reversed(
        &self,
        w: &mut KeyWriter<'_>,
        value: &[u8],
        text: bool,
    ) -> Result<(), EncodeError> {
        let at = w.position();
        w.put(value)?;
        if self.reverse != Reverse::No {
            reverse_in_place(w.written_since(at), self.reverse, text);
        }
        Ok(())
    }

    /// Whether the stored bytes are the value itself, so a borrowed type
    /// can point into the key.
    pub const fn can_borrow(&self) -> bool {
        !self.desc
            && matches!(self.reverse, Reverse::No)
            && !matches!(self.framing, Framing::Escaped)
    }

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

/// Which side of a value a pad fills.
///
/// ```
/// assert_eq!(rowkey::codec::framing::Side::Left.to_string(), "left");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Side {
    /// Fill bytes before the value (Java's `StringUtils.leftPad`).
    Left,
    /// Fill bytes after the value (`StringUtils.rightPad`).
    Right,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Left => "left",
            Side::Right => "right",
        })
    }
}

#[cfg(test)]
#[path = "framing_tests.rs"]
mod tests;
