//! A key's fields by name, for `#[derive(Record)]`: the table of names a
//! derived key carries ([`KeyFields`]) and one typed slot per field
//! ([`KeyField`]). A record derive matches its struct's fields to these by
//! name at compile time (a `const` lookup of [`KeyFields::NAMES`]), so it
//! needs no list of the key's fields in its own attributes. Reached only
//! through `__private`: not API.

use crate::buf::KeyStorage;
use crate::{DecodeError, EncodeError, KeyWriter, RowKey};

/// The fields of a derived key, by name, and the key taken apart into one
/// `Option` per field (`Parts`, a tuple in key order).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot key a record: it is not a `#[derive(RowKey)]` struct without lifetimes",
    label = "not a key a record can use",
    note = "#[record(key = K)] needs K to be a #[derive(RowKey)] struct that owns its fields (no lifetimes)"
)]
pub trait KeyFields: RowKey + Sized {
    /// The fields' names, in key order.
    const NAMES: &'static [&'static str];
    /// Set by the stub a failed key derive emits: every name matches, so a
    /// record of a broken key adds no errors of its own.
    const STUB: bool = false;
    /// One `Option` per field, in key order.
    type Parts;
    /// Every slot empty.
    fn empty_parts() -> Self::Parts;
    /// The key decoded from `bytes` and taken apart.
    fn decode_parts(bytes: &[u8]) -> Result<Self::Parts, DecodeError>;
    /// The key from its parts, `None` if a slot is empty.
    fn from_parts(parts: Self::Parts) -> Option<Self>;
    /// The key's fields borrowed from elsewhere (a record's own fields),
    /// one `Option<&T>` per field in key order: a record's key is written
    /// from them without building the key (no clone of a `String` field).
    type RefParts<'a>;
    /// Every borrowed slot empty. (The bound makes `'a` early bound, here
    /// and in each impl.)
    fn empty_ref_parts<'a>() -> Self::RefParts<'a>
    where
        'a: 'a;
    /// Whether `write_ref_parts` writes the key:
    /// not when its encoder needs the whole struct (a custom salt hash
    /// takes `&Self`), where the caller builds the key instead.
    const WRITES_REF_PARTS: bool;
    /// Writes the key of `parts` into `w`, as `write_key` writes the key
    /// struct. A slot left empty is a bug of the caller (a record's
    /// `const` checks prove it fills each).
    fn write_ref_parts(
        parts: &Self::RefParts<'_>,
        w: &mut KeyWriter<'_>,
    ) -> Result<(), EncodeError>;
}

/// The `I`-th field of the key, of type `T`.
#[diagnostic::on_unimplemented(
    message = "this field is `{T}`, but the field of the same name in the key `{Self}` has another type",
    label = "not the type of the key's field of this name",
    note = "a record's key fields are matched by name and must have the key field's type"
)]
pub trait KeyField<const I: usize, T>: KeyFields {
    /// The field's slot.
    fn slot(parts: &mut Self::Parts) -> &mut Option<T>;
    /// The field's borrowed slot. (The bound makes both lifetimes early
    /// bound, here and in the derive's impl, which spells `RefParts` out.)
    fn ref_slot<'p, 'a>(parts: &'p mut Self::RefParts<'a>) -> &'p mut Option<&'a T>
    where
        'a: 'p;
}

/// The key of borrowed `parts`, `None` where the key cannot be written
/// from them ([`KeyFields::WRITES_REF_PARTS`]).
#[inline(always)]
pub fn encode_ref_parts<K: KeyFields>(
    parts: &K::RefParts<'_>,
) -> Option<Result<K::Key, EncodeError>> {
    if !K::WRITES_REF_PARTS {
        return None;
    }
    Some(K::Key::encode_with(K::layout().name, |w| {
        K::write_ref_parts(parts, w)
    }))
}

/// The index of the key field `name`, `usize::MAX` if the key has none
/// (0 for a stub: every name is a key field).
pub const fn key_index<K: KeyFields>(name: &str) -> usize {
    if K::STUB {
        return 0;
    }
    let mut i = 0;
    while i < K::NAMES.len() {
        if str_eq(K::NAMES[i], name) {
            return i;
        }
        i += 1;
    }
    usize::MAX
}

/// Whether `name` is a field of `K`.
pub const fn is_key_field<K: KeyFields>(name: &str) -> bool {
    key_index::<K>(name) != usize::MAX
}

/// `a == b`, in a `const`.
pub const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// `parts` joined into `buf`, cut at its end (on a char boundary).
pub const fn concat<'a, const N: usize>(buf: &'a mut [u8; N], parts: &[&str]) -> &'a str {
    let mut n = 0;
    let mut i = 0;
    // The first byte that did not fit, if any.
    let mut next: Option<u8> = None;
    while i < parts.len() && next.is_none() {
        let p = parts[i].as_bytes();
        let mut j = 0;
        while j < p.len() {
            if n == N {
                next = Some(p[j]);
                break;
            }
            buf[n] = p[j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    // A cut inside a char: back off to its first byte.
    if let Some(b) = next {
        if b & 0xC0 == 0x80 {
            while n > 0 && buf[n - 1] & 0xC0 == 0x80 {
                n -= 1;
            }
            n = n.saturating_sub(1);
        }
    }
    let (head, _) = buf.split_at(n);
    match core::str::from_utf8(head) {
        Ok(s) => s,
        Err(_) => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn const_helpers() {
        assert!(str_eq("ab", "ab") && !str_eq("ab", "abc") && !str_eq("ab", "ac"));
        let mut buf = [0u8; 8];
        assert_eq!(concat(&mut buf, &["ab", "cd"]), "abcd");
        let mut buf = [0u8; 4];
        assert_eq!(concat(&mut buf, &["ab", "cdef"]), "abcd");
        let mut buf = [0u8; 3];
        // "é" is two bytes: the cut falls inside it and backs off.
        assert_eq!(concat(&mut buf, &["ab", "é"]), "ab");
    }
}
