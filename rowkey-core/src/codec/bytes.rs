//! The text and byte types a key field can hold: [`KeyBytes`] gives their
//! bytes, [`DecodeBytes`] rebuilds them borrowing from the key,
//! [`DecodeBytesOwned`] rebuilds them from a transformed copy.

use std::borrow::Cow;

/// A text or byte value: `String`, `&str`, `Cow<str>`, `Vec<u8>`, `&[u8]`,
/// `Cow<[u8]>`, `Box<str>`, `Box<[u8]>`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a text or byte type",
    label = "#[pad], #[max_len] and #[reverse] need String, &str, Cow<str>, Vec<u8>, &[u8] or Cow<[u8]>",
    note = "for integers use #[text(width = N)] instead"
)]
pub trait KeyBytes {
    /// Text (UTF-8) rather than raw bytes; reversal keeps characters whole.
    const IS_TEXT: bool;
    /// What a scan builder takes for this field: `str` for text types,
    /// `[u8]` for byte types.
    type Borrowed: KeyBytes + ?Sized;
    /// The bytes stored in the key.
    fn key_bytes(&self) -> &[u8];
}

/// Rebuilds a value from bytes borrowed from the key (`'de`); borrowed
/// types (`&'de str`, `&'de [u8]`) take them with no copy.
pub trait DecodeBytes<'de>: KeyBytes + Sized {
    /// Checks and wraps `bytes`.
    fn from_borrowed(bytes: &'de [u8]) -> Result<Self, core::str::Utf8Error>;
}

/// Rebuilds a value from bytes that had to be copied out of the key first
/// (escaped, reversed or inverted fields).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot borrow this field: its bytes are escaped, reversed or inverted in the key",
    label = "use an owned type (String, Vec<u8>) or Cow<str> / Cow<[u8]> here",
    note = "or give the field #[pad(width = N)] (without #[desc] or #[reverse]), whose bytes can be borrowed"
)]
pub trait DecodeBytesOwned: KeyBytes + Sized {
    /// Checks and wraps `bytes`.
    fn from_vec(bytes: Vec<u8>) -> Result<Self, core::str::Utf8Error>;
}

macro_rules! key_bytes {
    ($text:expr, $borrowed:ty, |$s:ident| $bytes:expr => $($t:ty),*) => {$(
        impl KeyBytes for $t {
            const IS_TEXT: bool = $text;
            type Borrowed = $borrowed;
            #[inline]
            fn key_bytes(&self) -> &[u8] {
                let $s = self;
                $bytes
            }
        }
    )*};
}
key_bytes!(true, str, |s| s.as_bytes() => str, String, Box<str>, Cow<'_, str>);
key_bytes!(false, [u8], |s| s => [u8], Vec<u8>, Box<[u8]>, Cow<'_, [u8]>);

impl<T: KeyBytes + ?Sized> KeyBytes for &T {
    const IS_TEXT: bool = T::IS_TEXT;
    type Borrowed = T::Borrowed;
    #[inline]
    fn key_bytes(&self) -> &[u8] {
        (**self).key_bytes()
    }
}

fn utf8(bytes: &[u8]) -> Result<&str, core::str::Utf8Error> {
    core::str::from_utf8(bytes)
}

// `'de: 'a`, as serde does for `&'a str`: a key struct `S<'a>` decodes
// from input that lives at least as long as `'a`.
impl<'de: 'a, 'a> DecodeBytes<'de> for &'a str {
    fn from_borrowed(bytes: &'de [u8]) -> Result<Self, core::str::Utf8Error> {
        utf8(bytes)
    }
}
impl<'de: 'a, 'a> DecodeBytes<'de> for &'a [u8] {
    fn from_borrowed(bytes: &'de [u8]) -> Result<Self, core::str::Utf8Error> {
        Ok(bytes)
    }
}
impl<'de: 'a, 'a> DecodeBytes<'de> for Cow<'a, str> {
    fn from_borrowed(bytes: &'de [u8]) -> Result<Self, core::str::Utf8Error> {
        utf8(bytes).map(Cow::Borrowed)
    }
}
impl<'de: 'a, 'a> DecodeBytes<'de> for Cow<'a, [u8]> {
    fn from_borrowed(bytes: &'de [u8]) -> Result<Self, core::str::Utf8Error> {
        Ok(Cow::Borrowed(bytes))
    }
}
impl DecodeBytes<'_> for String {
    fn from_borrowed(bytes: &[u8]) -> Result<Self, core::str::Utf8Error> {
        utf8(bytes).map(String::from)
    }
}
impl DecodeBytes<'_> for Box<str> {
    fn from_borrowed(bytes: &[u8]) -> Result<Self, core::str::Utf8Error> {
        utf8(bytes).map(Box::from)
    }
}
impl DecodeBytes<'_> for Vec<u8> {
    fn from_borrowed(bytes: &[u8]) -> Result<Self, core::str::Utf8Error> {
        Ok(bytes.to_vec())
    }
}
impl DecodeBytes<'_> for Box<[u8]> {
    fn from_borrowed(bytes: &[u8]) -> Result<Self, core::str::Utf8Error> {
        Ok(Box::from(bytes))
    }
}

#[inline]
fn string(bytes: Vec<u8>) -> Result<String, core::str::Utf8Error> {
    String::from_utf8(bytes).map_err(|e| e.utf8_error())
}

impl DecodeBytesOwned for String {
    #[inline]
    fn from_vec(bytes: Vec<u8>) -> Result<Self, core::str::Utf8Error> {
        string(bytes)
    }
}
impl DecodeBytesOwned for Box<str> {
    #[inline]
    fn from_vec(bytes: Vec<u8>) -> Result<Self, core::str::Utf8Error> {
        string(bytes).map(String::into_boxed_str)
    }
}
impl DecodeBytesOwned for Cow<'_, str> {
    #[inline]
    fn from_vec(bytes: Vec<u8>) -> Result<Self, core::str::Utf8Error> {
        string(bytes).map(Cow::Owned)
    }
}
impl DecodeBytesOwned for Vec<u8> {
    #[inline]
    fn from_vec(bytes: Vec<u8>) -> Result<Self, core::str::Utf8Error> {
        Ok(bytes)
    }
}
impl DecodeBytesOwned for Box<[u8]> {
    #[inline]
    fn from_vec(bytes: Vec<u8>) -> Result<Self, core::str::Utf8Error> {
        Ok(bytes.into_boxed_slice())
    }
}
impl DecodeBytesOwned for Cow<'_, [u8]> {
    #[inline]
    fn from_vec(bytes: Vec<u8>) -> Result<Self, core::str::Utf8Error> {
        Ok(Cow::Owned(bytes))
    }
}
