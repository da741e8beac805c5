//! The three agreements every combination is held to, and the macros that
//! generate the combinations.
//!
//! - **Encoded bytes**: the derived `to_vec` of a value, and the
//!   interpreter's `encode_key` of the same value typed as a person types
//!   it (`Layout::parse_assignments`), are the same key or both refusals.
//! - **Decoded values**: the interpreter's values for a derived key show
//!   (`Display`) exactly as the derived `decode`'s fields render, write
//!   the key again (`encode_key`), and so does their text read back
//!   (decode → `Display` → `parse_assignments` → `encode_key`).
//! - **Refusals**: on mutations of valid keys and on arbitrary bytes, the
//!   derived `decode` is an error exactly when the interpreter's
//!   `decode_key` is (at the same field and byte), and when both read a
//!   key both write it back unchanged. Two differences are allowed, each
//!   checked to be the documented one: a hand-written `KeyPart`'s bytes
//!   (the layout cannot see into them) and a salt bucket a user function
//!   picks (the layout only names it).

use crate::values::Noise;
use rowkey::layout::dynamic::{BucketCheck, DecodedKey, PrefixReport};
use rowkey::salt::{GroupRule, SaltHash};
use rowkey::{DecodeError, DecodeErrorKind, EncodeError, FieldCodec, Layout, RowKey, ValueKind};
use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::{Mutex, OnceLock};

/// A key's fields as a person writes them, by name, in key order.
pub type Shown = Vec<(&'static str, String)>;

/// What the derived code makes of a key.
pub struct Derived {
    /// Its fields, rendered as a person writes them.
    pub shown: Shown,
    /// The key the decoded value writes.
    pub again: Result<Vec<u8>, EncodeError>,
}

/// A derived key type under test.
pub trait Case: RowKey + Debug {
    /// The fields of this value as a person writes them.
    fn shown(&self) -> Shown;
    /// The derived `decode` of `key`.
    fn derived(key: &[u8]) -> Result<Derived, DecodeError>;
}

/// `impl Case` for a derived struct from its field names (a struct with a
/// lifetime is named with `'static`: `Name<'static> { a, b }`).
macro_rules! case_impl {
    ($ty:ident $(<$lt:lifetime>)? { $($f:ident),+ $(,)? }) => {
        impl $crate::harness::Case for $ty $(<$lt>)? {
            fn shown(&self) -> $crate::harness::Shown {
                vec![$((stringify!($f), $crate::person::Person::person(&self.$f))),+]
            }
            fn derived(key: &[u8]) -> Result<$crate::harness::Derived, rowkey::DecodeError> {
                let d = $ty::decode(key)?;
                Ok($crate::harness::Derived {
                    shown: vec![$((stringify!($f), $crate::person::Person::person(&d.$f))),+],
                    again: rowkey::RowKey::to_vec(&d),
                })
            }
        }
    };
}

/// One module per combination `name: Type [attributes] = values;`: the
/// field under test, `v`, in the middle of a key (a raw `Vec<u8>` tail
/// after it: an escaped, terminated or inverted framing) and last (a byte
/// before it: a raw framing), with the same attributes; one property test
/// runs both on the same values.
macro_rules! matrix {
    ($( $name:ident: $ty:ty $([$($attr:tt)*])? = $values:expr; )+) => {$(
        pub mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[derive(rowkey::RowKey, Debug, Clone, PartialEq)]
            pub struct Mid {
                $($($attr)*)?
                pub v: $ty,
                #[max_len(2)]
                pub tail: Vec<u8>,
            }

            #[derive(rowkey::RowKey, Debug, Clone, PartialEq)]
            pub struct Last {
                pub head: u8,
                $($($attr)*)?
                pub v: $ty,
            }

            case_impl!(Mid { v, tail });
            case_impl!(Last { head, v });

            proptest::proptest! {
                #![proptest_config($crate::harness::config())]
                #[test]
                fn agrees(v in $values, tail in $crate::values::tail(), head: u8,
                          noise in $crate::values::noise()) {
                    $crate::harness::check(&Mid { v: v.clone(), tail }, &noise);
                    $crate::harness::check(&Last { head, v }, &noise);
                }
            }
        }
    )+};
}

/// Cases per combination: `PROPTEST_CASES` when set, else 64. Failures
/// persist beside each family's file (`text.proptest-regressions`).
pub fn config() -> proptest::test_runner::Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(64);
    proptest::test_runner::Config {
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..proptest::test_runner::Config::with_cases(cases)
    }
}

/// The layout as a tool gets it: through its JSON (once per type).
pub fn layout_of<T: RowKey>() -> &'static Layout {
    static CACHE: OnceLock<Mutex<HashMap<usize, &'static Layout>>> = OnceLock::new();
    let derived = T::layout();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap();
    cache
        .entry(derived as *const Layout as usize)
        .or_insert_with(|| {
            let json = serde_json::to_string(derived).unwrap();
            let loaded = Layout::from_json(&json).unwrap();
            assert_eq!(loaded, derived, "the JSON round trip keeps the layout");
            loaded
        })
}

/// `field=value` arguments, as `rowkey encode` takes them.
fn assignments(shown: &Shown) -> Vec<String> {
    shown.iter().map(|(n, v)| format!("{n}={v}")).collect()
}

/// The interpreter's values, shown.
fn shown_of(d: &DecodedKey) -> Shown {
    d.fields
        .iter()
        .map(|f| (f.name, f.value.to_string()))
        .collect()
}

fn bucket_of(d: &DecodedKey) -> Option<u32> {
    match d.prefix {
        Some(PrefixReport::Bucket { bucket, .. }) => Some(bucket),
        _ => None,
    }
}

/// Whether the layout alone computes every salt bucket.
fn salt_computable(layout: &Layout) -> bool {
    layout.salt().is_none_or(|s| {
        !matches!(s.hash, SaltHash::Custom(_))
            && !matches!(s.groups.map(|g| g.rule), Some(GroupRule::Func(_)))
    })
}

/// The bucket to give `encode_key`: the derived key's, where a user
/// function picks it (the layout only names the function).
fn given_bucket(layout: &Layout, derived: &[u8]) -> Option<u32> {
    if salt_computable(layout) {
        return None;
    }
    layout.decode_key(derived).ok().as_ref().and_then(bucket_of)
}

/// Whether `field` is a hand-written `KeyPart` the layout cannot see into.
fn opaque(layout: &Layout, field: &str) -> bool {
    layout
        .field(field)
        .is_some_and(|f| f.codec == FieldCodec::Binary && f.value.unwrapped() == &ValueKind::Opaque)
}

fn about_salt(e: &DecodeError) -> bool {
    matches!(
        e.kind(),
        DecodeErrorKind::SaltMismatch { .. } | DecodeErrorKind::GroupOutOfRange
    )
}

/// The three agreements for the value `v`, its key's mutations by
/// `noise`, and `noise`'s own bytes.
pub fn check<T: Case>(v: &T, noise: &Noise) {
    let layout = layout_of::<T>();
    let derived = v.to_vec();
    let args = assignments(&v.shown());
    let bucket = derived.as_ref().ok().and_then(|k| given_bucket(layout, k));
    let typed = layout
        .parse_assignments(&args)
        .map_err(|e| (None, e))
        .and_then(|values| {
            layout.encode_key(&values, bucket).map_err(|e| match e {
                rowkey::layout::dynamic::EncodeValuesError::Key(k) => (Some(k), k.to_string()),
                e => (None, e.to_string()),
            })
        });
    // A group a user function picks is checked by the derived code before
    // the fields; the interpreter cannot run the function, and names the
    // first bad field instead, if any.
    let unknown_group = |a: &EncodeError| {
        !salt_computable(layout) && a.kind() == rowkey::EncodeErrorKind::GroupOutOfRange
    };
    match (&derived, &typed) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "derived and typed keys of {v:?} ({args:?})"),
        (Err(a), Err(_)) if unknown_group(a) => {}
        (Err(a), Err((Some(b), _))) => assert_eq!(
            (a.field(), a.offset(), std::mem::discriminant(&a.kind())),
            (b.field(), b.offset(), std::mem::discriminant(&b.kind())),
            "{v:?}: derived refuses with `{a}`, the interpreter with `{b}`"
        ),
        (Err(_), Err((None, _))) => {}
        (Ok(a), Err((_, e))) => panic!(
            "{v:?}: derived writes {}, the interpreter refuses {args:?}: {e}",
            rowkey::KeyDisplay(a)
        ),
        (Err(a), Ok(b)) => panic!(
            "{v:?}: derived refuses ({a}), the interpreter writes {} from {args:?}",
            rowkey::KeyDisplay(b)
        ),
    }
    let Ok(key) = derived else {
        same_refusals::<T>(layout, &noise.bytes);
        return;
    };
    valid_key::<T>(layout, &key);
    for k in crate::values::neighbours(&key) {
        same_refusals::<T>(layout, &k);
    }
    for k in noise.mutations_of(&key) {
        same_refusals::<T>(layout, &k);
    }
    same_refusals::<T>(layout, &noise.bytes);
}

/// A key the derived code wrote: the interpreter reads the values the
/// derived `decode` reads, shown alike, and writes the key back from them
/// and from their text.
fn valid_key<T: Case>(layout: &Layout, key: &[u8]) {
    let shown_key = rowkey::KeyDisplay(key);
    let d = layout
        .decode_key(key)
        .unwrap_or_else(|e| panic!("the interpreter refuses the derived key {shown_key}: {e}"));
    let derived = T::derived(key)
        .unwrap_or_else(|e| panic!("the derived decode refuses its own key {shown_key}: {e}"));
    assert_eq!(derived.again.as_deref(), Ok(key), "derived round trip");
    let shown = shown_of(&d);
    assert_eq!(shown, derived.shown, "values of {shown_key}");
    let bucket = bucket_of(&d);
    assert_eq!(
        layout.encode_key(&d.values(), bucket).as_deref(),
        Ok(key),
        "interpreter round trip of {shown_key}"
    );
    let args = assignments(&shown);
    let typed = layout
        .parse_assignments(&args)
        .unwrap_or_else(|e| panic!("{args:?} (shown for {shown_key}) do not read back: {e}"));
    assert_eq!(
        layout.encode_key(&typed, bucket).as_deref(),
        Ok(key),
        "decode -> Display -> parse_assignments -> encode_key of {shown_key}: {args:?}"
    );
}

/// Any bytes: both decoders accept them or both refuse them.
pub fn same_refusals<T: Case>(layout: &Layout, bytes: &[u8]) {
    let shown_key = rowkey::KeyDisplay(bytes);
    match (T::derived(bytes), layout.decode_key(bytes)) {
        (Ok(a), Ok(b)) => {
            assert_eq!(
                a.again.as_deref(),
                Ok(bytes),
                "derived rewrite of {shown_key}"
            );
            assert_eq!(
                layout.encode_key(&b.values(), bucket_of(&b)).as_deref(),
                Ok(bytes),
                "interpreter rewrite of {shown_key}"
            );
            assert_eq!(shown_of(&b), a.shown, "values of {shown_key}");
        }
        (Err(a), Err(b)) => {
            let same_place = (a.field(), a.offset()) == (b.field(), b.offset());
            let same_kind = match (a.kind(), b.kind()) {
                // The date crates word their range checks themselves.
                (DecodeErrorKind::Invalid(_), DecodeErrorKind::Invalid(_)) => true,
                (x, y) => x == y,
            };
            let unverifiable_salt = !salt_computable(layout) && about_salt(&a) && about_salt(&b);
            assert!(
                (same_place && same_kind) || unverifiable_salt || opaque(layout, a.field()),
                "{shown_key}: derived `{a}`, interpreter `{b}`"
            );
        }
        (Err(a), Ok(b)) => {
            let unverified = matches!(
                b.prefix,
                Some(PrefixReport::Bucket {
                    check: BucketCheck::NotVerifiable { .. } | BucketCheck::SlotVerified { .. },
                    ..
                })
            );
            assert!(
                (unverified && about_salt(&a)) || opaque(layout, a.field()),
                "{shown_key}: derived `{a}`, interpreter reads {:?}",
                shown_of(&b)
            );
        }
        (Ok(a), Err(b)) => panic!(
            "{shown_key}: derived reads {:?}, interpreter refuses: `{b}`",
            a.shown
        ),
    }
}
