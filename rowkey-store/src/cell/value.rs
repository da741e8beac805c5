//! The built-in codecs of plain values, as HBase's `Bytes` writes them:
//! integers and floats big-endian, `bool` as one byte, text UTF-8, bytes
//! raw.

use super::{CellError, CellValue};

/// A fixed-width value's bytes, or the width error naming `what`.
fn exact<const N: usize>(bytes: &[u8], what: &'static str) -> Result<[u8; N], CellError> {
    bytes
        .try_into()
        .map_err(|_| CellError::width(N, bytes.len(), what))
}

macro_rules! big_endian {
    ($($ty:ty => $what:literal),* $(,)?) => {$(
        /// Big-endian, as HBase's `Bytes.toBytes` writes the Java type of
        /// the same width (unsigned types: the same bits).
        impl CellValue for $ty {
            fn to_cell(&self) -> Vec<u8> {
                self.to_be_bytes().to_vec()
            }
            fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
                Ok(<$ty>::from_be_bytes(exact(bytes, $what)?))
            }
        }
    )*};
}

big_endian! {
    u8 => "a u8", i8 => "an i8", u16 => "a u16", i16 => "an i16",
    u32 => "a u32", i32 => "an i32", u64 => "a u64", i64 => "an i64",
    u128 => "a u128", i128 => "an i128",
}

/// The IEEE 754 bits, big-endian, as HBase's `Bytes.toBytes(double)`
/// (`doubleToRawLongBits`) writes them: every value kept as its bits, NaN
/// payloads and `-0.0` included.
impl CellValue for f64 {
    fn to_cell(&self) -> Vec<u8> {
        self.to_bits().to_be_bytes().to_vec()
    }
    fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
        Ok(f64::from_bits(u64::from_be_bytes(exact(bytes, "an f64")?)))
    }
}

/// The IEEE 754 bits, big-endian, as HBase's `Bytes.toBytes(float)`
/// (`floatToRawIntBits`) writes them: every value kept as its bits.
impl CellValue for f32 {
    fn to_cell(&self) -> Vec<u8> {
        self.to_bits().to_be_bytes().to_vec()
    }
    fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
        Ok(f32::from_bits(u32::from_be_bytes(exact(bytes, "an f32")?)))
    }
}

/// One byte, as HBase's `Bytes.toBytes(boolean)` writes it: `0xFF` for
/// true, `0x00` for false; read as `Bytes.toBoolean` reads it: any byte
/// but `0x00` is true.
impl CellValue for bool {
    fn to_cell(&self) -> Vec<u8> {
        vec![if *self { 0xFF } else { 0x00 }]
    }
    fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
        let [b] = exact::<1>(bytes, "a bool")?;
        Ok(b != 0)
    }
}

fn utf8(bytes: &[u8]) -> Result<&str, CellError> {
    core::str::from_utf8(bytes).map_err(|e| CellError::Utf8 {
        valid_up_to: e.valid_up_to(),
    })
}

/// UTF-8, as HBase's `Bytes.toBytes(String)` writes it. Bytes that are
/// not UTF-8 are an error (`Bytes.toString` would replace them).
impl CellValue for String {
    fn to_cell(&self) -> Vec<u8> {
        self.as_bytes().to_vec()
    }
    fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
        utf8(bytes).map(str::to_owned)
    }
}

/// UTF-8, as `String`.
impl CellValue for Box<str> {
    fn to_cell(&self) -> Vec<u8> {
        self.as_bytes().to_vec()
    }
    fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
        utf8(bytes).map(Box::from)
    }
}

/// The char's UTF-8 (1 to 4 bytes): a one-char Java `String`.
impl CellValue for char {
    fn to_cell(&self) -> Vec<u8> {
        let mut buf = [0; 4];
        self.encode_utf8(&mut buf).as_bytes().to_vec()
    }
    fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
        let mut chars = utf8(bytes)?.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(CellError::invalid(format!(
                "expected one char, found {} bytes of text",
                bytes.len()
            ))),
        }
    }
}

/// The bytes as they are.
impl CellValue for Vec<u8> {
    fn to_cell(&self) -> Vec<u8> {
        self.clone()
    }
    fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
        Ok(bytes.to_vec())
    }
}

/// The bytes as they are.
impl CellValue for Box<[u8]> {
    fn to_cell(&self) -> Vec<u8> {
        self.to_vec()
    }
    fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
        Ok(bytes.into())
    }
}

/// The `N` bytes as they are; a cell of another length is an error.
impl<const N: usize> CellValue for [u8; N] {
    fn to_cell(&self) -> Vec<u8> {
        self.to_vec()
    }
    fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
        exact(bytes, "a byte array")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn roundtrip<T: CellValue + PartialEq + core::fmt::Debug>(v: T) -> Result<(), TestCaseError> {
        prop_assert_eq!(T::from_cell(&v.to_cell()).unwrap(), v);
        Ok(())
    }

    proptest! {
        #[test]
        fn integers_roundtrip_big_endian(a: u8, b: i8, c: u16, d: i16, e: u32, f: i32, g: u64, h: i64, i: u128, j: i128) {
            roundtrip(a)?; roundtrip(b)?; roundtrip(c)?; roundtrip(d)?; roundtrip(e)?;
            roundtrip(f)?; roundtrip(g)?; roundtrip(h)?; roundtrip(i)?; roundtrip(j)?;
            prop_assert_eq!(h.to_cell(), h.to_be_bytes().to_vec());
        }

        /// Every bit pattern, NaNs included, comes back as its bits.
        #[test]
        fn floats_keep_their_bits(d: u64, f: u32) {
            let back = f64::from_cell(&f64::from_bits(d).to_cell()).unwrap();
            prop_assert_eq!(back.to_bits(), d);
            let back = f32::from_cell(&f32::from_bits(f).to_cell()).unwrap();
            prop_assert_eq!(back.to_bits(), f);
        }

        #[test]
        fn text_and_bytes_roundtrip(s: String, c: char, v: Vec<u8>, a: [u8; 5]) {
            roundtrip(s.clone())?; roundtrip(Box::<str>::from(s))?; roundtrip(c)?;
            roundtrip(v.clone())?; roundtrip(Box::<[u8]>::from(v))?; roundtrip(a)?;
        }

        /// No bytes make a decoder panic: each gives a value or an error.
        #[test]
        fn any_bytes_give_a_value_or_an_error(v in proptest::collection::vec(any::<u8>(), 0..20)) {
            let _ = u64::from_cell(&v); let _ = i16::from_cell(&v); let _ = f64::from_cell(&v);
            let _ = bool::from_cell(&v); let _ = String::from_cell(&v); let _ = char::from_cell(&v);
            let _ = <[u8; 3]>::from_cell(&v);
        }
    }

    #[test]
    fn hbase_forms_and_errors() {
        assert_eq!(true.to_cell(), [0xFF]);
        assert_eq!(false.to_cell(), [0x00]);
        assert!(bool::from_cell(&[0x01]).unwrap());
        assert!(!bool::from_cell(&[0x00]).unwrap());
        assert_eq!(
            bool::from_cell(&[]).unwrap_err().to_string(),
            "expected 1 bytes (a bool), found 0"
        );
        assert_eq!((-1i32).to_cell(), [0xFF; 4]);
        assert_eq!(String::new().to_cell(), b"");
        assert_eq!(String::from_cell(b"").unwrap(), "");
        assert!(matches!(
            String::from_cell(b"ab\xFF").unwrap_err(),
            CellError::Utf8 { valid_up_to: 2 }
        ));
        assert!(char::from_cell(b"ab").is_err() && char::from_cell(b"").is_err());
        assert_eq!(char::from_cell("张".as_bytes()).unwrap(), '张');
        assert_eq!((-0.0f64).to_cell(), [0x80, 0, 0, 0, 0, 0, 0, 0]);
    }
}
