//! What the codec tests share: one value through a codec and back.

use crate::error::{DecodeError, EncodeError};
use crate::part::{DecodePart, KeyPart};
use crate::reader::KeyReader;
use crate::writer::KeyWriter;

/// `v`'s bytes as a key part.
pub(crate) fn enc<T: KeyPart>(v: T) -> Result<Vec<u8>, EncodeError> {
    let mut out = vec![0u8; T::MAX_LEN];
    let mut w = KeyWriter::new(&mut out, "T");
    v.encode(&mut w)?;
    let n = w.finish();
    out.truncate(n);
    Ok(out)
}

/// A key part read from exactly `b` (trailing bytes are an error).
pub(crate) fn dec<T: for<'de> DecodePart<'de>>(b: &[u8]) -> Result<T, DecodeError> {
    let mut r = KeyReader::new(b, "T");
    let v = T::decode(&mut r)?;
    r.finish()?;
    Ok(v)
}
