//! Layouts and data several test files share: the seed layouts of
//! rowkey-techniques.md and the Java vectors beside the repo.
#![allow(dead_code)]

use rowkey::salt::{java_abs_mod, java_hash_code};
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

/// The seed's Java formula (rowkey-techniques.md 3.2):
/// `Math.abs(last4(tel).hashCode() ^ yyyyMM(time).hashCode()) % 6`.
pub fn call_bucket(r: &SaltedCall) -> u32 {
    let (tel, time) = (r.tel.to_string(), r.time.to_string());
    java_abs_mod(
        java_hash_code(&tel[tel.len() - 4..]) ^ java_hash_code(&time[..6]),
        6,
    )
}

/// The call records with the salt computed by the derive.
#[derive(RowKey, Debug, PartialEq, Clone)]
#[rowkey(separator = "_")]
pub struct SaltedCall {
    #[salt(buckets = 6, hash = call_bucket)]
    #[text(width = 11)]
    pub tel: u64,
    #[salt]
    #[text(width = 14)]
    pub time: u64,
}

/// `../shared/vectors/java_call_records.json`.
pub fn java_call_records() -> serde_json::Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/vectors/java_call_records.json"
    );
    let text = std::fs::read_to_string(path).expect("shared vectors are beside the repo");
    serde_json::from_str(&text).expect("the vectors are JSON")
}
