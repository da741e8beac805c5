//! [`KeyPart`]: the trait a type implements to be one field of a key.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::layout::ValueKind;
use crate::reader::KeyReader;
use crate::writer::KeyWriter;

/// A type that can be one field of a row key.
///
/// Implemented for every integer (big-endian, the sign bit flipped so that
/// negative numbers sort first), `bool`, `char`, `[u8; N]`, `Option<T>`
/// and `()`; `#[derive(KeyPart)]` implements it for unit-only enums.
/// Strings and byte vectors are not parts on their own: they need a bound
/// (`#[max_len(N)]` or `#[pad(width = N)]`) and the derive frames them.
///
/// The bytes a part writes must be *self-delimiting*: decoding reads
/// exactly what encoding wrote, whatever follows. If the type's `Ord` is
/// meant to be kept, `a < b` must hold exactly when `bytes(a) < bytes(b)`.
///
/// # Implementing it for your own type
///
/// ```
/// use rowkey::{DecodeError, DecodePart, EncodeError, KeyPart, KeyReader, KeyWriter};
///
/// /// A 16-byte id, stored as is.
/// #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
/// struct TraceId([u8; 16]);
///
/// impl KeyPart for TraceId {
///     const MAX_LEN: usize = 16;
///     const FIXED_LEN: Option<usize> = Some(16);
///     fn encoded_len(&self) -> usize {
///         16
///     }
///     fn encode(&self, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
///         w.put(&self.0)
///     }
/// }
///
/// impl<'de> DecodePart<'de> for TraceId {
///     fn decode(r: &mut KeyReader<'de>) -> Result<Self, DecodeError> {
///         Ok(TraceId(r.take_array()?))
///     }
/// }
///
/// let mut out = [0u8; 16];
/// let mut w = KeyWriter::new(&mut out, "Demo");
/// TraceId([7; 16]).encode(&mut w).unwrap();
/// let mut r = KeyReader::new(&out, "Demo");
/// assert_eq!(TraceId::decode(&mut r).unwrap(), TraceId([7; 16]));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a row key field as it is",
    label = "this field's type does not implement `rowkey::KeyPart`",
    note = "integers, bool, char, [u8; N], Option<T> and #[derive(KeyPart)] enums are key parts",
    note = "String, &str, Vec<u8> and &[u8] need a bound: #[max_len(N)] or #[pad(width = N)]",
    note = "for a type of your own, implement `rowkey::KeyPart` and `rowkey::DecodePart`"
)]
pub trait KeyPart {
    /// The most bytes any value writes.
    const MAX_LEN: usize;
    /// `Some(n)` when every value writes exactly `n` bytes (and decoding
    /// reads exactly `n`: a key whose parts are all fixed is refused at any
    /// other length).
    const FIXED_LEN: Option<usize>;
    /// Whether byte order follows the type's `Ord` (shown in the layout).
    const ORDERED: bool = true;
    /// What the values are, for tools that read keys by their
    /// [`Layout`](crate::Layout) alone. A hand-written part keeps the
    /// default, [`ValueKind::Opaque`]: tools show and take its bytes.
    const VALUE: ValueKind = ValueKind::Opaque;
    /// Bytes this value writes.
    fn encoded_len(&self) -> usize;
    /// Writes the value.
    fn encode(&self, w: &mut KeyWriter<'_>) -> Result<(), EncodeError>;
}

/// The decoding half of [`KeyPart`]; `'de` is the input's lifetime, so a
/// part may borrow from it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be decoded from a row key",
    label = "this field's type does not implement `rowkey::DecodePart`",
    note = "implement `rowkey::DecodePart` next to your `rowkey::KeyPart`"
)]
pub trait DecodePart<'de>: KeyPart + Sized {
    /// Reads exactly the bytes [`KeyPart::encode`] wrote.
    fn decode(r: &mut KeyReader<'de>) -> Result<Self, DecodeError>;
}

impl KeyPart for bool {
    const MAX_LEN: usize = 1;
    const FIXED_LEN: Option<usize> = Some(1);
    const VALUE: ValueKind = ValueKind::Bool;
    fn encoded_len(&self) -> usize {
        1
    }
    fn encode(&self, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
        w.put_byte(*self as u8)
    }
}

impl DecodePart<'_> for bool {
    fn decode(r: &mut KeyReader<'_>) -> Result<Self, DecodeError> {
        match r.take_byte()? {
            0 => Ok(false),
            1 => Ok(true),
            byte => Err(r.error_at(r.position() - 1, DecodeErrorKind::InvalidTag { byte })),
        }
    }
}

/// A `char` is its scalar value as 4 big-endian bytes: fixed width, and
/// ordered like `char`.
impl KeyPart for char {
    const MAX_LEN: usize = 4;
    const FIXED_LEN: Option<usize> = Some(4);
    const VALUE: ValueKind = ValueKind::Char;
    fn encoded_len(&self) -> usize {
        4
    }
    fn encode(&self, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
        w.put(&(*self as u32).to_be_bytes())
    }
}

impl DecodePart<'_> for char {
    fn decode(r: &mut KeyReader<'_>) -> Result<Self, DecodeError> {
        let at = r.position();
        let v = u32::from_be_bytes(r.take_array()?);
        char::from_u32(v)
            .ok_or_else(|| r.error_at(at, DecodeErrorKind::Invalid("not a Unicode scalar value")))
    }
}

/// `[u8; N]` is stored as is: fixed width, ordered bytewise.
impl<const N: usize> KeyPart for [u8; N] {
    const MAX_LEN: usize = N;
    const FIXED_LEN: Option<usize> = Some(N);
    const VALUE: ValueKind = ValueKind::ByteArray(N);
    fn encoded_len(&self) -> usize {
        N
    }
    fn encode(&self, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
        w.put(self)
    }
}

impl<const N: usize> DecodePart<'_> for [u8; N] {
    fn decode(r: &mut KeyReader<'_>) -> Result<Self, DecodeError> {
        r.take_array()
    }
}

/// The unit type writes nothing (a placeholder field).
impl KeyPart for () {
    const MAX_LEN: usize = 0;
    const FIXED_LEN: Option<usize> = Some(0);
    const VALUE: ValueKind = ValueKind::Unit;
    fn encoded_len(&self) -> usize {
        0
    }
    fn encode(&self, _: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
        Ok(())
    }
}

impl DecodePart<'_> for () {
    fn decode(_: &mut KeyReader<'_>) -> Result<Self, DecodeError> {
        Ok(())
    }
}

/// `None` is the tag byte `0x00`, `Some(v)` is `0x01` then `v`: every `None`
/// sorts before every `Some`.
impl<T: KeyPart> KeyPart for Option<T> {
    const MAX_LEN: usize = T::MAX_LEN.saturating_add(1);
    const FIXED_LEN: Option<usize> = None;
    const ORDERED: bool = T::ORDERED;
    const VALUE: ValueKind = ValueKind::Option(&T::VALUE);
    fn encoded_len(&self) -> usize {
        match self {
            None => 1,
            Some(v) => 1 + v.encoded_len(),
        }
    }
    fn encode(&self, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
        match self {
            None => crate::codec::option::put_tag(w, false, false),
            Some(v) => {
                crate::codec::option::put_tag(w, true, false)?;
                v.encode(w)
            }
        }
    }
}

impl<'de, T: DecodePart<'de>> DecodePart<'de> for Option<T> {
    fn decode(r: &mut KeyReader<'de>) -> Result<Self, DecodeError> {
        if crate::codec::option::take_tag(r, false)? {
            T::decode(r).map(Some)
        } else {
            Ok(None)
        }
    }
}
