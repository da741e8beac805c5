//! `#[desc]` on a whole key part: its bytes inverted, so the field sorts
//! in reverse. Generated code (through `__private`), the scan codecs and
//! the layout interpreter call these.

use crate::{DecodeError, DecodePart, EncodeError, KeyPart, KeyReader, KeyWriter};

/// Writes a part, inverted when `desc`.
#[inline]
pub fn put_part<T: KeyPart + ?Sized>(
    w: &mut KeyWriter<'_>,
    v: &T,
    desc: bool,
) -> Result<(), EncodeError> {
    let start = w.position();
    v.encode(w)?;
    if desc {
        w.invert_since(start);
    }
    Ok(())
}

/// Reads a fixed-width part of `N` bytes written inverted by
/// [`put_part`]; `N` is the part's `FIXED_LEN`.
#[inline]
pub fn take_inverted_part<T, const N: usize>(r: &mut KeyReader<'_>) -> Result<T, DecodeError>
where
    T: for<'x> DecodePart<'x>,
{
    let at = r.position();
    let mut scratch: [u8; N] = r.take_array()?;
    invert(&mut scratch);
    let mut inner = r.nested(&scratch, at);
    let v = T::decode(&mut inner)?;
    inner.finish()?;
    Ok(v)
}

/// Reads `n` inverted bytes with `read` (the layout interpreter's
/// [`take_inverted_part`], for a part whose type it knows at run time).
pub(crate) fn take_inverted_with<T>(
    r: &mut KeyReader<'_>,
    n: usize,
    read: impl FnOnce(&mut KeyReader<'_>) -> Result<T, DecodeError>,
) -> Result<T, DecodeError> {
    let at = r.position();
    let mut scratch = r.take(n)?.to_vec();
    invert(&mut scratch);
    let mut inner = r.nested(&scratch, at);
    let v = read(&mut inner)?;
    inner.finish()?;
    Ok(v)
}

/// Inverts every byte, a word at a time: inverted byte by byte, LLVM
/// rebuilt an `i64` from its eight bytes one by one (30 instructions where
/// a `not` does).
#[inline(always)]
fn invert(bytes: &mut [u8]) {
    let mut words = bytes.chunks_exact_mut(8);
    for word in &mut words {
        let w = u64::from_ne_bytes((&*word).try_into().expect("chunks of 8"));
        word.copy_from_slice(&(!w).to_ne_bytes());
    }
    words.into_remainder().iter_mut().for_each(|b| *b = !*b);
}

/// The width of a fixed part, failing the build (as a const) for
/// variable-width parts, which `#[desc]` cannot invert.
pub const fn fixed_width_for_desc(fixed: Option<usize>) -> usize {
    match fixed {
        Some(n) => n,
        None => {
            panic!("#[desc] needs a fixed-width key part; this type's KeyPart::FIXED_LEN is None")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::invert;

    #[test]
    fn invert_is_bytewise_not_at_every_length() {
        for len in 0..40 {
            let original: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let mut bytes = original.clone();
            invert(&mut bytes);
            let want: Vec<u8> = original.iter().map(|b| !b).collect();
            assert_eq!(bytes, want, "{len} bytes");
        }
    }
}
