//! The seed layouts of the issue, byte for byte.

use rowkey::{DecodeErrorKind, EncodeErrorKind, RowKey};

#[derive(RowKey, Debug, PartialEq, Clone)]
#[rowkey(separator = "_")]
struct CallRecord {
    #[text(width = 1)]
    bucket: u8,
    #[text(width = 11)]
    tel: u64,
    #[text(width = 14)]
    time: u64,
}

#[derive(RowKey, Debug, PartialEq, Clone)]
struct Spend<'a> {
    #[text(width = 6)]
    month: u32,
    #[pad(width = 10, fill = 0x01, align = left)]
    user: &'a str,
    #[desc_ts]
    at_ms: i64,
}

#[test]
fn call_record_matches_java_vectors() {
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/vectors/java_call_records.json"
        ))
        .expect("shared vectors are beside the repo"),
    )
    .unwrap();
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
