use rowkey::RowKey;

#[derive(RowKey)]
#[repr(C, packed)]
struct Reading {
    sensor: u16,
    at: u64,
}

fn main() {}
