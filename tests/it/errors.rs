//! Bad input gets a precise error: which key, which field, which byte
//! offset and why; never a panic, a truncation or a different value.

use rowkey::codec::framing::Side;
use rowkey::{DecodeErrorKind, EncodeErrorKind, KeyPart, RowKey};
use rowkey_fixtures::Spend;

#[derive(RowKey, Debug, PartialEq)]
struct Tail {
    id: u16,
    #[max_len(4)]
    name: String,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(separator = "_")]
struct CallRecord {
    #[text(width = 11)]
    tel: u64,
    #[max_len(8)]
    city: String,
}

#[test]
fn encode_names_field_offset_and_cause() {
    let long = Spend {
        month: 202112,
        user: "a-very-long-user",
        at_ms: 1,
    };
    let e = long.to_key().unwrap_err();
    assert_eq!((e.key(), e.field(), e.offset()), ("Spend", "user", 6));
    assert_eq!(e.kind(), EncodeErrorKind::TooLong { len: 16, max: 10 });

    let fill = Spend {
        month: 202112,
        user: "\u{1}x",
        at_ms: 1,
    };
    let e = fill.to_key().unwrap_err();
    assert_eq!(e.field(), "user");
    assert!(
        matches!(
            e.kind(),
            EncodeErrorKind::FillAtEdge {
                fill: 1,
                side: Side::Left
            }
        ),
        "{e}"
    );

    let digits = Spend {
        month: 2021120,
        user: "u",
        at_ms: 1,
    };
    let e = digits.to_key().unwrap_err();
    assert_eq!((e.field(), e.offset()), ("month", 0));
    assert_eq!(
        e.kind(),
        EncodeErrorKind::TooManyDigits {
            digits: 7,
            width: 6
        }
    );

    let past = Spend {
        month: 202112,
        user: "u",
        at_ms: -1,
    };
    assert_eq!(past.to_key().unwrap_err().field(), "at_ms");

    let sep = CallRecord {
        tel: 1,
        city: "new_york".into(),
    };
    let e = sep.to_key().unwrap_err();
    assert_eq!((e.field(), e.offset()), ("city", 12));
    assert_eq!(
        e.kind(),
        EncodeErrorKind::ContainsSeparator {
            separator: b'_',
            index: 3
        }
    );
}

#[test]
fn short_buffer_says_how_much_is_needed() {
    let key = Spend {
        month: 202112,
        user: "zhangsan",
        at_ms: 5,
    };
    let mut out = [0u8; 10];
    let e = key.encode_into(&mut out).unwrap_err();
    assert_eq!(
        e.kind(),
        EncodeErrorKind::BufferTooSmall {
            needed: 24,
            available: 10
        }
    );
}

#[test]
fn raw_last_field_longer_than_max_len_is_rejected() {
    // The encoder never writes a 5-byte name; a key from elsewhere might.
    let e = Tail::decode(b"\x00\x07abcde").unwrap_err();
    assert_eq!((e.key(), e.field(), e.offset()), ("Tail", "name", 2));
    assert_eq!(e.kind(), DecodeErrorKind::TooLong { len: 5, max: 4 });
    assert_eq!(Tail::decode(b"\x00\x07abcd").unwrap().name, "abcd");
}

#[test]
fn decode_names_field_offset_and_cause() {
    let e = Spend::decode(b"2021x2").unwrap_err();
    assert_eq!((e.field(), e.offset()), ("month", 4));
    assert_eq!(e.kind(), DecodeErrorKind::InvalidDigit { byte: b'x' });

    let e = Spend::decode(b"202112\x01\x01").unwrap_err();
    assert_eq!((e.field(), e.offset()), ("user", 6));
    assert!(
        matches!(e.kind(), DecodeErrorKind::UnexpectedEnd { .. }),
        "{e}"
    );

    let e = Spend::decode(b"202112\x01\x01\x01\x01\x01\x01\xff\xfe\xfd\xfc").unwrap_err();
    assert_eq!(e.field(), "user");
    assert_eq!(e.kind(), DecodeErrorKind::InvalidUtf8);

    let e = CallRecord::decode(b"13812345678-x").unwrap_err();
    assert_eq!((e.field(), e.offset()), ("city", 11));
    assert_eq!(
        e.kind(),
        DecodeErrorKind::MissingSeparator {
            expected: b'_',
            found: b'-'
        }
    );

    let good = CallRecord {
        tel: 13812345678,
        city: "bj".into(),
    }
    .to_vec()
    .unwrap();
    assert_eq!(CallRecord::decode(&good).unwrap().city, "bj");
    let mut trailing = Spend {
        month: 1,
        user: "u",
        at_ms: 1,
    }
    .to_vec()
    .unwrap();
    trailing.push(0);
    let e = Spend::decode(&trailing).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::TrailingBytes { count: 1 });
    assert_eq!(e.offset(), 24);
}

/// Explicit discriminants that increase in declared order are accepted
/// (the derive rejects the others), and the key's order is Ord's order.
#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Debug = -1,
    Info = 10,
    Warn,
    Error = 40,
}

#[derive(RowKey, Debug, PartialEq)]
struct LogLine {
    level: Level,
    seq: u32,
}

#[test]
fn enum_with_discriminants_sorts_like_ord() {
    let all = [Level::Debug, Level::Info, Level::Warn, Level::Error];
    for a in all {
        for b in all {
            let ka = LogLine { level: a, seq: 0 }.to_vec().unwrap();
            let kb = LogLine { level: b, seq: 0 }.to_vec().unwrap();
            assert_eq!(a.cmp(&b), ka.cmp(&kb), "{a:?} vs {b:?}");
            assert_eq!(LogLine::decode(&ka).unwrap().level, a);
        }
    }
    let e = LogLine::decode(&[9, 0, 0, 0, 0]).unwrap_err();
    assert_eq!((e.field(), e.offset()), ("level", 0));
    assert!(matches!(e.kind(), DecodeErrorKind::Invalid(_)), "{e}");
}

/// A crate that re-exports rowkey under another name points the derives at it.
mod renamed {
    use rowkey as my_keys;

    #[derive(my_keys::KeyPart, Debug, Clone, Copy, PartialEq)]
    #[rowkey(crate = "my_keys")]
    pub enum Region {
        Eu,
        Us,
    }

    #[derive(my_keys::RowKey, Debug, PartialEq)]
    #[rowkey(crate = "my_keys")]
    pub struct Placed {
        pub region: Region,
        pub id: u64,
    }
}

#[test]
fn crate_path_is_honoured() {
    use renamed::{Placed, Region};
    let key = Placed {
        region: Region::Us,
        id: 7,
    }
    .to_vec()
    .unwrap();
    assert_eq!(key[0], 1);
    assert_eq!(
        Placed::decode(&key).unwrap(),
        Placed {
            region: Region::Us,
            id: 7
        }
    );
}

/// 256 variants fill the byte: every byte decodes to a variant, and the
/// derive's fallback arm (unreachable here) does not trip a lint.
#[derive(KeyPart, Debug, Clone, Copy, PartialEq)]
#[rustfmt::skip]
#[allow(dead_code)]
#[deny(unreachable_patterns)]
enum Wide { V0, V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15, V16, V17, V18, V19, V20, V21, V22, V23, V24, V25, V26, V27, V28, V29, V30, V31, V32, V33, V34, V35, V36, V37, V38, V39, V40, V41, V42, V43, V44, V45, V46, V47, V48, V49, V50, V51, V52, V53, V54, V55, V56, V57, V58, V59, V60, V61, V62, V63, V64, V65, V66, V67, V68, V69, V70, V71, V72, V73, V74, V75, V76, V77, V78, V79, V80, V81, V82, V83, V84, V85, V86, V87, V88, V89, V90, V91, V92, V93, V94, V95, V96, V97, V98, V99, V100, V101, V102, V103, V104, V105, V106, V107, V108, V109, V110, V111, V112, V113, V114, V115, V116, V117, V118, V119, V120, V121, V122, V123, V124, V125, V126, V127, V128, V129, V130, V131, V132, V133, V134, V135, V136, V137, V138, V139, V140, V141, V142, V143, V144, V145, V146, V147, V148, V149, V150, V151, V152, V153, V154, V155, V156, V157, V158, V159, V160, V161, V162, V163, V164, V165, V166, V167, V168, V169, V170, V171, V172, V173, V174, V175, V176, V177, V178, V179, V180, V181, V182, V183, V184, V185, V186, V187, V188, V189, V190, V191, V192, V193, V194, V195, V196, V197, V198, V199, V200, V201, V202, V203, V204, V205, V206, V207, V208, V209, V210, V211, V212, V213, V214, V215, V216, V217, V218, V219, V220, V221, V222, V223, V224, V225, V226, V227, V228, V229, V230, V231, V232, V233, V234, V235, V236, V237, V238, V239, V240, V241, V242, V243, V244, V245, V246, V247, V248, V249, V250, V251, V252, V253, V254, V255 }

#[derive(RowKey, Debug, PartialEq)]
struct WideKey {
    w: Wide,
}

#[test]
fn every_byte_is_a_variant_of_a_full_enum() {
    for b in 0..=255u8 {
        let k = WideKey::decode(&[b]).unwrap();
        assert_eq!(k.to_vec().unwrap(), [b]);
    }
    assert_eq!(WideKey { w: Wide::V255 }.to_vec().unwrap(), [255]);
}
