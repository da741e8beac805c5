//! The check every layout goes through: the layout-driven decoder agrees
//! with the derived `decode` (same values, or the same error), and the
//! layout-driven encoder is its inverse.

use rowkey::{DecodeKeyOwned, Layout, RowKey};
use rowkey_cli::decode::{decode, PrefixReport};
use rowkey_cli::encode::encode;
use rowkey_cli::salt::BucketCheck;
use rowkey_core::DecodeErrorKind;
use std::fmt::Debug;

/// The layout as the CLI gets it: through its JSON.
pub fn via_json<T: RowKey>() -> &'static Layout {
    let json = serde_json::to_string(T::layout()).unwrap();
    let loaded = rowkey_cli::layout_file::parse(&json).unwrap();
    assert_eq!(loaded, T::layout(), "the JSON round trip keeps the layout");
    loaded
}

/// Whether the layout's `{:?}` of values can be compared with the
/// struct's (false when a field's type is one the layout cannot describe).
/// time's and jiff's dates and times are shown as chrono shows the same
/// day or instant, not as their own `Debug` does.
pub fn describable(layout: &Layout) -> bool {
    layout.fields.iter().all(|f| {
        let other_crate = matches!(
            rowkey_cli::kind::value_type(f).as_str(),
            "Date" | "PrimitiveDateTime" | "DateTime" | "OffsetDateTime" | "Timestamp"
        );
        let opaque = matches!(f.codec, rowkey::FieldCodec::Binary)
            && rowkey_cli::kind::binary_kind(f).is_opaque();
        // Text forms are shown as the text the key holds, not as the
        // type's Debug.
        let text_form = matches!(
            f.codec,
            rowkey::FieldCodec::DateText { .. }
                | rowkey::FieldCodec::UuidText
                | rowkey::FieldCodec::DecimalText { .. }
        );
        !other_crate && !opaque && !text_form
    })
}

/// A value's key decodes to the value and encodes back to the key.
pub fn check_value<T: RowKey + DecodeKeyOwned + Debug>(layout: &Layout, v: &T) {
    let Ok(key) = v.to_vec() else { return };
    let d = decode(layout, &key).unwrap_or_else(|e| panic!("{v:?}: {e}"));
    if describable(layout) {
        assert_eq!(d.rust_debug(layout), format!("{v:?}"));
    }
    let bucket = match d.prefix {
        Some(PrefixReport::Bucket { bucket, .. }) => Some(bucket),
        _ => None,
    };
    let again = encode(layout, &d.values(), bucket).unwrap();
    assert_eq!(again, key, "{v:?}");
    check_bytes::<T>(layout, &key);
}

/// Any bytes: the layout decoder and the derived decoder accept the same
/// keys, with the same values or the same error. A bucket the layout
/// cannot recompute (a user's function) is the one allowed difference,
/// and the decoder says so.
pub fn check_bytes<T: RowKey + DecodeKeyOwned + Debug>(layout: &Layout, bytes: &[u8]) {
    let derived = T::decode(bytes);
    let ours = decode(layout, bytes);
    // A type the layout cannot describe (a user's KeyPart) checks its own
    // bytes, which the layout decoder shows as hex without checking.
    if let Err(a) = &derived {
        if opaque(layout, a.field()) {
            return;
        }
    }
    match (&derived, &ours) {
        (Ok(a), Ok(b)) => {
            if describable(layout) {
                assert_eq!(b.rust_debug(layout), format!("{a:?}"));
            }
        }
        (Err(a), Err(b)) if a != b => {
            // Where a user function picks the group, the layout decoder
            // can only check the bucket within the group.
            let salt = |k| {
                matches!(
                    k,
                    DecodeErrorKind::SaltMismatch { .. } | DecodeErrorKind::GroupOutOfRange
                )
            };
            let unverifiable_salt = !salt_computable(layout) && salt(a.kind()) && salt(b.kind());
            // time's and jiff's ranges are checked with a message of the
            // CLI's own, at the same field and byte.
            let same_place =
                !describable(layout) && (a.field(), a.offset()) == (b.field(), b.offset());
            assert!(
                unverifiable_salt || same_place,
                "derived: {a}, layout decoder: {b} for {bytes:?}"
            );
        }
        (Err(_), Err(_)) => {}
        (Err(a), Ok(b)) => {
            let unverified = matches!(
                b.prefix,
                Some(PrefixReport::Bucket {
                    check: BucketCheck::NotVerifiable { .. } | BucketCheck::SlotVerified { .. },
                    ..
                })
            );
            let about_salt = matches!(
                a.kind(),
                DecodeErrorKind::SaltMismatch { .. } | DecodeErrorKind::GroupOutOfRange
            );
            assert!(
                unverified && about_salt,
                "derived: {a}, layout decoder: Ok {b:?} for {bytes:?}"
            );
        }
        (Ok(a), Err(b)) => panic!("derived: Ok {a:?}, layout decoder: {b} for {bytes:?}"),
    }
}

fn opaque(layout: &Layout, field: &str) -> bool {
    layout.field(field).is_some_and(|f| {
        matches!(f.codec, rowkey::FieldCodec::Binary)
            && rowkey_cli::kind::binary_kind(f).is_opaque()
    })
}

/// Whether the layout alone gives every bucket.
fn salt_computable(layout: &Layout) -> bool {
    match layout.salt() {
        None => true,
        Some(s) => {
            !matches!(s.hash, rowkey::salt::SaltHash::Custom(_))
                && !matches!(
                    s.groups.map(|g| g.rule),
                    Some(rowkey::salt::GroupRule::Func(_))
                )
        }
    }
}

/// Keys near `key`: cut, grown, each byte set to 0x00, 0xFF and +1.
pub fn neighbours(key: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for n in 0..key.len() {
        out.push(key[..n].to_vec());
    }
    for tail in [0x00, 0x01, 0xFF, b'_'] {
        let mut k = key.to_vec();
        k.push(tail);
        out.push(k);
    }
    for i in 0..key.len() {
        for b in [0x00, 0xFF, key[i].wrapping_add(1)] {
            let mut k = key.to_vec();
            k[i] = b;
            out.push(k);
        }
    }
    out
}
