use rowkey::RowKey;

#[derive(RowKey)]
struct Reading {
    sensor: u32,
    value: f64,
}

fn main() {}
