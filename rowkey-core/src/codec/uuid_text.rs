//! `#[text]` on `uuid::Uuid`: its 36-character lowercase hyphenated form,
//! `01901234-5678-7abc-8def-0123456789ab`. Its rules need no feature (the
//! derive reads them); its bytes need `uuid`.
//!
//! Hex digits and hyphens sit at fixed places and `0-9` sorts before
//! `a-f`, so the text sorts as the 16 bytes do (`Uuid`'s order). Decode
//! takes only this form: uppercase, braces, a URN or 32 bare digits would
//! be a second key for the same UUID, so each is an error at its byte.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::layout::rules::{ByteSet, CodecRules, UUID_TEXT_WIDTH};
use crate::layout::{FieldLayout, LayoutCodec};
use crate::reader::KeyReader;
use crate::scan::field_codec::owned_value;
#[cfg(feature = "uuid")]
use crate::scan::{
    field_codec::{OwnedValue, ScanCodec, ScanFieldInfo},
    LatestNeedsADescTsField,
};
use crate::values::mismatch::mismatch;
use crate::values::value::Value;
use crate::writer::KeyWriter;
use core::fmt::{self, Write};
#[cfg(feature = "uuid")]
use uuid::Uuid;

/// The `#[text]` codec of a `Uuid`: 36 lowercase hyphenated characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct UuidText;

/// Where the hyphens of the hyphenated form are.
#[cfg(feature = "uuid")]
const HYPHENS: [usize; 4] = [8, 13, 18, 23];

impl UuidText {
    /// Bytes every UUID takes.
    pub const WIDTH: usize = UUID_TEXT_WIDTH;

    /// Its format rules: a text form of lowercase hex digits and hyphens.
    pub(crate) const fn rules(&self) -> CodecRules {
        CodecRules::text_form(Self::WIDTH, ByteSet::DIGITS.with_all(b"abcdef-"))
    }
}

#[cfg(feature = "uuid")]
impl UuidText {
    /// Writes `v` as `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lowercase.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use uuid::Uuid;
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// #[rowkey(separator = "_")]
    /// struct Session { #[text(width = 4)] tenant: u32, #[text] id: Uuid }
    ///
    /// let id = Uuid::from_u128(0x0190_1234_5678_7abc_8def_0123_4567_89ab);
    /// let key = Session { tenant: 7, id }.to_key()?;
    /// assert_eq!(&*key, b"0007_01901234-5678-7abc-8def-0123456789ab");
    /// assert_eq!(Session::decode(&key)?, Session { tenant: 7, id });
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn put(&self, w: &mut KeyWriter<'_>, v: &Uuid) -> Result<(), EncodeError> {
        let out = w.reserve(Self::WIDTH)?;
        v.hyphenated().encode_lower(out);
        Ok(())
    }

    /// Reads the lowercase hyphenated form back; any other byte is an
    /// error at its offset.
    pub fn take(&self, r: &mut KeyReader<'_>) -> Result<Uuid, DecodeError> {
        let at = r.position();
        let text = r.take(Self::WIDTH)?;
        let mut bytes = [0u8; 16];
        let mut nibbles = 0;
        for (i, &c) in text.iter().enumerate() {
            if HYPHENS.contains(&i) {
                if c != b'-' {
                    return Err(r.error_at(
                        at + i,
                        DecodeErrorKind::Invalid("expected '-' of the UUID's hyphenated form"),
                    ));
                }
                continue;
            }
            let v =
                match c {
                    b'0'..=b'9' => c - b'0',
                    b'a'..=b'f' => c - b'a' + 10,
                    _ => return Err(r.error_at(
                        at + i,
                        DecodeErrorKind::Invalid(
                            "not a lowercase hex digit (the key holds the UUID's canonical form)",
                        ),
                    )),
                };
            bytes[nibbles / 2] |= v << (4 * (1 - nibbles % 2));
            nibbles += 1;
        }
        Ok(Uuid::from_bytes(bytes))
    }
}

/// Why the interpreter reads or writes no UUID text without `uuid`.
#[cfg(not(feature = "uuid"))]
const NEEDS_UUID: &str = "a UUID text field needs rowkey-core's `uuid` feature";

impl LayoutCodec for UuidText {
    fn put_value(
        &self,
        w: &mut KeyWriter<'_>,
        _: &FieldLayout,
        v: &Value,
    ) -> Result<(), EncodeError> {
        let Value::Uuid(b) = v else {
            return Err(mismatch(w));
        };
        #[cfg(feature = "uuid")]
        return self.put(w, &Uuid::from_bytes(*b));
        #[cfg(not(feature = "uuid"))]
        return {
            let _ = b;
            Err(w.error(crate::EncodeErrorKind::Invalid(NEEDS_UUID)))
        };
    }

    fn take_value(
        &self,
        r: &mut KeyReader<'_>,
        _: &FieldLayout,
        _: bool,
    ) -> Result<Value, DecodeError> {
        #[cfg(feature = "uuid")]
        return Ok(Value::Uuid(*self.take(r)?.as_bytes()));
        #[cfg(not(feature = "uuid"))]
        return Err(r.error(DecodeErrorKind::Invalid(NEEDS_UUID)));
    }

    fn explain(&self, s: &mut String, ty: &str) -> fmt::Result {
        write!(s, "{ty} as 36 lowercase hyphenated characters")
    }
}

/// Scans: the codec is its own scan codec type, its steps take a `Uuid`.
#[cfg(feature = "uuid")]
impl ScanCodec for UuidText {
    type Value<'v> = Uuid;
    type Prefix = str;
    type LatestRule = LatestNeedsADescTsField;

    #[inline]
    fn put(w: &mut KeyWriter<'_>, _: &ScanFieldInfo, v: &Uuid) -> Result<(), EncodeError> {
        UuidText.put(w, v)
    }
}

owned_value! {
    #[cfg(feature = "uuid")] [] UuidText => Uuid;
}

#[cfg(feature = "uuid")]
crate::scan::field_codec::in_item_owned! {
    impl<> for UuidText => Uuid;
}

#[cfg(all(test, feature = "uuid"))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn enc(v: Uuid) -> Vec<u8> {
        let mut out = vec![0u8; 36];
        let mut w = KeyWriter::new(&mut out, "T");
        UuidText.put(&mut w, &v).unwrap();
        out
    }

    fn dec(b: &[u8]) -> Result<Uuid, DecodeError> {
        let mut r = KeyReader::new(b, "T");
        let v = UuidText.take(&mut r)?;
        r.finish()?;
        Ok(v)
    }

    #[test]
    fn golden_and_refusals() {
        let id = Uuid::from_u128(0x0190_1234_5678_7abc_8def_0123_4567_89ab);
        assert_eq!(enc(id), b"01901234-5678-7abc-8def-0123456789ab");
        let upper = b"01901234-5678-7ABC-8DEF-0123456789AB";
        assert_eq!(dec(upper).unwrap_err().offset(), 15);
        let braces = b"{1901234-5678-7abc-8def-0123456789ab";
        assert_eq!(dec(braces).unwrap_err().offset(), 0);
        let no_hyphen = b"01901234_5678-7abc-8def-0123456789ab";
        assert_eq!(dec(no_hyphen).unwrap_err().offset(), 8);
        let simple = b"0190123456787abc8def0123456789ab";
        assert_eq!(
            dec(simple).unwrap_err().kind(),
            DecodeErrorKind::UnexpectedEnd { needed: 4 }
        );
    }

    proptest! {
        /// Roundtrip, `Uuid` order, injectivity; bytes near a key and any
        /// bytes decode to the UUID that writes them, or are an error.
        #[test]
        fn uuid_text(a: u128, b: u128, at in 0usize..36, byte: u8, junk in proptest::collection::vec(any::<u8>(), 0..40)) {
            let (a, b) = (Uuid::from_u128(a), Uuid::from_u128(b));
            let (ea, eb) = (enc(a), enc(b));
            prop_assert_eq!(dec(&ea).unwrap(), a);
            prop_assert_eq!(ea.cmp(&eb), a.cmp(&b));
            prop_assert_eq!(ea == eb, a == b);
            let mut near = ea.clone();
            near[at] = byte;
            for input in [&near, &junk] {
                if let Ok(v) = dec(input) {
                    prop_assert_eq!(&enc(v), input);
                }
            }
        }
    }
}
