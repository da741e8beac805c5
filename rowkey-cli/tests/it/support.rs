//! The check every layout goes through: rowkey-core's layout interpreter
//! agrees with the derived `decode` (the same keys accepted, or the same
//! error), its encoder is its decoder's inverse, and the values it shows
//! read back (as `rowkey encode` reads them) to the same key.

use rowkey::layout::dynamic::{BucketCheck, DecodedKey, PrefixReport};
use rowkey::{DecodeErrorKind, DecodeKeyOwned, Layout, RowKey, ValueKind};
use std::fmt::Debug;

/// The layout as the CLI gets it: through its JSON.
pub fn via_json<T: RowKey>() -> &'static Layout {
    let json = serde_json::to_string(T::layout()).unwrap();
    let loaded = Layout::from_json(&json).unwrap();
    assert_eq!(loaded, T::layout(), "the JSON round trip keeps the layout");
    loaded
}

fn decode(layout: &Layout, key: &[u8]) -> Result<DecodedKey, rowkey::DecodeError> {
    layout.decode_key(key)
}

/// The stored bucket, where the key has one.
pub fn bucket_of(d: &DecodedKey) -> Option<u32> {
    match d.prefix {
        Some(PrefixReport::Bucket { bucket, .. }) => Some(bucket),
        _ => None,
    }
}

/// The decoded values shown as `rowkey decode` shows them, read back as
/// `rowkey encode field=value` reads them, write `key` again.
pub fn check_shown_values_read_back(layout: &Layout, d: &DecodedKey, key: &[u8]) {
    if layout.fields.iter().any(|f| f.value == ValueKind::Opaque) {
        return;
    }
    let args: Vec<String> = d
        .fields
        .iter()
        .map(|f| format!("{}={}", f.name, f.value))
        .collect();
    let values = layout
        .parse_assignments(&args)
        .unwrap_or_else(|e| panic!("{args:?}: {e}"));
    assert_eq!(
        layout.encode_key(&values, bucket_of(d)).unwrap(),
        key,
        "{args:?}"
    );
}

/// A value's key decodes to the value and encodes back to the key.
pub fn check_value<T: RowKey + DecodeKeyOwned + Debug>(layout: &Layout, v: &T) {
    let Ok(key) = v.to_vec() else { return };
    let d = decode(layout, &key).unwrap_or_else(|e| panic!("{v:?}: {e}"));
    let again = layout.encode_key(&d.values(), bucket_of(&d)).unwrap();
    assert_eq!(again, key, "{v:?}");
    check_shown_values_read_back(layout, &d, &key);
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
            // The same key, read the same way: the interpreter's values
            // write it again, and so do the derived value's.
            let again = layout.encode_key(&b.values(), bucket_of(b)).unwrap();
            assert_eq!(again, bytes, "{a:?}");
            assert_eq!(a.to_vec().unwrap(), bytes, "{a:?}");
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
            // Range checks of the date crates are worded by each crate's
            // impl; the interpreter's are its own, at the same field and
            // byte.
            let same_place = (a.field(), a.offset()) == (b.field(), b.offset());
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
        matches!(f.codec, rowkey::FieldCodec::Binary) && f.value.unwrapped() == &ValueKind::Opaque
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

/// A check run on the keys of one layout.
pub trait SeedCheck {
    fn run<T: RowKey + DecodeKeyOwned + Debug>(&mut self, rows: &[T]);
}

/// `check` on `n` generated rows of every seed layout and the IoT ones.
pub fn each_seed_layout(n: usize, check: &mut impl SeedCheck) {
    use rowkey::IndexOf;
    use rowkey_fixtures::layouts::*;
    check.run(&OrderStatus::rows(n));
    check.run(&HotEvent::rows(n));
    let trades = Trade::rows(n);
    check.run(&trades.iter().map(Trade::seller_key).collect::<Vec<_>>());
    check.run(&trades.iter().map(BuyerTrade::index_key).collect::<Vec<_>>());
    check.run(&RiskProfile::rows(n));
    check.run(&IdCardProfile::rows(n));
    check.run(&PhoneProfile::rows(n));
    check.run(&CarTelemetry::rows(n));
    check.run(&UserOp::rows(n));
    check.run(&SitePage::rows(n));
    check.run(&CallRecord::rows(n));
    check.run(&Ledger::rows(n));
    check.run(&ReadingKey::rows(n));
    check.run(&Invoice::rows(n));
}
