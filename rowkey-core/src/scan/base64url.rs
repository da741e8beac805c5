//! Base64url without padding (RFC 4648 §5): the text form of a cursor,
//! safe in a URL, a query string or a JSON string as it is. Decoding is
//! strict: the unused low bits of the last character must be zero, as
//! the encoder writes them, so that each byte string has one text and a
//! token changed in those bits is refused rather than read as the same
//! cursor (RFC 4648 §3.5).

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Why a string is not base64url.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Base64Error {
    /// The character at this byte offset is not in the alphabet.
    Character { offset: usize },
    /// No base64 string has this many characters (one more than a multiple
    /// of four: six bits, less than a byte).
    Length { chars: usize },
    /// The last character, at this byte offset, sets bits that carry no
    /// byte: no encoder writes it.
    NonCanonical { offset: usize },
}

/// Characters the encoding of `bytes` bytes takes.
pub(crate) const fn encoded_len(bytes: usize) -> usize {
    (bytes * 4).div_ceil(3)
}

/// `bytes` in base64url, without padding.
pub(crate) fn encode(bytes: &[u8], out: &mut String) {
    out.reserve(encoded_len(bytes.len()));
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
}

fn value(c: u8) -> Option<u32> {
    let v = match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    };
    Some(u32::from(v))
}

/// The bytes of a base64url string without padding.
pub(crate) fn decode(text: &str) -> Result<Vec<u8>, Base64Error> {
    let text = text.as_bytes();
    if text.len() % 4 == 1 {
        return Err(Base64Error::Length { chars: text.len() });
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    for (c, chunk) in text.chunks(4).enumerate() {
        let mut n = 0u32;
        for (i, &ch) in chunk.iter().enumerate() {
            let offset = c * 4 + i;
            let v = value(ch).ok_or(Base64Error::Character { offset })?;
            n |= v << (18 - 6 * i);
        }
        // Whole bytes only: 2, 3 or 4 characters carry 1, 2 or 3, and the
        // bits past them are zero.
        let bytes = chunk.len() - 1;
        if n & ((1 << (24 - 8 * bytes)) - 1) != 0 {
            return Err(Base64Error::NonCanonical {
                offset: c * 4 + bytes,
            });
        }
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn rfc_4648_vectors() {
        // RFC 4648 §10, padding dropped; then the two url-safe characters.
        for (raw, text) in [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ] {
            let mut s = String::new();
            encode(raw.as_bytes(), &mut s);
            assert_eq!(s, text);
            assert_eq!(decode(text).unwrap(), raw.as_bytes());
        }
        let mut s = String::new();
        encode(&[0xFB, 0xFF], &mut s);
        assert_eq!(s, "-_8");
        // The low bits of a last character must be zero: `Zg` is `f`,
        // `Zh` is no encoder's.
        assert_eq!(decode("Zh"), Err(Base64Error::NonCanonical { offset: 1 }));
        assert_eq!(decode("Zm9"), Err(Base64Error::NonCanonical { offset: 2 }));
        assert_eq!(decode("Zm8").unwrap(), b"fo");
        assert_eq!(decode("Zm9v="), Err(Base64Error::Length { chars: 5 }));
        assert_eq!(decode("Zm+v"), Err(Base64Error::Character { offset: 2 }));
    }

    proptest! {
        #[test]
        fn roundtrip_and_any_text_decodes_or_says_where(bytes: Vec<u8>, text in "[A-Za-z0-9_=+/-]{0,12}") {
            let mut s = String::new();
            encode(&bytes, &mut s);
            prop_assert_eq!(s.len(), encoded_len(bytes.len()));
            prop_assert_eq!(decode(&s).unwrap(), bytes);
            match decode(&text) {
                Ok(b) => {
                    prop_assert_eq!(b.len(), text.len() * 3 / 4);
                    // Each byte string has one text.
                    let mut again = String::new();
                    encode(&b, &mut again);
                    prop_assert_eq!(again, text);
                }
                Err(Base64Error::NonCanonical { offset }) => {
                    prop_assert_eq!(offset + 1, text.len());
                }
                Err(Base64Error::Length { chars }) => prop_assert_eq!(chars % 4, 1),
                Err(Base64Error::Character { offset }) => {
                    prop_assert!(b"=+/".contains(&text.as_bytes()[offset]));
                    prop_assert!(text[..offset].bytes().all(|c| value(c).is_some()));
                }
            }
        }
    }
}
