//! Salted and hash-prefixed keys: the seed call records byte for byte,
//! every hash, bucket groups, decode verification and split keys.

use rowkey::{DecodeErrorKind, KeyPart, RowKey};
use rowkey_fixtures::{java_call_records, SaltedCall as CallRecord};

#[test]
fn call_record_matches_java_vectors() {
    let json = java_call_records();
    for case in json["cases"].as_array().unwrap() {
        let rec = CallRecord {
            tel: case["tel"].as_str().unwrap().parse().unwrap(),
            time: case["time"].as_str().unwrap().parse().unwrap(),
        };
        let key = rec.to_key().unwrap();
        assert_eq!(&*key, case["row_key"].as_str().unwrap().as_bytes());
        assert_eq!(CallRecord::decode(&key).unwrap(), rec);
    }
    let splits: Vec<String> = CallRecord::split_keys()
        .into_iter()
        .map(|k| String::from_utf8(k).unwrap())
        .collect();
    let want: Vec<String> = json["split_keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    assert_eq!(splits, want);
}

#[test]
fn wrong_bucket_is_a_precise_error() {
    let e = CallRecord::decode(b"5_13812345678_20211201120000").unwrap_err();
    assert_eq!((e.field(), e.offset()), ("<salt>", 0));
    assert_eq!(
        e.kind(),
        DecodeErrorKind::SaltMismatch {
            stored: 5,
            computed: 2
        }
    );
    let e = CallRecord::decode(b"7_13812345678_20211201120000").unwrap_err();
    assert_eq!(
        e.kind(),
        DecodeErrorKind::BucketOutOfRange {
            bucket: 7,
            buckets: 6
        }
    );
}

#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Quarter {
    Q1,
    Q2,
    Q3,
    Q4,
}

#[derive(RowKey, Debug, PartialEq, Clone)]
struct Spend<'a> {
    #[salt(buckets = 120, group_by = month, range = 1..=12, per_group = 10)]
    #[pad(width = 10, fill = 0x01, align = left)]
    user: &'a str,
    #[text(width = 2)]
    month: u8,
    #[desc_ts]
    at_ms: i64,
}

#[derive(RowKey, Debug, PartialEq, Clone)]
struct ByQuarter {
    #[salt(buckets = 8, binary, group_by = quarter, per_group = 2)]
    quarter: Quarter,
    id: u64,
}

#[test]
fn bucket_groups_keep_a_group_in_its_buckets() {
    for m in 1..=12u8 {
        for u in ["a", "zhangsan", "lisi", "wangwu"] {
            let s = Spend {
                user: u,
                month: m,
                at_ms: 5,
            };
            let key = s.to_key().unwrap();
            let bucket: u32 = std::str::from_utf8(&key[..3]).unwrap().parse().unwrap();
            let lo = u32::from(m - 1) * 10;
            assert!((lo..lo + 10).contains(&bucket), "{m} {u} -> {bucket}");
            assert_eq!(Spend::decode(&key).unwrap(), s);
        }
    }
    let e = Spend {
        user: "a",
        month: 13,
        at_ms: 5,
    }
    .to_key()
    .unwrap_err();
    assert_eq!(e.field(), "month");
    for (q, i) in [Quarter::Q1, Quarter::Q2, Quarter::Q3, Quarter::Q4]
        .into_iter()
        .zip(0u8..)
    {
        let key = ByQuarter { quarter: q, id: 77 }.to_key().unwrap();
        assert!(key[0] / 2 == i, "{q:?} -> bucket {}", key[0]);
        assert_eq!(ByQuarter::decode(&key).unwrap().quarter, q);
    }
    println!("{}", Spend::layout().explain());
}

#[derive(RowKey, Debug, PartialEq, Clone)]
struct Profile {
    #[hash_prefix(len = 6)]
    #[max_len(32)]
    uid: String,
}

#[test]
fn hash_prefix_matches_the_seed() {
    for (uid, key) in [
        ("foo0001", "95f18cfoo0001"),
        ("foo0002", "6ccc20foo0002"),
        ("foo0003", "b61d00foo0003"),
        ("foo0004", "1a7475foo0004"),
    ] {
        let p = Profile { uid: uid.into() };
        assert_eq!(&*p.to_key().unwrap(), key.as_bytes());
        assert_eq!(Profile::decode(key.as_bytes()).unwrap(), p);
    }
    let e = Profile::decode(b"95f18dfoo0001").unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::HashPrefixMismatch);
}
