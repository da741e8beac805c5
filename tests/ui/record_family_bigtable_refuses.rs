use rowkey::store::{MemStore, Record, StoreExt};
use rowkey::{Record, RowKey};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct ReadingKey {
    #[salt(buckets = 16, binary)]
    #[pad(width = 32)]
    device: String,
    #[desc_ts]
    at_ms: i64,
}

#[derive(Record)]
#[record(key = ReadingKey)]
struct Reading {
    device: String,
    at_ms: i64,
    #[cell(family = "d:v")]
    value: f64,
}

fn main() {
    let r: Option<Reading> = None;
    if let Some(r) = r {
        let _ = r.key();
        let _ = r.cells();
        let _ = MemStore::new().put_record(&r);
    }
}
