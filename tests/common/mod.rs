//! Layouts and data several test files share: the seed layouts of
//! rowkey-techniques.md and the Java vectors beside the repo.
#![allow(dead_code)]

use rowkey::RowKey;

/// The spending ledger (seed section 5, without the salt).
#[derive(RowKey, Debug, PartialEq, Clone)]
pub struct Spend<'a> {
    #[text(width = 6)]
    pub month: u32,
    #[pad(width = 10, fill = 0x01, align = left)]
    pub user: &'a str,
    #[desc_ts]
    pub at_ms: i64,
}

/// The call records with the bucket given by hand (before salting).
#[derive(RowKey, Debug, PartialEq, Clone)]
#[rowkey(separator = "_")]
pub struct BucketedCall {
    #[text(width = 1)]
    pub bucket: u8,
    #[text(width = 11)]
    pub tel: u64,
    #[text(width = 14)]
    pub time: u64,
}

/// The seed layouts, shared with the examples.
#[path = "../../examples/layouts/mod.rs"]
pub mod layouts;

/// The call records with the salt computed by the derive (the seed's Java
/// formula, `layouts::call_bucket`).
#[allow(unused_imports)]
pub use layouts::{call_bucket, CallRecord as SaltedCall};

/// `../shared/vectors/java_call_records.json`, the project's shared
/// vectors. A copy lives in `tests/vectors/` for clones made without the
/// shared folder beside them; where both exist they must be identical.
pub fn java_call_records() -> serde_json::Value {
    let shared = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/vectors/java_call_records.json"
    );
    let copy = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/java_call_records.json"
    );
    let copied = std::fs::read_to_string(copy).expect("tests/vectors/java_call_records.json");
    let text = match std::fs::read_to_string(shared) {
        Ok(shared) => {
            assert_eq!(
                shared, copied,
                "tests/vectors/ is out of date with ../shared/vectors/"
            );
            shared
        }
        Err(_) => copied,
    };
    serde_json::from_str(&text).expect("the vectors are JSON")
}
