use rowkey::store::Record;
use rowkey::{Record, RowKey};

#[derive(RowKey)]
#[rowkey(phoenix)]
struct MetricKey {
    #[max_len(64)]
    host: String,
    at: i64,
}
#[derive(Record)]
#[record(key = MetricKey, family = "d")]
struct Metric {
    host: String,
    at: i64,
    #[cell(qualifier = 11)]
    v: Option<f64>,
}

fn main() {
    let r: Option<Metric> = None;
    if let Some(r) = r {
        let _ = r.cells();
    }
}
