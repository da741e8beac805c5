//! Typed scan steps on an Apache Phoenix key's columns
//! (`#[rowkey(phoenix)]`): [`codec::Phoenix`](super::field_codec::codec::Phoenix).
//!
//! A Phoenix key ends a variable-length column with a `00` separator
//! only when a later column is not NULL, and drops trailing NULLs
//! ([`crate::codec::phoenix`]). So the builder owes those separators
//! ([`ScanBuilder::put_phoenix`]) and writes them only before a value:
//! `host.eq("web-01")` reads `web-01` itself (every later column NULL)
//! up to the first key past `web-01 00`. A range holds no NULL, as
//! Phoenix's `WHERE c > x` does not, and NULLs sort below every value
//! (a NULL is no bytes, then `00`), so an open start begins above them.

use super::builder::After;
use super::field_codec::{codec, prefix_plan, write_value, InItem, ScanCodec, ScanFieldInfo};
use super::{ScanBuilder, ScanPlan};
use crate::codec::phoenix::{
    put_column, PhoenixColumn, PhoenixKeyLen, PhoenixPut, PhoenixScanArg, PhoenixType,
};
use crate::{EncodeError, EncodeErrorKind, FieldCodec, KeyWriter};
use core::ops::Bound;

/// The Phoenix column field `f` is (the derive names this codec for
/// Phoenix keys only).
fn column(f: &ScanFieldInfo) -> PhoenixColumn {
    match f.layout.codec {
        FieldCodec::Phoenix { ty, last, max_len } => {
            PhoenixColumn::of(ty, f.layout.desc, last, max_len)
        }
        _ => super::field_codec::unreachable_codec(),
    }
}

impl<const N: usize, const M: usize> ScanBuilder<N, M> {
    /// Writes a Phoenix key column's value at the builder's end
    /// ([`put_column`](crate::codec::phoenix::put_column)): the separators
    /// owed first unless the value is NULL, whose own separator is owed
    /// in turn. After a field left free, a fuzzy pattern matches keys
    /// that start with it: a NULL or an ascending variable-length value
    /// (whose end is a separator not yet written) would match more than
    /// the value, so each is an error.
    pub(crate) fn put_phoenix<V: PhoenixPut + ?Sized>(
        &mut self,
        field: &'static str,
        value: &V,
        col: &PhoenixColumn,
    ) {
        let open_ended = value.is_null() || (col.ty.fixed_width().is_none() && !col.desc);
        if self.has_free() && open_ended {
            let at = self.position();
            return self.fail(EncodeError::new(
                self.key_name(),
                field,
                at,
                EncodeErrorKind::Invalid(
                    "after a field left free, a Phoenix column is matched exactly only when it is fixed-width or DESC and not NULL (a fuzzy filter matches keys that start with its pattern): use a range or leave it free",
                ),
            ));
        }
        let mut len = PhoenixKeyLen::owing(self.owed);
        self.write(|w| {
            w.field(field);
            put_column(w, value, col, &mut len)
        });
        self.owed = len.pending();
        // Every column NULL: no key Phoenix stores (the plan is empty,
        // and there is no key to get).
        self.all_null = col.last && self.position() == self.initial_prefix;
    }
}

/// Why a NULL is no range bound.
const NULL_BOUND: EncodeErrorKind = EncodeErrorKind::Invalid(
    "a range bound is a value, not NULL (a range holds no NULL, as Phoenix's WHERE does not): eq(None) gives the rows where the column is NULL",
);

impl<T: PhoenixScanArg> ScanCodec for codec::Phoenix<T> {
    type Value<'v> = T::Arg<'v>;
    type Prefix = str;
    type LatestRule = super::LatestNeedsADescTsField;

    /// The value's bytes and the separator it ends with now (a bound: the
    /// builder writes the separators owed before it).
    fn put(w: &mut KeyWriter<'_>, f: &ScanFieldInfo, v: &T::Arg<'_>) -> Result<(), EncodeError> {
        put_column(w, v, &column(f), &mut PhoenixKeyLen::owing(0))
    }

    fn set<const N: usize, const M: usize>(
        b: &mut ScanBuilder<N, M>,
        f: &ScanFieldInfo,
        value: &T::Arg<'_>,
    ) {
        b.put_phoenix(f.name(), value, &column(f));
    }

    /// A `VARCHAR` or `CHAR` prefix: its bytes (inverted for DESC).
    fn put_prefix(w: &mut KeyWriter<'_>, f: &ScanFieldInfo, p: &str) -> Result<(), EncodeError> {
        let col = column(f);
        let var = col.ty.fixed_width().is_none();
        match col.ty {
            PhoenixType::Varchar { max_chars } => {
                let chars = p.encode_utf16().count();
                if let Some(max) = max_chars.filter(|m| chars > *m as usize) {
                    return Err(w.error(EncodeErrorKind::TooManyChars {
                        chars,
                        max: max as usize,
                    }));
                }
            }
            PhoenixType::Char { len } => {
                if !p.is_ascii() {
                    return Err(w.error(EncodeErrorKind::Invalid(
                        "Phoenix's CHAR holds single-byte characters only",
                    )));
                }
                if p.len() > len as usize {
                    return Err(w.error(EncodeErrorKind::TooLong {
                        len: p.len(),
                        max: len as usize,
                    }));
                }
            }
            _ => {
                return Err(w.error(EncodeErrorKind::Invalid(
                    "starts_with applies to a Phoenix VARCHAR or CHAR column",
                )))
            }
        }
        if let Some(max) = col.max_len.filter(|m| p.len() > *m) {
            return Err(w.error(EncodeErrorKind::TooLong { len: p.len(), max }));
        }
        if var && (!col.last || col.desc) && p.as_bytes().contains(&0) {
            return Err(w.error(EncodeErrorKind::Invalid(
                "a zero byte (U+0000) in a Phoenix VARCHAR key column before the last or DESC: no value holds it",
            )));
        }
        if !var && p.ends_with(' ') {
            // "ab" is stored "ab   ": its bytes start with "ab ", the
            // value does not.
            return Err(w.error(EncodeErrorKind::Invalid(
                "a CHAR prefix ending with a space: Phoenix pads CHAR with spaces, so its shorter values would match too",
            )));
        }
        let start = w.position();
        w.put(p.as_bytes())?;
        if col.desc {
            w.invert_since(start);
        }
        Ok(())
    }

    /// The empty prefix starts every value but no NULL: the whole range.
    fn starts_with<const N: usize, const M: usize>(
        b: &ScanBuilder<N, M>,
        f: &ScanFieldInfo,
        prefix: &str,
    ) -> Result<ScanPlan<N>, EncodeError> {
        if prefix.is_empty() {
            return Self::range(b, f, Bound::Unbounded, Bound::Unbounded);
        }
        prefix_plan::<Self, N, M>(b, f, prefix)
    }

    fn range<const N: usize, const M: usize>(
        b: &ScanBuilder<N, M>,
        f: &ScanFieldInfo,
        lo: Bound<&T::Arg<'_>>,
        hi: Bound<&T::Arg<'_>>,
    ) -> Result<ScanPlan<N>, EncodeError> {
        let is_null = |bound: &Bound<&T::Arg<'_>>| match bound {
            Bound::Included(v) | Bound::Excluded(v) => v.is_null(),
            Bound::Unbounded => false,
        };
        if is_null(&lo) || is_null(&hi) {
            return Err(EncodeError::new(
                b.key_name(),
                f.name(),
                b.position(),
                NULL_BOUND,
            ));
        }
        let col = column(f);
        let var = col.ty.fixed_width().is_none();
        // Where the keys after a value's start: a fixed-width value or a
        // DESC one (ended by FF) is prefix-free; an ascending
        // variable-length one before the last goes on with `00` and a
        // later column, or ends the key; the last one is raw.
        let (after, floor) = match (var, col.desc, col.last) {
            (false, _, _) => (After::Successor, None),
            (true, true, _) => (After::Successor, Some(0x01)),
            (true, false, false) => (After::One, Some(0x01)),
            (true, false, true) => (After::Zero, Some(0x00)),
        };
        b.bounds_after(
            lo.map(|v| write_value::<Self>(f, v)),
            hi.map(|v| write_value::<Self>(f, v)),
            col.desc,
            after,
            floor,
        )
    }
}

// What `is_in` takes on a Phoenix key column of Rust type `T`: anything
// `AsRef<str>` for a `String` (`&str`, `String`), `AsRef<[u8]>` for a
// `Vec<u8>`, an `Option` of those for an `Option<String>` /
// `Option<Vec<u8>>`, and what borrows as `T` otherwise (the owned
// codecs' `InItem`).

impl<V: AsRef<str>> InItem<codec::Phoenix<String>> for V {
    #[inline]
    fn with_value<R>(&self, f: impl FnOnce(&&str) -> R) -> R {
        f(&self.as_ref())
    }
}

impl<V: AsRef<[u8]>> InItem<codec::Phoenix<Vec<u8>>> for V {
    #[inline]
    fn with_value<R>(&self, f: impl FnOnce(&&[u8]) -> R) -> R {
        f(&self.as_ref())
    }
}

impl<V: AsRef<str>> InItem<codec::Phoenix<Option<String>>> for Option<V> {
    #[inline]
    fn with_value<R>(&self, f: impl FnOnce(&Option<&str>) -> R) -> R {
        f(&self.as_ref().map(AsRef::as_ref))
    }
}

impl<V: AsRef<[u8]>> InItem<codec::Phoenix<Option<Vec<u8>>>> for Option<V> {
    #[inline]
    fn with_value<R>(&self, f: impl FnOnce(&Option<&[u8]>) -> R) -> R {
        f(&self.as_ref().map(AsRef::as_ref))
    }
}

macro_rules! items_taken_as_themselves {
    ($($t:ty),*) => {$(
        super::field_codec::in_item_owned! {
            impl<> for codec::Phoenix<$t> => $t;
            impl<> for codec::Phoenix<Option<$t>> => Option<$t>;
        }
    )*};
}
crate::codec::phoenix::with_types_taken_as_themselves!(items_taken_as_themselves);
