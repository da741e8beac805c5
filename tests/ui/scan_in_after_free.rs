use rowkey::RowKey;

#[derive(RowKey)]
struct Reading {
    device: u32,
    metric: u16,
    #[desc_ts]
    at_ms: i64,
}

fn main() {
    // An IN-list on a field after a free one: one filter per value would be needed.
    let _ = Reading::scan().device.any().metric.is_in([1, 2]).plan();
}
