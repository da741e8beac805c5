//! Phoenix's text and bytes: `VARCHAR` and `CHAR(n)` as `String`,
//! `VARBINARY` and `BINARY(n)` as `Vec<u8>` (`PVarchar`, `PChar`,
//! `PVarbinary`, `PBinary`).
//!
//! - `VARCHAR`: UTF-8, at most `n` characters; the empty string is NULL
//!   to Phoenix, so a value is never empty (write `None`).
//! - `CHAR(n)`: single-byte (ASCII) characters padded with spaces to `n`
//!   bytes; Phoenix strips trailing spaces when it reads, so a value
//!   never ends with one.
//! - `BINARY(n)`: exactly `n` bytes (Phoenix pads shorter values with
//!   zero bytes and reads all `n` back, so only `n` round-trip).
//! - `VARBINARY`: the bytes as they are.

use super::value::PhoenixValue;
use super::PhoenixType;
use crate::error::{DecodeErrorKind, EncodeErrorKind};

const NOT_NULL: DecodeErrorKind =
    DecodeErrorKind::Invalid("the column is NULL here: make the field an Option");

impl PhoenixValue for String {
    const HOLDS: u32 =
        PhoenixType::Varchar { max_chars: None }.bit() | PhoenixType::Char { len: 0 }.bit();
    fn phoenix_len(&self, ty: &PhoenixType) -> usize {
        match ty {
            PhoenixType::Char { len } => *len as usize,
            _ => self.len(),
        }
    }
    fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
        check_text(self, ty)
    }
    fn put_phoenix(&self, ty: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
        put_text(self, ty, out)
    }
    fn from_phoenix(bytes: Option<&[u8]>, ty: &PhoenixType) -> Result<Self, DecodeErrorKind> {
        let bytes = bytes.ok_or(NOT_NULL)?;
        let text = match ty {
            PhoenixType::Char { len } => {
                if bytes.len() != *len as usize || !bytes.is_ascii() {
                    return Err(DecodeErrorKind::Invalid(
                        "a CHAR(n) is n single-byte characters",
                    ));
                }
                let end = bytes.iter().rposition(|b| *b != b' ').map_or(0, |i| i + 1);
                if end == 0 {
                    return Err(NOT_NULL);
                }
                &bytes[..end]
            }
            _ if bytes.is_empty() => return Err(NOT_NULL),
            _ => bytes,
        };
        let text = core::str::from_utf8(text)
            .map_err(|_| DecodeErrorKind::Invalid("a Phoenix VARCHAR or CHAR that is not UTF-8"))?;
        if let PhoenixType::Varchar {
            max_chars: Some(max),
        } = *ty
        {
            if text.encode_utf16().count() > max as usize {
                return Err(DecodeErrorKind::Invalid(
                    "a VARCHAR(n) of more than n characters",
                ));
            }
        }
        Ok(text.to_owned())
    }
}

impl PhoenixValue for Vec<u8> {
    const HOLDS: u32 = PhoenixType::Varbinary.bit() | PhoenixType::Binary { len: 0 }.bit();
    fn phoenix_len(&self, _: &PhoenixType) -> usize {
        self.len()
    }
    fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
        check_bytes(self, ty)
    }
    fn put_phoenix(&self, _: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
        out(self);
    }
    fn from_phoenix(bytes: Option<&[u8]>, ty: &PhoenixType) -> Result<Self, DecodeErrorKind> {
        let bytes = bytes.ok_or(NOT_NULL)?;
        match *ty {
            PhoenixType::Binary { len } if bytes.len() != len as usize => Err(
                DecodeErrorKind::Invalid("a BINARY(n) of other than n bytes"),
            ),
            _ if bytes.is_empty() => Err(NOT_NULL),
            _ => Ok(bytes.to_vec()),
        }
    }
}

/// Why `text` is no value of `ty` (a `VARCHAR` or `CHAR`), if it is none.
pub(super) fn check_text(text: &str, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
    match *ty {
        PhoenixType::Varchar { max_chars } => {
            if text.is_empty() {
                return Err(EncodeErrorKind::Invalid(
                    "Phoenix stores an empty VARCHAR as NULL: write None (an Option field)",
                ));
            }
            if let Some(max) = max_chars {
                // Java's String.length(): UTF-16 units, as Phoenix
                // counts a VARCHAR(n)'s length.
                let chars = text.encode_utf16().count();
                if chars > max as usize {
                    return Err(EncodeErrorKind::TooManyChars {
                        chars,
                        max: max as usize,
                    });
                }
            }
            Ok(())
        }
        PhoenixType::Char { len } => {
            if !text.is_ascii() {
                return Err(EncodeErrorKind::Invalid(
                    "Phoenix's CHAR holds single-byte characters only (use VARCHAR)",
                ));
            }
            if text.len() > len as usize {
                return Err(EncodeErrorKind::TooLong {
                    len: text.len(),
                    max: len as usize,
                });
            }
            if text.is_empty() || text.ends_with(' ') {
                return Err(EncodeErrorKind::Invalid(
                    "Phoenix pads CHAR with spaces and strips them when it reads: a value \
                     is not empty and does not end with a space",
                ));
            }
            Ok(())
        }
        _ => Err(EncodeErrorKind::Invalid(
            "this Rust type does not hold that Phoenix type",
        )),
    }
}

/// `text`'s bytes as `ty`: a `CHAR(n)` padded with spaces.
pub(super) fn put_text(text: &str, ty: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
    out(text.as_bytes());
    if let PhoenixType::Char { len } = *ty {
        for _ in text.len()..len as usize {
            out(b" ");
        }
    }
}

/// Why `bytes` are no value of `ty` (a `VARBINARY` or `BINARY(n)`), if
/// they are none.
pub(super) fn check_bytes(bytes: &[u8], ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
    match *ty {
        PhoenixType::Varbinary if bytes.is_empty() => Err(EncodeErrorKind::Invalid(
            "Phoenix stores an empty VARBINARY as NULL: write None (an Option field)",
        )),
        PhoenixType::Varbinary => Ok(()),
        PhoenixType::Binary { len } if bytes.len() == len as usize => Ok(()),
        PhoenixType::Binary { .. } => Err(EncodeErrorKind::Invalid(
            "a BINARY(n) value is exactly n bytes: Phoenix pads a shorter one with \
             zero bytes and reads all n back",
        )),
        _ => Err(EncodeErrorKind::Invalid(
            "this Rust type does not hold that Phoenix type",
        )),
    }
}
