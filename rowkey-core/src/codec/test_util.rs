//! What the codec tests share: one value through a codec and back.

use crate::error::{DecodeError, EncodeError};
use crate::part::{DecodePart, KeyPart};
use crate::reader::KeyReader;
use crate::writer::KeyWriter;
use proptest::prelude::*;

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

/// The properties every ordered key part keeps, for two values and any
/// bytes: each value reads back from its bytes (roundtrip), the bytes sort
/// as the values do (order, and so injectivity), and whatever `junk`
/// decodes to writes `junk` back (canonical decode, no panic).
pub(crate) fn check_ordered_part<T>(a: T, b: T, junk: &[u8]) -> Result<(), TestCaseError>
where
    T: KeyPart + for<'de> DecodePart<'de> + Ord + Clone + core::fmt::Debug,
{
    let (ea, eb) = (enc(a.clone()).unwrap(), enc(b.clone()).unwrap());
    prop_assert_eq!(dec::<T>(&ea).unwrap(), a.clone());
    prop_assert_eq!(a.cmp(&b), ea.cmp(&eb));
    if let Ok(v) = dec::<T>(junk) {
        prop_assert_eq!(enc(v).unwrap(), junk);
    }
    Ok(())
}
