use rowkey::RowKey;

#[derive(RowKey)]
struct Reading {
    device: u32,
    metric: u16,
    #[desc_ts]
    at_ms: i64,
}

// Reading has no `sensor`: the index cannot copy it.
#[derive(RowKey)]
#[rowkey(index_of = Reading)]
struct ReadingByMetric {
    metric: u16,
    #[desc_ts]
    at_ms: i64,
    sensor: u32,
}

fn main() {}
