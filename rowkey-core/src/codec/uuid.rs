//! `uuid::Uuid` (feature `uuid`): its 16 bytes as they are, so keys sort as
//! `Uuid`'s `Ord` does (byte order; for version 7 UUIDs, creation time).
//!
//! ```
//! use rowkey::RowKey;
//! use uuid::Uuid;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Session { tenant: u32, id: Uuid }
//!
//! let id = Uuid::from_u128(0x0190_1234_5678_7abc_8def_0123_4567_89ab);
//! let key = Session { tenant: 7, id }.to_key()?;
//! assert_eq!(&key[4..], id.as_bytes());
//! assert_eq!(Session::decode(&key)?, Session { tenant: 7, id });
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::{DecodeError, EncodeError};
use crate::part::{DecodePart, KeyPart};
use crate::reader::KeyReader;
use crate::writer::KeyWriter;
use uuid::Uuid;

impl KeyPart for Uuid {
    const MAX_LEN: usize = 16;
    const FIXED_LEN: Option<usize> = Some(16);
    const VALUE: crate::layout::ValueKind = crate::layout::ValueKind::Uuid;
    #[inline]
    fn encoded_len(&self) -> usize {
        16
    }
    #[inline]
    fn encode(&self, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
        w.put(self.as_bytes())
    }
}

impl DecodePart<'_> for Uuid {
    #[inline]
    fn decode(r: &mut KeyReader<'_>) -> Result<Self, DecodeError> {
        Ok(Uuid::from_bytes(r.take_array()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn enc(v: Uuid) -> Vec<u8> {
        crate::codec::test_util::enc(v).unwrap()
    }

    fn dec(b: &[u8]) -> Result<Uuid, DecodeError> {
        crate::codec::test_util::dec(b)
    }

    #[test]
    fn golden() {
        let id = Uuid::from_u128(0x0190_1234_5678_7abc_8def_0123_4567_89ab);
        assert_eq!(
            enc(id),
            [
                0x01, 0x90, 0x12, 0x34, 0x56, 0x78, 0x7a, 0xbc, 0x8d, 0xef, 0x01, 0x23, 0x45, 0x67,
                0x89, 0xab
            ]
        );
    }

    proptest! {
        /// Roundtrip, order, injectivity; any 16 bytes are a UUID (so
        /// decode is canonical); other lengths are errors, not panics.
        #[test]
        fn uuid_codec(a: u128, b: u128, junk in proptest::collection::vec(any::<u8>(), 0..20)) {
            let (a, b) = (Uuid::from_u128(a), Uuid::from_u128(b));
            let (ea, eb) = (enc(a), enc(b));
            prop_assert_eq!(dec(&ea).unwrap(), a);
            prop_assert_eq!(a.cmp(&b), ea.cmp(&eb));
            prop_assert_eq!(a == b, ea == eb);
            match dec(&junk) {
                Ok(v) => prop_assert_eq!(enc(v), junk),
                Err(_) => prop_assert!(junk.len() != 16),
            }
        }
    }
}
