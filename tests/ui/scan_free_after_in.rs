use rowkey::RowKey;

#[derive(RowKey)]
struct Reading {
    device: u32,
    metric: u16,
    #[desc_ts]
    at_ms: i64,
}

fn main() {
    // Each combination of the list would need its own fuzzy filter.
    let _ = Reading::scan().device.is_in([7, 9]).metric.any().at_ms.eq(5).plan();
}
