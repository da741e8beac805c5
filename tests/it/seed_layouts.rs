//! The seed layouts of the issue, byte for byte.

use rowkey::{DecodeErrorKind, EncodeErrorKind, RowKey};
use rowkey_fixtures::{java_call_records, BucketedCall as CallRecord, Spend};

#[test]
fn call_record_matches_java_vectors() {
    let json = java_call_records();
    let cases = json["cases"].as_array().unwrap();
    assert!(!cases.is_empty());
    for case in cases {
        let rec = CallRecord {
            bucket: case["bucket"].as_u64().unwrap() as u8,
            tel: case["tel"].as_str().unwrap().parse().unwrap(),
            time: case["time"].as_str().unwrap().parse().unwrap(),
        };
        let key = rec.to_key().unwrap();
        assert_eq!(&*key, case["row_key"].as_str().unwrap().as_bytes());
        assert_eq!(CallRecord::decode(&key).unwrap(), rec);
    }
}

#[test]
fn spend_seed_key() {
    let s = Spend {
        month: 202112,
        user: "zhangsan",
        at_ms: 1_638_316_800_000,
    };
    let key = s.to_key().unwrap();
    let mut want = b"202112\x01\x01zhangsan".to_vec();
    want.extend_from_slice(&(i64::MAX - 1_638_316_800_000).to_be_bytes());
    assert_eq!(&*key, &want[..]);
    assert_eq!(Spend::decode(&key).unwrap(), s);
    println!("{}", Spend::layout().explain());
}

#[test]
fn errors_name_field_and_offset() {
    let s = Spend {
        month: 202112,
        user: "zhangsan_too_long",
        at_ms: 0,
    };
    let e = s.to_key().unwrap_err();
    assert_eq!(e.field(), "user");
    assert_eq!(e.offset(), 6);
    assert_eq!(e.kind(), EncodeErrorKind::TooLong { len: 17, max: 10 });
    let e = CallRecord::decode(b"2_13812345678-20211201120000").unwrap_err();
    assert_eq!(e.field(), "time");
    assert_eq!(e.offset(), 13);
    assert_eq!(
        e.kind(),
        DecodeErrorKind::MissingSeparator {
            expected: b'_',
            found: b'-'
        }
    );
}
