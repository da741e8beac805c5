//! [`BytesCodec`]: how a text or byte field sits in the key — escaped,
//! raw at the end, padded to a fixed width, or delimited by the struct's
//! separator — plus reversal and descending order on top.

use super::byte_search::find_byte;
use super::escaped;
use super::framing::{Framing, Side};
use super::reverse::{reverse_in_place, Reverse};
use crate::error::{DecodeError, EncodeError, EncodeErrorKind};
use crate::layout::rules::{
    ByteSet, CodecRules, Ends, Lengths, PrefixScan, RangeScan, ScanRefusal, Sorts,
};
use crate::layout::{FieldLayout, LayoutCodec, ValueKind};
use crate::reader::KeyReader;
use crate::values::mismatch::{kind_mismatch, mismatch};
use crate::values::value::Value;
use crate::writer::KeyWriter;
use core::fmt::{self, Write};

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
}

// The format rules of text and bytes, by framing, reversal and `#[desc]`.
impl BytesCodec {
    /// Its format rules.
    pub(crate) const fn rules(&self) -> CodecRules {
        let kept = matches!(self.reverse, Reverse::No);
        let (len, ordered, ends) = match self.framing {
            // Every byte may be escaped, plus the terminator (saturating:
            // a layout read from JSON may claim any `max_len`).
            Framing::Escaped => {
                let n = self.max_len.saturating_mul(2).saturating_add(2);
                (Lengths::UpTo(n), true, Ends::Itself)
            }
            Framing::Raw => (Lengths::UpTo(self.max_len), true, Ends::AtKeyEnd),
            Framing::Delimited => (Lengths::UpTo(self.max_len), false, Ends::AtSeparator),
            // Right padding keeps order only when the fill is the smallest
            // byte; left padding sorts by length.
            Framing::Padded { width, fill, side } => (
                Lengths::Fixed(width),
                fill == 0 && matches!(side, Side::Right),
                Ends::Itself,
            ),
        };
        let prefix_scan = match self.framing {
            _ if !kept => Err(ScanRefusal::Reversed),
            Framing::Padded {
                side: Side::Left, ..
            } => Err(ScanRefusal::LeftPadded),
            // Inverted escapes: a prefix's bytes are not the start of the
            // value's.
            Framing::Escaped if self.desc => Err(ScanRefusal::DescendingEscaped),
            _ => Ok(PrefixScan::Bytes),
        };
        let range_scan = match self.framing {
            _ if !kept => Err(ScanRefusal::Reversed),
            Framing::Escaped | Framing::Raw => Ok(RangeScan::Values),
            Framing::Padded {
                side: Side::Left, ..
            } => Err(ScanRefusal::LeftPadded),
            Framing::Padded { fill: 0, .. } => Ok(RangeScan::Values),
            Framing::Padded { .. } => Err(ScanRefusal::PaddedWithNonZeroFill),
            Framing::Delimited => Err(ScanRefusal::SeparatorJoined),
        };
        CodecRules {
            len,
            sorts: if kept && ordered {
                Sorts::LikeValues
            } else {
                Sorts::Unordered
            },
            prefix_scan,
            range_scan,
            borrows: self.can_borrow(),
            // Values are checked for the separator when written.
            writes: ByteSet::NONE,
            ends,
        }
    }
}

impl LayoutCodec for BytesCodec {
    fn put_value(
        &self,
        w: &mut KeyWriter<'_>,
        f: &FieldLayout,
        v: &Value,
    ) -> Result<(), EncodeError> {
        match (f.value.unwrapped(), v) {
            (ValueKind::Text, Value::Text(s)) => self.put(w, s.as_bytes(), true),
            (ValueKind::Bytes, Value::Bytes(b)) => self.put(w, b, false),
            _ => Err(mismatch(w)),
        }
    }

    fn take_value(
        &self,
        r: &mut KeyReader<'_>,
        f: &FieldLayout,
        _: bool,
    ) -> Result<Value, DecodeError> {
        match f.value.unwrapped() {
            ValueKind::Text => Ok(Value::Text(self.take_owned::<String>(r)?)),
            ValueKind::Bytes => Ok(Value::Bytes(self.take_owned::<Vec<u8>>(r)?)),
            _ => Err(kind_mismatch(r)),
        }
    }

    fn explain(&self, s: &mut String, ty: &str) -> fmt::Result {
        let max_len = self.max_len;
        match self.framing {
            Framing::Escaped => write!(
                s,
                "{ty} (<= {max_len} bytes), 00 escaped as 00 FF, ends with 00 01"
            )?,
            Framing::Raw => write!(s, "{ty} (<= {max_len} bytes) as is, to the key's end")?,
            Framing::Delimited => write!(s, "{ty} (<= {max_len} bytes) up to the separator")?,
            Framing::Padded { width, fill, side } => write!(
                s,
                "{ty} padded on the {side} with {} to {width} bytes",
                crate::KeyDisplay(&[fill])
            )?,
        }
        match self.reverse {
            Reverse::No => Ok(()),
            Reverse::Chars => s.write_str(", reversed"),
            Reverse::Segments(sep) => write!(s, ", '{}'-segments reversed", sep as char),
        }
    }
}

#[cfg(test)]
#[path = "framing_tests.rs"]
mod tests;
