//! Salts and hash prefixes: text buckets of one and two digits, binary
//! buckets of one and two bytes, every hash (default, java, md5, Phoenix
//! over the rest of the key, a user function the layout only names),
//! groups by an integer range, an enum and a user function, several salted
//! fields, a separator after the bucket; hash prefixes in text and binary,
//! of both algorithms, on several codecs. Values include group fields out
//! of range; the bytes checked include every other bucket.

use crate::scalars::{tri, Tri};
use crate::values::{bytes, int, text, Noise};
use proptest::prelude::*;
use rowkey::RowKey;

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct TwoInputs {
    #[salt(buckets = 16)]
    #[max_len(6)]
    pub a: String,
    #[salt]
    pub b: u32,
    pub c: i8,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct OneDigitJava {
    #[salt(buckets = 10, hash = java)]
    #[text(width = 4)]
    pub id: u16,
    #[max_len(3)]
    pub tail: Vec<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct ByteMd5 {
    #[salt(buckets = 256, binary, hash = md5)]
    pub id: u64,
    #[desc]
    pub at: i32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct TwoBytes {
    #[salt(buckets = 300, binary)]
    #[pad(width = 4)]
    pub dev: String,
    pub v: Option<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct AllBuckets {
    #[salt(buckets = 65536, binary, hash = java)]
    pub id: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Phoenix {
    #[salt(buckets = 7, hash = phoenix)]
    pub id: u32,
    #[max_len(5)]
    pub name: String,
}

/// A bucket the layout only names: `pick(&key)`.
pub fn pick(k: &Picked) -> u32 {
    u32::from(k.id) * 7
}

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Picked {
    #[salt(buckets = 5, hash = pick)]
    pub id: u16,
    #[max_len(4)]
    pub rest: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Months {
    #[salt(buckets = 24, group_by = month, range = 1..=12, per_group = 2)]
    #[text(width = 2)]
    pub month: u8,
    #[salt]
    pub user: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Levels {
    #[salt(buckets = 9, binary, group_by = level, per_group = 3)]
    pub level: Tri,
    #[salt]
    #[max_len(4)]
    pub id: String,
}

/// The group of a day of the year: its quarter (anything past day 366 is
/// out of range, which encoding reports).
pub fn quarter(day: &u16) -> u32 {
    u32::from(day.saturating_sub(1) / 92).min(u32::from(*day > 366) * 9 + 3)
}

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Quarters {
    #[salt(buckets = 12, group_by = day, group = quarter, groups = 4, per_group = 3)]
    pub day: u16,
    #[salt]
    #[pad(width = 3, fill = 0x01, align = left)]
    pub user: Vec<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(separator = "_")]
pub struct JoinedSalt {
    #[salt(buckets = 100, hash = md5)]
    #[max_len(5)]
    pub a: String,
    #[text(width = 3)]
    pub n: u16,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct HashText {
    #[hash_prefix(len = 6)]
    #[max_len(8)]
    pub a: String,
    pub b: u16,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct HashBinary {
    #[hash_prefix(len = 4, binary, algo = default)]
    pub id: u64,
    #[max_len(3)]
    pub t: Vec<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct HashWhole {
    #[hash_prefix(len = 16, binary)]
    #[pad(width = 5)]
    pub k: Vec<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct HashLater {
    pub a: u8,
    #[hash_prefix(len = 8, algo = default)]
    #[text(width = 5)]
    pub b: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(separator = "|")]
pub struct HashJoined {
    #[hash_prefix(len = 5)]
    #[max_len(6)]
    pub a: String,
    #[max_len(4)]
    pub b: String,
}

case_impl!(TwoInputs { a, b, c });
case_impl!(OneDigitJava { id, tail });
case_impl!(ByteMd5 { id, at });
case_impl!(TwoBytes { dev, v });
case_impl!(AllBuckets { id });
case_impl!(Phoenix { id, name });
case_impl!(Picked { id, rest });
case_impl!(Months { month, user });
case_impl!(Levels { level, id });
case_impl!(Quarters { day, user });
case_impl!(JoinedSalt { a, n });
case_impl!(HashText { a, b });
case_impl!(HashBinary { id, t });
case_impl!(HashWhole { k });
case_impl!(HashLater { a, b });
case_impl!(HashJoined { a, b });

/// The value's key with its prefix replaced by every other one it could
/// hold (each bucket, or the prefix's bytes turned), all refused alike.
fn other_prefixes<T: crate::harness::Case>(v: &T) {
    let layout = crate::harness::layout_of::<T>();
    let Ok(key) = v.to_vec() else { return };
    let Some(prefix) = layout.prefix else { return };
    let mut keys = Vec::new();
    match layout.salt() {
        Some(s) => {
            let n = s.width();
            for b in (0..s.buckets.min(400)).chain([s.buckets, s.buckets + 1]) {
                let text = format!("{b:0n$}");
                let mut k = key.clone();
                match s.format {
                    rowkey::salt::BucketFormat::Text if text.len() == n => {
                        k[..n].copy_from_slice(text.as_bytes())
                    }
                    rowkey::salt::BucketFormat::Text => continue,
                    _ => k[..n].copy_from_slice(&b.to_be_bytes()[4 - n..]),
                }
                keys.push(k);
            }
        }
        None => {
            for i in 0..prefix.len() {
                let mut k = key.clone();
                k[i] ^= 0x01;
                keys.push(k);
            }
        }
    }
    for k in keys {
        crate::harness::same_refusals::<T>(layout, &k);
    }
}

fn check<T: crate::harness::Case>(v: T, noise: &Noise) {
    crate::harness::check(&v, noise);
    other_prefixes(&v);
}

proptest! {
    #![proptest_config(crate::harness::config())]

    #[test]
    fn salts(a in text(6), b in int::<u32>(10), c: i8, id16 in int::<u16>(5), tail in bytes(3),
             id64 in int::<u64>(20), at: i32, dev in text(4), v: Option<u8>, id32: u32,
             name in text(5), rest in text(4), noise in crate::values::noise()) {
        check(TwoInputs { a: a.clone(), b, c }, &noise);
        check(OneDigitJava { id: id16, tail }, &noise);
        check(ByteMd5 { id: id64, at }, &noise);
        check(TwoBytes { dev, v }, &noise);
        check(AllBuckets { id: id32 }, &noise);
        check(Phoenix { id: id32, name }, &noise);
        check(Picked { id: id16, rest }, &noise);
        check(JoinedSalt { a, n: id16 }, &noise);
    }

    #[test]
    fn salt_groups(month in int::<u8>(2), user: u32, level in tri(), id in text(4),
                   day in prop_oneof![0u16..=370, int::<u16>(3)], bytes3 in bytes(3),
                   noise in crate::values::noise()) {
        check(Months { month, user }, &noise);
        check(Levels { level, id }, &noise);
        check(Quarters { day, user: bytes3 }, &noise);
    }

    #[test]
    fn hash_prefixes(a in text(8), b: u16, id: u64, t in bytes(3), k in bytes(5), small: u8,
                     n in int::<u32>(5), a6 in text(6), b4 in text(4),
                     noise in crate::values::noise()) {
        check(HashText { a, b }, &noise);
        check(HashBinary { id, t }, &noise);
        check(HashWhole { k }, &noise);
        check(HashLater { a: small, b: n }, &noise);
        check(HashJoined { a: a6, b: b4 }, &noise);
    }
}
