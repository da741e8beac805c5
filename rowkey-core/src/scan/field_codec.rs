//! How a [`Step`](super::Step) writes its field: [`ScanCodec`], one
//! implementation per kind of codec, written once here for every key.
//!
//! The derive names a field's codec as a type (`codec::Digits<u32>`,
//! `codec::BorrowedBytes<&'a str>`): the type says what the field's steps
//! take and which trait its value needs. The codec's options (widths,
//! padding, `#[desc]`, the separator) are not type parameters: they are
//! read from the key's [`Layout`](crate::Layout), a constant, so an
//! optimised build folds them as if they were written inline, and a key
//! costs the compiler one small description per field rather than one
//! body per finisher.

use super::{ScanBuilder, ScanPlan, Yes};
use crate::codec::{self as kinds, option, BytesCodec, KeyBytes, TextDate, TextInt, Timestamp};
use crate::{EncodeError, EncodeErrorKind, FieldLayout, KeyPart, KeyWriter, RowKey};
use core::marker::PhantomData;
use core::ops::Bound;

/// One field of a key, as its scan steps see it: its layout and where it
/// sits. Read from [`RowKey::layout`].
#[derive(Clone, Copy)]
pub struct ScanFieldInfo {
    /// The field's layout.
    pub layout: &'static FieldLayout,
    /// The key's separator (separator-joined keys), if any.
    pub separator: Option<u8>,
    /// The last field of the key.
    pub last: bool,
}

impl ScanFieldInfo {
    /// Field `depth` of key `K`.
    #[inline]
    pub fn of<K: RowKey>(depth: usize) -> Self {
        let layout = K::layout();
        ScanFieldInfo {
            layout: &layout.fields[depth],
            // The derive writes the separator byte as the char of the same
            // number (`b as char`), so this is the byte back.
            separator: layout.separator.map(|c| c as u8),
            last: depth + 1 == layout.fields.len(),
        }
    }

    /// The field's name, for errors.
    #[inline]
    pub fn name(&self) -> &'static str {
        self.layout.name
    }

    /// The byte written after the field: the separator, but not after the
    /// last field.
    #[inline]
    pub fn separator_after(&self) -> Option<u8> {
        self.separator.filter(|_| !self.last)
    }

    /// No stored value is a prefix of another: the codec's rule, for the
    /// field where it sits.
    #[inline]
    pub fn prefix_free(&self) -> bool {
        self.layout.codec.prefix_free(self.last)
    }

    fn digits(&self) -> kinds::Digits {
        self.layout.digits().unwrap_or_else(|| unreachable_codec())
    }

    fn bytes(&self) -> BytesCodec {
        self.layout
            .bytes_codec(self.separator)
            .unwrap_or_else(|| unreachable_codec())
    }

    fn desc_ts(&self) -> kinds::DescTs {
        match self.layout.codec {
            crate::FieldCodec::DescTimestamp { text } => kinds::DescTs { text },
            _ => unreachable_codec(),
        }
    }
}

/// The derive pairs each codec type with the layout it writes: another
/// pairing is a bug in the derive, never a user's input.
#[cold]
pub(crate) fn unreachable_codec() -> ! {
    unreachable!("rowkey: a scan field's codec does not match its layout")
}

/// How a field's value is written by its scan steps. Implemented here
/// for each codec the derive chooses; not for users.
#[doc(hidden)]
pub trait ScanCodec {
    /// What `eq` and range bounds take: the field's type, or `&str` /
    /// `&[u8]` for a text or bytes field.
    type Value<'v>;
    /// What `starts_with` takes.
    type Prefix: ?Sized;
    /// [`Yes`] on a `#[desc_ts]` field, or why `latest` does not apply.
    type LatestRule;
    /// The value's bytes sort like the values (a `KeyPart` may say not).
    const ORDERED: bool = true;

    /// Writes `value` as the field's bytes.
    fn put(
        w: &mut KeyWriter<'_>,
        f: &ScanFieldInfo,
        value: &Self::Value<'_>,
    ) -> Result<(), EncodeError>;

    /// Fixes the field to `value` at the builder's end: its bytes, as
    /// [`put`](Self::put) writes them (a Phoenix column's also owe or pay
    /// the separators of the key around it).
    #[inline]
    fn set<const N: usize, const M: usize>(
        b: &mut ScanBuilder<N, M>,
        f: &ScanFieldInfo,
        value: &Self::Value<'_>,
    ) {
        b.write(|w| {
            w.field(f.name());
            Self::put(w, f, value)
        });
    }

    /// Writes the stored bytes a prefix of the field starts with.
    fn put_prefix(
        w: &mut KeyWriter<'_>,
        f: &ScanFieldInfo,
        prefix: &Self::Prefix,
    ) -> Result<(), EncodeError> {
        let _ = (f, prefix);
        Err(w.error(EncodeErrorKind::Invalid("no prefix scan on this field")))
    }

    /// The plan of keys whose field starts with `prefix`: the bytes
    /// written so far and the prefix's.
    fn starts_with<const N: usize, const M: usize>(
        b: &ScanBuilder<N, M>,
        f: &ScanFieldInfo,
        prefix: &Self::Prefix,
    ) -> Result<ScanPlan<N>, EncodeError> {
        prefix_plan::<Self, N, M>(b, f, prefix)
    }

    /// The plan of keys whose field lies between `lo` and `hi`: bounds
    /// written as values are.
    fn range<const N: usize, const M: usize>(
        b: &ScanBuilder<N, M>,
        f: &ScanFieldInfo,
        lo: Bound<&Self::Value<'_>>,
        hi: Bound<&Self::Value<'_>>,
    ) -> Result<ScanPlan<N>, EncodeError> {
        const {
            assert!(Self::ORDERED, "this KeyPart type says its bytes do not sort like its values (KeyPart::ORDERED is false): ranges on it would miss rows")
        };
        b.bounds(
            lo.map(|v| write_value::<Self>(f, v)),
            hi.map(|v| write_value::<Self>(f, v)),
            f.layout.desc,
            f.prefix_free(),
        )
    }
}

/// Every key whose field `f` (of codec `C`) starts with `prefix`: the
/// bytes written so far and the prefix's.
pub(super) fn prefix_plan<C: ScanCodec + ?Sized, const N: usize, const M: usize>(
    b: &ScanBuilder<N, M>,
    f: &ScanFieldInfo,
    prefix: &C::Prefix,
) -> Result<ScanPlan<N>, EncodeError> {
    let mut b = *b;
    // A Phoenix column with a prefix is not NULL: the separators owed
    // before it are written (none for other keys).
    b.pay_owed();
    b.write(|w| {
        w.field(f.name());
        C::put_prefix(w, f, prefix)
    });
    b.prefix()
}

/// Writes `value` as field `f`, naming it in errors.
pub(super) fn write_value<'a, 'v, C: ScanCodec + ?Sized>(
    f: &'a ScanFieldInfo,
    value: &'a C::Value<'v>,
) -> impl FnOnce(&mut KeyWriter<'_>) -> Result<(), EncodeError> + use<'a, 'v, C> {
    move |w| {
        w.field(f.name());
        C::put(w, f, value)
    }
}

/// The value of a bound, if it has one.
fn bound_value<T: Copy>(b: Bound<&T>) -> Option<T> {
    match b {
        Bound::Included(v) | Bound::Excluded(v) => Some(*v),
        Bound::Unbounded => None,
    }
}

/// The stored bytes of a borrowed value (`&&str`).
fn borrowed_bytes<'a, B: KeyBytes + ?Sized>(v: &&'a B) -> &'a [u8] {
    B::key_bytes(v)
}

/// The stored bytes of an owned value.
fn owned_bytes<T: KeyBytes>(v: &T) -> &[u8] {
    v.key_bytes()
}

/// Codec types the derive names; each is a marker, never built.
pub mod codec {
    use super::*;

    /// The type's own [`KeyPart`] encoding (inverted under `#[desc]`).
    pub struct Part<T>(PhantomData<fn() -> T>);
    /// `#[text]` integers: zero-padded digits.
    pub struct Digits<T>(PhantomData<fn() -> T>);
    /// Text or bytes of field type `T`, taken borrowed (as
    /// `T::Borrowed`: `&str`, `&[u8]`).
    pub struct BorrowedBytes<T>(PhantomData<fn() -> T>);
    /// Text or bytes, taken as the field's own type (a `group_by` field,
    /// or inside an `Option`).
    pub struct OwnedBytes<T>(PhantomData<fn() -> T>);
    /// `#[desc_ts]`: `i64::MAX - ts`.
    pub struct DescTs<T>(PhantomData<fn() -> T>);
    /// A date or time as `#[text(format = "..")]`.
    pub struct DateText<T>(PhantomData<fn() -> T>);
    /// An `Option` of codec `C`'s values: a tag byte, then the value.
    pub struct Optional<C>(PhantomData<fn() -> C>);
    /// An Apache Phoenix key column of Rust type `T` (`Option<T>`: a
    /// NULL-able one), as `rowkey::codec::phoenix` writes it.
    pub struct Phoenix<T>(PhantomData<fn() -> T>);
}

/// An item of the values [`is_in`](super::Step::is_in) takes on a field
/// of codec `C`: anything that borrows as the field's type (`u32` or
/// `&u32` for a `u32`), and for a text or bytes field anything that is
/// `AsRef<str>` or `AsRef<[u8]>` (`String`, `&String`, `&str`,
/// `Box<str>`), so `is_in(names.iter())` over a `Vec<String>` works.
#[doc(hidden)]
pub trait InItem<C: ScanCodec + ?Sized> {
    /// Calls `f` with the value this item stands for.
    fn with_value<R>(&self, f: impl FnOnce(&C::Value<'_>) -> R) -> R;
}

/// `InItem` for codecs whose value is the field's type `$t`.
macro_rules! in_item_owned {
    ($(impl<$($g:ident $(: $b:path)?),*> for $c:ty => $t:ty;)*) => {$(
        impl<$($g $(: $b)?,)* V: core::borrow::Borrow<$t>> $crate::scan::field_codec::InItem<$c>
            for V
        {
            #[inline]
            fn with_value<R>(&self, f: impl FnOnce(&$t) -> R) -> R {
                f(self.borrow())
            }
        }
    )*};
}
// By path from the optional codecs' files (`UuidText`, `DecimalText`) and
// Phoenix's (`scan::phoenix`).
pub(crate) use in_item_owned;

in_item_owned! {
    impl<T: KeyPart> for codec::Part<T> => T;
    impl<T: TextInt> for codec::Digits<T> => T;
    impl<T: KeyBytes> for codec::OwnedBytes<T> => T;
    impl<T: Timestamp> for codec::DescTs<T> => T;
    impl<T: TextDate> for codec::DateText<T> => T;
}

impl<C: OwnedValue + ScanCodec, V: core::borrow::Borrow<Option<C::Owned>>>
    InItem<codec::Optional<C>> for V
{
    #[inline]
    fn with_value<R>(&self, f: impl FnOnce(&Option<C::Owned>) -> R) -> R {
        f(self.borrow())
    }
}

impl<T: KeyBytes, V: AsRef<T::Borrowed>> InItem<codec::BorrowedBytes<T>> for V
where
    T::Borrowed: 'static,
{
    #[inline]
    fn with_value<R>(&self, f: impl FnOnce(&&T::Borrowed) -> R) -> R {
        f(&self.as_ref())
    }
}

impl<T: KeyPart> ScanCodec for codec::Part<T> {
    type Value<'v> = T;
    type Prefix = str;
    type LatestRule = super::LatestNeedsADescTsField;
    const ORDERED: bool = T::ORDERED;

    #[inline]
    fn put(w: &mut KeyWriter<'_>, f: &ScanFieldInfo, v: &T) -> Result<(), EncodeError> {
        kinds::desc_part::put_part(w, v, f.layout.desc)
    }
}

impl<T: TextInt> ScanCodec for codec::Digits<T> {
    type Value<'v> = T;
    type Prefix = str;
    type LatestRule = super::LatestNeedsADescTsField;

    #[inline]
    fn put(w: &mut KeyWriter<'_>, f: &ScanFieldInfo, v: &T) -> Result<(), EncodeError> {
        f.digits().put::<T>(w, *v)
    }

    #[inline]
    fn put_prefix(w: &mut KeyWriter<'_>, f: &ScanFieldInfo, p: &str) -> Result<(), EncodeError> {
        f.digits().put_prefix(w, p)
    }
}

/// `range` of a bytes field: bounds longer than the field can hold still
/// mean something, cut to the field's length (`ScanBuilder::fitted_bounds`).
fn bytes_range<const N: usize, const M: usize>(
    b: &ScanBuilder<N, M>,
    f: &ScanFieldInfo,
    is_text: bool,
    lo: Bound<&[u8]>,
    hi: Bound<&[u8]>,
) -> Result<ScanPlan<N>, EncodeError> {
    b.fitted_bounds(f.name(), f.bytes(), is_text, lo, hi, f.prefix_free())
}

impl<T: KeyBytes> ScanCodec for codec::BorrowedBytes<T>
where
    T::Borrowed: 'static,
{
    type Value<'v> = &'v T::Borrowed;
    type Prefix = T::Borrowed;
    type LatestRule = super::LatestNeedsADescTsField;

    #[inline]
    fn put(w: &mut KeyWriter<'_>, f: &ScanFieldInfo, v: &&T::Borrowed) -> Result<(), EncodeError> {
        // The field type's `IS_TEXT`, as the encoder uses: reversal keeps
        // characters whole only in text.
        f.bytes().put(w, borrowed_bytes(v), T::IS_TEXT)
    }

    #[inline]
    fn put_prefix(
        w: &mut KeyWriter<'_>,
        f: &ScanFieldInfo,
        p: &T::Borrowed,
    ) -> Result<(), EncodeError> {
        <codec::OwnedBytes<T> as ScanCodec>::put_prefix(w, f, p)
    }

    fn range<const N: usize, const M: usize>(
        b: &ScanBuilder<N, M>,
        f: &ScanFieldInfo,
        lo: Bound<&&T::Borrowed>,
        hi: Bound<&&T::Borrowed>,
    ) -> Result<ScanPlan<N>, EncodeError> {
        let (lo, hi) = (
            lo.map(borrowed_bytes::<T::Borrowed>),
            hi.map(borrowed_bytes::<T::Borrowed>),
        );
        bytes_range(b, f, T::IS_TEXT, lo, hi)
    }
}

impl<T: KeyBytes> ScanCodec for codec::OwnedBytes<T> {
    type Value<'v> = T;
    type Prefix = T::Borrowed;
    type LatestRule = super::LatestNeedsADescTsField;

    #[inline]
    fn put(w: &mut KeyWriter<'_>, f: &ScanFieldInfo, v: &T) -> Result<(), EncodeError> {
        f.bytes().put(w, v.key_bytes(), T::IS_TEXT)
    }

    #[inline]
    fn put_prefix(
        w: &mut KeyWriter<'_>,
        f: &ScanFieldInfo,
        p: &T::Borrowed,
    ) -> Result<(), EncodeError> {
        f.bytes().put_prefix(w, p.key_bytes())
    }

    fn range<const N: usize, const M: usize>(
        b: &ScanBuilder<N, M>,
        f: &ScanFieldInfo,
        lo: Bound<&T>,
        hi: Bound<&T>,
    ) -> Result<ScanPlan<N>, EncodeError> {
        let (lo, hi) = (lo.map(owned_bytes::<T>), hi.map(owned_bytes::<T>));
        bytes_range(b, f, T::IS_TEXT, lo, hi)
    }
}

impl<T: Timestamp> ScanCodec for codec::DescTs<T> {
    type Value<'v> = T;
    type Prefix = str;
    type LatestRule = Yes;

    #[inline]
    fn put(w: &mut KeyWriter<'_>, f: &ScanFieldInfo, v: &T) -> Result<(), EncodeError> {
        f.desc_ts().put::<T>(w, *v)
    }

    fn range<const N: usize, const M: usize>(
        b: &ScanBuilder<N, M>,
        f: &ScanFieldInfo,
        lo: Bound<&T>,
        hi: Bound<&T>,
    ) -> Result<ScanPlan<N>, EncodeError> {
        // Bounds outside what the field holds are clamped, but a leap
        // second is no instant a key holds on either side: refused, as a
        // value is.
        for v in [lo, hi] {
            if let Some(why) = bound_value(v).and_then(|v| v.no_timestamp()) {
                let at = b.position();
                return Err(EncodeError::new(
                    b.key_name(),
                    f.name(),
                    at,
                    EncodeErrorKind::Invalid(why),
                ));
            }
        }
        b.time_window(f.desc_ts(), lo.cloned(), hi.cloned())
    }
}

impl<T: TextDate> ScanCodec for codec::DateText<T> {
    type Value<'v> = T;
    type Prefix = str;
    type LatestRule = super::LatestNeedsADescTsField;

    #[inline]
    fn put(w: &mut KeyWriter<'_>, f: &ScanFieldInfo, v: &T) -> Result<(), EncodeError> {
        date_format(f).put::<T>(w, v)
    }

    /// A row is in the range when its stored value, the one decode returns
    /// (the start of the span its text stands for), is. A bound finer than
    /// the format lies inside one text's span: that text's value is below
    /// the bound, so `lo` excludes it and `hi` includes it, whatever their
    /// own inclusivity. `until(2021-12-15)` on `%Y-%m` keeps December
    /// (stored and decoded as 2021-12-01); `12:00:00.5..` on `%F %T`
    /// starts after the `12:00:00` text.
    fn range<const N: usize, const M: usize>(
        b: &ScanBuilder<N, M>,
        f: &ScanFieldInfo,
        lo: Bound<&T>,
        hi: Bound<&T>,
    ) -> Result<ScanPlan<N>, EncodeError> {
        let format = date_format(f);
        // A value with no text form (a leap second) keeps its bound: the
        // write refuses it, naming the field.
        let inside_a_text = |v: &T| v.to_civil().is_ok_and(|c| !format.starts_its_text(&c));
        let lo = match lo {
            Bound::Included(v) if inside_a_text(v) => Bound::Excluded(v),
            lo => lo,
        };
        let hi = match hi {
            Bound::Excluded(v) if inside_a_text(v) => Bound::Included(v),
            hi => hi,
        };
        b.bounds(
            lo.map(|v| write_value::<Self>(f, v)),
            hi.map(|v| write_value::<Self>(f, v)),
            f.layout.desc,
            f.prefix_free(),
        )
    }
}

/// The format of a `#[text(format)]` field.
fn date_format(f: &ScanFieldInfo) -> kinds::DateFormat {
    match f.layout.codec {
        crate::FieldCodec::DateText { format } => format,
        _ => unreachable_codec(),
    }
}

impl<C: OwnedValue + ScanCodec> ScanCodec for codec::Optional<C> {
    type Value<'v> = Option<C::Owned>;
    type Prefix = C::Prefix;
    type LatestRule = super::LatestNeedsADescTsField;

    #[inline]
    fn put(
        w: &mut KeyWriter<'_>,
        f: &ScanFieldInfo,
        v: &Option<C::Owned>,
    ) -> Result<(), EncodeError> {
        option::put_tag(w, v.is_some(), f.layout.desc)?;
        match v {
            Some(v) => C::put_owned(w, f, v),
            None => Ok(()),
        }
    }
}

/// A codec whose steps take the field's own type (every codec but
/// [`BorrowedBytes`](codec::BorrowedBytes)): what an `Option` of it holds.
#[doc(hidden)]
pub trait OwnedValue {
    /// The field's type.
    type Owned;
    /// Writes `value` as the codec does.
    fn put_owned(
        w: &mut KeyWriter<'_>,
        f: &ScanFieldInfo,
        value: &Self::Owned,
    ) -> Result<(), EncodeError>;
}

/// `OwnedValue` for codecs whose `Value` is their `T` (also for the codec
/// types that are their own scan codec, in their modules).
macro_rules! owned_value {
    ($($(#[$cfg:meta])* [$($g:tt)*] $codec:ty => $owned:ty;)*) => {$(
        $(#[$cfg])*
        impl<$($g)*> OwnedValue for $codec {
            type Owned = $owned;
            #[inline]
            fn put_owned(w: &mut KeyWriter<'_>, f: &ScanFieldInfo, v: &$owned) -> Result<(), EncodeError> {
                <Self as ScanCodec>::put(w, f, v)
            }
        }
    )*};
}
pub(crate) use owned_value;

owned_value! {
    [T: KeyPart] codec::Part<T> => T;
    [T: TextInt] codec::Digits<T> => T;
    [T: KeyBytes] codec::OwnedBytes<T> => T;
    [T: Timestamp] codec::DescTs<T> => T;
    [T: TextDate] codec::DateText<T> => T;
}
