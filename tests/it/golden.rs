//! Golden keys: the stored format of every codec and seed layout, byte for
//! byte, so it cannot change by accident. Keys are written as HBase's
//! `Bytes.toStringBinary` prints them (`\xNN` for anything not printable,
//! and for `\`), which is exact and readable.
//!
//! After an intended format change (which breaks every stored key!), run
//! `ROWKEY_BLESS=1 cargo test --all-features --test it golden::` and review
//! the diff (keys of optional key parts are only built with their
//! features).

use rowkey::{KeyDisplay, KeyPart, RowKey};

mod optional;
mod text_forms;

#[derive(KeyPart, Debug, PartialEq)]
enum Status {
    Created,
    Paid,
    Shipped,
}

#[derive(KeyPart, Debug, PartialEq)]
struct OrderId(u64);

macro_rules! one_field {
    ($name:ident: $ty:ty $(, #[$($a:tt)*])*) => {
        #[derive(RowKey, Debug, PartialEq)]
        struct $name {
            $(#[$($a)*])*
            v: $ty,
        }
    };
}

one_field!(U8: u8);
one_field!(U16: u16);
one_field!(U32: u32);
one_field!(U64: u64);
one_field!(U128: u128);
one_field!(I8: i8);
one_field!(I16: i16);
one_field!(I32: i32);
one_field!(I64: i64);
one_field!(I128: i128);
one_field!(Bool: bool);
one_field!(Char: char);
one_field!(Arr: [u8; 4]);
one_field!(Enum: Status);
one_field!(Newtype: OrderId);
one_field!(OptI16: Option<i16>);
one_field!(Text6: u32, #[text(width = 6)]);
one_field!(TextFull: u64, #[text]);
one_field!(TextRev: u64, #[text(width = 11)], #[reverse]);
one_field!(TextDesc: u16, #[text(width = 5)], #[desc]);
one_field!(DescPart: i32, #[desc]);
one_field!(DescTsBin: i64, #[desc_ts]);
one_field!(DescTsText: u64, #[desc_ts], #[text]);
one_field!(RawLast: String, #[max_len(16)]);
one_field!(DescLast: String, #[max_len(16)], #[desc]);
one_field!(PadLeft: String, #[pad(width = 10, fill = 0x01, align = left)]);
one_field!(PadRight: Vec<u8>, #[pad(width = 6)]);
one_field!(RevChars: String, #[max_len(32)], #[reverse]);
one_field!(RevSegments: String, #[max_len(32)], #[reverse(segments = ".")]);
one_field!(OptText: Option<String>, #[max_len(8)]);
one_field!(F32: f32);
one_field!(F64: f64);
one_field!(DescF64: f64, #[desc]);

#[derive(RowKey, Debug, PartialEq)]
struct Escaped {
    #[max_len(8)]
    a: Vec<u8>,
    #[max_len(8)]
    b: String,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(separator = "_")]
struct Delimited {
    #[max_len(8)]
    a: String,
    #[text(width = 2)]
    n: u8,
    #[max_len(8)]
    b: String,
}

// The seed layouts (fixtures/src/layouts), salt given by hand.

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(separator = "_")]
struct CallRecord {
    #[text(width = 1)]
    bucket: u8,
    #[text(width = 11)]
    tel: u64,
    #[text(width = 14)]
    time: u64,
}

#[derive(RowKey, Debug, PartialEq)]
struct Spend<'a> {
    #[text(width = 3)]
    bucket: u16,
    #[text(width = 6)]
    month: u32,
    #[pad(width = 10, fill = 0x01, align = left)]
    user: &'a str,
    #[desc_ts]
    at_ms: i64,
}

#[derive(RowKey, Debug, PartialEq)]
struct OrderStatus {
    #[text(width = 11)]
    #[reverse]
    user_id: u64,
    #[desc_ts]
    #[text]
    ts: i64,
}

#[derive(RowKey, Debug, PartialEq)]
struct SitePage {
    #[max_len(64)]
    #[reverse(segments = ".")]
    host: String,
    #[max_len(256)]
    path: String,
}

#[derive(RowKey, Debug, PartialEq)]
struct UserOp {
    #[text(width = 10)]
    uid: u64,
    #[desc_ts]
    at: i64,
}

#[derive(RowKey, Debug, PartialEq)]
struct Trade {
    #[text(width = 2)]
    salt: u8,
    #[text(width = 10)]
    seller_id: u64,
    #[text(width = 13)]
    ts: u64,
    #[text(width = 12)]
    order_id: u64,
}

// Salts and hash prefixes: every hash is part of the stored format.

macro_rules! salted {
    ($name:ident, $($salt:tt)*) => {
        #[derive(RowKey, Debug, PartialEq)]
        struct $name {
            #[salt($($salt)*)]
            #[max_len(16)]
            id: String,
        }
    };
}
salted!(SaltDefault, buckets = 16);
salted!(SaltDefaultBinary, buckets = 1000, binary);
salted!(SaltJava, buckets = 120, hash = java);
salted!(SaltPhoenix, buckets = 8, hash = phoenix);
salted!(SaltMd5, buckets = 6, hash = md5);

#[derive(RowKey, Debug, PartialEq)]
struct SaltGrouped {
    #[salt(buckets = 120, group_by = month, range = 1..=12, per_group = 10)]
    #[max_len(16)]
    user: String,
    #[text(width = 2)]
    month: u8,
}

macro_rules! hash_prefixed {
    ($name:ident, $($opt:tt)*) => {
        #[derive(RowKey, Debug, PartialEq)]
        struct $name {
            #[hash_prefix($($opt)*)]
            #[max_len(16)]
            id: String,
        }
    };
}
hash_prefixed!(PrefixMd5, len = 6);
hash_prefixed!(PrefixMd5Binary, len = 2, binary);
hash_prefixed!(PrefixDefault, len = 8, algo = default);

fn salted_keys(v: &mut Vec<(&'static str, String)>) {
    for id in ["", "foo0001", "zhangsan", "用户"] {
        v.push((
            "salt default 16",
            hex(&SaltDefault { id: id.into() }.to_key().unwrap()),
        ));
        v.push((
            "salt default 1000 binary",
            hex(&SaltDefaultBinary { id: id.into() }.to_key().unwrap()),
        ));
        v.push((
            "salt java 120",
            hex(&SaltJava { id: id.into() }.to_key().unwrap()),
        ));
        v.push((
            "salt phoenix 8",
            hex(&SaltPhoenix { id: id.into() }.to_key().unwrap()),
        ));
        v.push((
            "salt md5 6",
            hex(&SaltMd5 { id: id.into() }.to_key().unwrap()),
        ));
        v.push((
            "hash prefix md5 6",
            hex(&PrefixMd5 { id: id.into() }.to_key().unwrap()),
        ));
        v.push((
            "hash prefix md5 2 binary",
            hex(&PrefixMd5Binary { id: id.into() }.to_key().unwrap()),
        ));
        v.push((
            "hash prefix default 8",
            hex(&PrefixDefault { id: id.into() }.to_key().unwrap()),
        ));
    }
    for month in [1, 12] {
        let key = SaltGrouped {
            user: "zhangsan".into(),
            month,
        }
        .to_key()
        .unwrap();
        v.push(("salt groups month", hex(&key)));
    }
}

fn hex(key: &[u8]) -> String {
    KeyDisplay(key).to_string()
}

fn keys() -> Vec<(&'static str, String)> {
    let mut v: Vec<(&'static str, String)> = Vec::new();
    macro_rules! key {
        ($label:expr, $value:expr) => {
            v.push(($label, hex(&$value.to_key().unwrap())))
        };
    }
    key!("u8 0x7F", U8 { v: 0x7F });
    key!("u16 258", U16 { v: 258 });
    key!("u32 1", U32 { v: 1 });
    key!("u64 max", U64 { v: u64::MAX });
    key!("u128 1", U128 { v: 1 });
    key!("i8 -1", I8 { v: -1 });
    key!("i16 min", I16 { v: i16::MIN });
    key!("i32 0", I32 { v: 0 });
    key!("i64 -2", I64 { v: -2 });
    key!("i128 max", I128 { v: i128::MAX });
    key!("bool true", Bool { v: true });
    key!("char é", Char { v: 'é' });
    key!("[u8; 4]", Arr { v: *b"ab\\c" });
    key!("enum Paid", Enum { v: Status::Paid });
    key!("enum Shipped", Enum { v: Status::Shipped });
    key!("newtype 7", Newtype { v: OrderId(7) });
    key!("f32 1.5", F32 { v: 1.5 });
    key!("f64 -1.5", F64 { v: -1.5 });
    key!("f64 0.0", F64 { v: 0.0 });
    key!("f64 -0.0 (stored as 0.0)", F64 { v: -0.0 });
    key!("f64 +inf", F64 { v: f64::INFINITY });
    key!(
        "f64 -inf",
        F64 {
            v: f64::NEG_INFINITY
        }
    );
    key!("desc f64 2.0", DescF64 { v: 2.0 });
    key!("Option<i16> None", OptI16 { v: None });
    key!("Option<i16> Some(-1)", OptI16 { v: Some(-1) });
    key!("text(6) 42", Text6 { v: 42 });
    key!("text u64 full width", TextFull { v: 20211201120000 });
    key!("text(11) reverse", TextRev { v: 13812345678 });
    key!("text(5) desc 7", TextDesc { v: 7 });
    key!("desc i32 0", DescPart { v: 0 });
    key!("desc_ts 0", DescTsBin { v: 0 });
    key!(
        "desc_ts 2021-12-01",
        DescTsBin {
            v: 1_638_316_800_000
        }
    );
    key!(
        "desc_ts text 2021-12-01",
        DescTsText {
            v: 1_638_316_800_000
        }
    );
    key!("raw last", RawLast { v: "a\0b".into() });
    key!("desc last (escaped, inverted)", DescLast { v: "ab".into() });
    key!(
        "pad left 0x01",
        PadLeft {
            v: "zhangsan".into()
        }
    );
    key!("pad right 0x00", PadRight { v: b"ab".to_vec() });
    key!(
        "reverse chars",
        RevChars {
            v: "www.iteblog.com".into()
        }
    );
    key!(
        "reverse segments",
        RevSegments {
            v: "www.iteblog.com".into()
        }
    );
    key!("Option<String> None", OptText { v: None });
    key!(
        "Option<String> Some",
        OptText {
            v: Some("x".into())
        }
    );
    key!(
        "escaped a\\0 + b",
        Escaped {
            a: b"a\0".to_vec(),
            b: "b".into()
        }
    );
    key!(
        "escaped empty + empty",
        Escaped {
            a: vec![],
            b: String::new()
        }
    );
    key!(
        "delimited",
        Delimited {
            a: "ab".into(),
            n: 7,
            b: "cd".into()
        }
    );
    key!(
        "call record",
        CallRecord {
            bucket: 2,
            tel: 13812345678,
            time: 20211201120000
        }
    );
    key!(
        "spending ledger",
        Spend {
            bucket: 119,
            month: 202112,
            user: "zhangsan",
            at_ms: 1_638_316_800_000
        }
    );
    key!(
        "order status",
        OrderStatus {
            user_id: 13812345678,
            ts: 1_638_316_800_000
        }
    );
    key!(
        "url by site",
        SitePage {
            host: "www.iteblog.com".into(),
            path: "/archives/2021".into()
        }
    );
    key!(
        "latest user op",
        UserOp {
            uid: 42,
            at: 1_638_316_800_000
        }
    );
    key!(
        "seller trade",
        Trade {
            salt: 7,
            seller_id: 1001,
            ts: 1_638_316_800_000,
            order_id: 55
        }
    );
    salted_keys(&mut v);
    optional::keys(&mut v, hex);
    text_forms::keys(&mut v, hex);
    v
}

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/keys.txt");

#[test]
fn keys_match_golden_file() {
    let rendered: String = keys()
        .into_iter()
        .map(|(label, key)| format!("{label}\t{key}\n"))
        .collect();
    if std::env::var_os("ROWKEY_BLESS").is_some() {
        // Without a feature its lines would be dropped from the file.
        assert!(optional::all_built(), "bless with --all-features");
        std::fs::write(GOLDEN, &rendered).unwrap();
    }
    let golden = std::fs::read_to_string(GOLDEN).expect("tests/golden/keys.txt");
    // Lines of key parts whose feature is off are not built.
    let built = golden
        .lines()
        .filter(|line| optional::built(line.split('\t').next().unwrap_or("")));
    for (want, got) in built.clone().zip(rendered.lines()) {
        assert_eq!(got, want, "a stored key format changed");
    }
    assert_eq!(built.count(), rendered.lines().count());
}

#[test]
fn spot_checks_by_hand() {
    // A few golden values derived by hand, so the file itself is checked.
    let g: std::collections::HashMap<_, _> = keys().into_iter().collect();
    assert_eq!(g["i8 -1"], r"\x7F");
    assert_eq!(g["i32 0"], r"\x80\x00\x00\x00");
    assert_eq!(g["text(11) reverse"], "87654321831");
    assert_eq!(g["reverse segments"], "com.iteblog.www");
    assert_eq!(g["pad left 0x01"], r"\x01\x01zhangsan");
    assert_eq!(g["call record"], "2_13812345678_20211201120000");
    assert_eq!(g["escaped a\\0 + b"], r"a\x00\xFF\x00\x01b");
    assert_eq!(g["desc_ts 0"], r"\x7F\xFF\xFF\xFF\xFF\xFF\xFF\xFF");
    assert_eq!(g["[u8; 4]"], r"ab\x5Cc");
    assert_eq!(
        g["desc_ts text 2021-12-01"],
        (i64::MAX - 1_638_316_800_000).to_string()
    );
}
