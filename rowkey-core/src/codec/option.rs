//! `Option<T>` fields: a tag byte, `0x00` for `None` and `0x01` for
//! `Some`, then the value. Every `None` sorts before every `Some`.
//! Generated code (through `__private`) and the layout interpreter call
//! these.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::reader::KeyReader;
use crate::writer::KeyWriter;

/// The tag of `None`.
pub const NONE_TAG: u8 = 0x00;
/// The tag of `Some`.
pub const SOME_TAG: u8 = 0x01;

/// Writes the tag; `desc` inverts it.
#[inline]
pub fn put_tag(w: &mut KeyWriter<'_>, some: bool, desc: bool) -> Result<(), EncodeError> {
    let tag = if some { SOME_TAG } else { NONE_TAG };
    w.put_byte(if desc { !tag } else { tag })
}

/// Reads a tag: `true` for `Some`.
#[inline]
pub fn take_tag(r: &mut KeyReader<'_>, desc: bool) -> Result<bool, DecodeError> {
    let at = r.position();
    let byte = r.take_byte()?;
    match if desc { !byte } else { byte } {
        NONE_TAG => Ok(false),
        SOME_TAG => Ok(true),
        _ => Err(r.error_at(at, DecodeErrorKind::InvalidTag { byte })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_sort_none_first_and_invert() {
        let mut out = [0u8; 2];
        let mut w = KeyWriter::new(&mut out, "Demo");
        put_tag(&mut w, false, false).unwrap();
        put_tag(&mut w, true, true).unwrap(); // inverted for #[desc]
        assert_eq!(out, [0x00, 0xFE]);
        let mut r = KeyReader::new(&out, "Demo");
        assert!(!take_tag(&mut r, false).unwrap());
        assert!(take_tag(&mut r, true).unwrap());
        assert!(take_tag(&mut KeyReader::new(&[7], "Demo"), false).is_err());
    }
}
