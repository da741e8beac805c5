use rowkey::RowKey;

#[derive(RowKey)]
struct Reading {
    device: u32,
    metric: u16,
    #[desc_ts]
    at_ms: i64,
}

// `device` is a u32 on Reading: the index cannot hold it as a u16.
#[derive(RowKey)]
#[rowkey(index_of = Reading)]
struct ReadingByMetric {
    metric: u16,
    #[desc_ts]
    at_ms: i64,
    device: u16,
}

fn main() {}
