//! [`PhoenixPut`]: what a key column is written from. A
//! [`PhoenixValue`] (a record's or key's field), or a borrowed text or
//! bytes value, so a typed scan step takes `"web-01"` for a `VARCHAR`
//! (`Key::scan().host.eq("web-01")`) without building a `String`.
//! [`PhoenixScanArg`] names, for each field type, what its steps take.

use super::text::{check_bytes, check_text, put_text};
use super::value::PhoenixValue;
use super::PhoenixType;
use crate::error::EncodeErrorKind;

/// A value a Phoenix key column is written from: the write half of
/// [`PhoenixValue`], also implemented for `&str`, `&[u8]` and their
/// `Option`s.
pub trait PhoenixPut {
    /// The Phoenix types it holds: [`PhoenixType::bit`]s.
    const HOLDS: u32;
    /// Whether it is SQL NULL (`None`).
    fn is_null(&self) -> bool;
    /// Why it has no bytes as `ty`, if it has none.
    fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind>;
    /// Appends its bytes as `ty` (ascending form), for a value
    /// [`check`](Self::check) accepts.
    fn put_phoenix(&self, ty: &PhoenixType, out: &mut dyn FnMut(&[u8]));
}

impl<T: PhoenixValue> PhoenixPut for T {
    const HOLDS: u32 = T::HOLDS;
    #[inline]
    fn is_null(&self) -> bool {
        PhoenixValue::is_null(self)
    }
    #[inline]
    fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
        PhoenixValue::check(self, ty)
    }
    #[inline]
    fn put_phoenix(&self, ty: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
        PhoenixValue::put_phoenix(self, ty, out)
    }
}

impl PhoenixPut for &str {
    const HOLDS: u32 = <String as PhoenixValue>::HOLDS;
    fn is_null(&self) -> bool {
        false
    }
    fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
        check_text(self, ty)
    }
    fn put_phoenix(&self, ty: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
        put_text(self, ty, out)
    }
}

impl PhoenixPut for &[u8] {
    const HOLDS: u32 = <Vec<u8> as PhoenixValue>::HOLDS;
    fn is_null(&self) -> bool {
        false
    }
    fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
        check_bytes(self, ty)
    }
    fn put_phoenix(&self, _: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
        out(self)
    }
}

/// `None` is NULL; `Some` is the borrowed value's.
macro_rules! optional_borrowed {
    ($($t:ty),*) => {$(
        impl PhoenixPut for Option<$t> {
            const HOLDS: u32 = <$t as PhoenixPut>::HOLDS;
            fn is_null(&self) -> bool {
                self.is_none()
            }
            fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
                self.as_ref().map_or(Ok(()), |v| v.check(ty))
            }
            fn put_phoenix(&self, ty: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
                if let Some(v) = self {
                    v.put_phoenix(ty, out)
                }
            }
        }
    )*};
}
optional_borrowed!(&str, &[u8]);

/// What a typed scan step of a Phoenix key column of Rust type `Self`
/// takes: `&str` for a `String`, `&[u8]` for a `Vec<u8>`, `Option<&str>`
/// for an `Option<String>`, and the type itself otherwise.
pub trait PhoenixScanArg: PhoenixValue {
    /// The value a step takes.
    type Arg<'v>: PhoenixPut;
}

impl PhoenixScanArg for String {
    type Arg<'v> = &'v str;
}
impl PhoenixScanArg for Option<String> {
    type Arg<'v> = Option<&'v str>;
}
impl PhoenixScanArg for Vec<u8> {
    type Arg<'v> = &'v [u8];
}
impl PhoenixScanArg for Option<Vec<u8>> {
    type Arg<'v> = Option<&'v [u8]>;
}

macro_rules! scan_arg_itself {
    ($($t:ty),*) => {$(
        impl PhoenixScanArg for $t {
            type Arg<'v> = $t;
        }
        impl PhoenixScanArg for Option<$t> {
            type Arg<'v> = Option<$t>;
        }
    )*};
}
/// Calls macro `$m` with the Rust types of Phoenix columns whose scan
/// steps take them as themselves (all but text and bytes).
macro_rules! with_types_taken_as_themselves {
    ($m:ident) => {
        $m!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, bool);
        $m!($crate::codec::phoenix::PhoenixTimestamp);
        #[cfg(feature = "rust_decimal")]
        $m!(rust_decimal::Decimal);
    };
}
pub(crate) use with_types_taken_as_themselves;

with_types_taken_as_themselves!(scan_arg_itself);

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes<V: PhoenixPut>(v: V, ty: PhoenixType) -> Vec<u8> {
        let mut out = Vec::new();
        v.put_phoenix(&ty, &mut |b| out.extend_from_slice(b));
        out
    }

    #[test]
    fn borrowed_values_write_what_their_owned_forms_write() {
        let char5 = PhoenixType::Char { len: 5 };
        let varchar = PhoenixType::Varchar { max_chars: None };
        assert_eq!(bytes("ab", char5), bytes(String::from("ab"), char5));
        assert_eq!(
            bytes(Some("héllo"), varchar),
            bytes(Some(String::from("héllo")), varchar)
        );
        assert_eq!(bytes(&[1u8, 2][..], PhoenixType::Varbinary), vec![1, 2]);
        assert!(PhoenixPut::is_null(&None::<&str>));
        assert_eq!(
            PhoenixPut::check(&"", &varchar),
            PhoenixValue::check(&String::new(), &varchar)
        );
        assert!(PhoenixPut::check(&&[0u8; 3][..], &PhoenixType::Binary { len: 4 }).is_err());
    }
}
