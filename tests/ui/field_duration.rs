use rowkey::RowKey;
use std::time::Duration;

#[derive(RowKey)]
struct Job {
    id: u32,
    took: Duration,
}

fn main() {}
