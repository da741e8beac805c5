//! Properties of salted keys: buckets stay in range, keys roundtrip, keys
//! with equal salt inputs sort by the remaining fields, arbitrary bytes
//! never make decode panic; and the default hash spreads sequential ids
//! evenly (a chi-square test).

use proptest::prelude::*;
use rowkey::{KeyPart, RowKey};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Text16 {
    #[salt(buckets = 16)]
    user: u32,
    seq: u64,
    #[max_len(8)]
    tag: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Binary300 {
    #[salt(buckets = 300, binary, hash = md5)]
    #[max_len(12)]
    user: String,
    #[desc_ts]
    at: i64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(separator = "|")]
struct JavaSep {
    #[salt(buckets = 120, hash = java)]
    #[max_len(10)]
    user: String,
    #[salt]
    #[text(width = 6)]
    month: u32,
    #[max_len(10)]
    rest: String,
}

#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Region {
    Eu,
    Us,
    Ap,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Grouped {
    region: Region,
    #[salt(buckets = 12, group_by = region, per_group = 4)]
    id: u64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Phoenix {
    #[salt(buckets = 32, hash = phoenix)]
    a: i32,
    #[max_len(6)]
    b: Vec<u8>,
}

fn text_bucket(key: &[u8], width: usize) -> u32 {
    std::str::from_utf8(&key[..width]).unwrap().parse().unwrap()
}

fn region() -> impl Strategy<Value = Region> {
    prop_oneof![Just(Region::Eu), Just(Region::Us), Just(Region::Ap)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn text16_roundtrips_in_range(user: u32, seq: u64, tag in "[a-z\\x00]{0,8}") {
        let k = Text16 { user, seq, tag };
        let key = k.to_key().unwrap();
        prop_assert!(text_bucket(&key, 2) < 16);
        prop_assert_eq!(Text16::decode(&key).unwrap(), k);
    }

    #[test]
    fn equal_salt_inputs_sort_by_the_rest(
        user: u32,
        a in (0u64..4, "[a-c\\x00]{0,8}"),
        b in (0u64..4, "[a-c\\x00]{0,8}"),
    ) {
        let ka = Text16 { user, seq: a.0, tag: a.1.clone() }.to_vec().unwrap();
        let kb = Text16 { user, seq: b.0, tag: b.1.clone() }.to_vec().unwrap();
        prop_assert_eq!(ka[..2].to_vec(), kb[..2].to_vec());
        prop_assert_eq!(a.cmp(&b), ka.cmp(&kb));
    }

    #[test]
    fn binary300_roundtrips_in_range(user in "[a-z0-9]{0,12}", at in 0i64..) {
        let k = Binary300 { user, at };
        let key = k.to_key().unwrap();
        prop_assert!(u16::from_be_bytes([key[0], key[1]]) < 300);
        prop_assert_eq!(Binary300::decode(&key).unwrap(), k);
    }

    #[test]
    fn java_sep_roundtrips(user in "[^|]{0,3}", month in 0u32..999_999, rest in "[a-z]{0,10}") {
        prop_assume!(user.len() <= 10);
        let k = JavaSep { user, month, rest };
        let key = k.to_key().unwrap();
        prop_assert!(text_bucket(&key, 3) < 120);
        prop_assert_eq!(key[3], b'|');
        prop_assert_eq!(JavaSep::decode(&key).unwrap(), k);
    }

    #[test]
    fn groups_own_their_buckets(r in region(), id: u64) {
        let k = Grouped { region: r, id };
        let key = k.to_key().unwrap();
        let group = r as u32;
        let bucket = text_bucket(&key, 2);
        prop_assert!((group * 4..group * 4 + 4).contains(&bucket));
        prop_assert_eq!(Grouped::decode(&key).unwrap(), k);
    }

    #[test]
    fn phoenix_roundtrips(a: i32, b in proptest::collection::vec(any::<u8>(), 0..6)) {
        let k = Phoenix { a, b };
        let key = k.to_key().unwrap();
        prop_assert!(key[0] < 32);
        prop_assert_eq!(Phoenix::decode(&key).unwrap(), k);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
        let _ = Text16::decode(&bytes);
        let _ = Binary300::decode(&bytes);
        let _ = JavaSep::decode(&bytes);
        let _ = Grouped::decode(&bytes);
        let _ = Phoenix::decode(&bytes);
    }

    #[test]
    fn a_changed_bucket_is_rejected(user: u32, seq: u64) {
        let mut key = Text16 { user, seq, tag: String::new() }.to_vec().unwrap();
        let b = text_bucket(&key, 2);
        let other = (b + 1) % 16;
        key[..2].copy_from_slice(format!("{other:02}").as_bytes());
        prop_assert!(Text16::decode(&key).is_err());
    }
}

macro_rules! sequential {
    ($name:ident, $n:expr) => {
        #[derive(RowKey)]
        struct $name {
            #[salt(buckets = $n, binary)]
            id: u64,
        }
    };
}
sequential!(Seq6, 6);
sequential!(Seq16, 16);
sequential!(Seq120, 120);
sequential!(Seq256, 256);

/// The chi-square critical value at significance `alpha` = 0.001 for `df`
/// degrees of freedom (Wilson-Hilferty approximation; within 1% of the
/// tables for these df).
fn chi2_critical_0_001(df: f64) -> f64 {
    const Z: f64 = 3.090_232; // standard normal quantile at 0.999
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + Z * a.sqrt()).powi(3)
}

fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

/// 100,000 sequential ids (0, 1, 2, ...) spread over N buckets as a
/// uniform distribution would: chi-square below the 0.001 critical value.
#[test]
fn sequential_ids_spread_evenly() {
    fn counts<K: RowKey>(n: usize, make: impl Fn(u64) -> K) -> Vec<u64> {
        let mut counts = vec![0u64; n];
        for id in 0..100_000u64 {
            counts[usize::from(make(id).to_key().unwrap().as_ref()[0])] += 1;
        }
        counts
    }
    let results = [
        (6, counts(6, |id| Seq6 { id })),
        (16, counts(16, |id| Seq16 { id })),
        (120, counts(120, |id| Seq120 { id })),
        (256, counts(256, |id| Seq256 { id })),
    ];
    for (n, c) in results {
        let chi2 = chi_square(&c);
        let critical = chi2_critical_0_001((n - 1) as f64);
        eprintln!(
            "N = {n:>3}: chi-square {chi2:8.2} (df {}, critical at 0.001: {critical:.2}); \
             min {} max {} per bucket",
            n - 1,
            c.iter().min().unwrap(),
            c.iter().max().unwrap()
        );
        assert!(chi2 < critical, "N = {n}: chi-square {chi2} >= {critical}");
    }
}
