use rowkey::RowKey;

#[derive(RowKey)]
struct Pair(u32, u64);

fn main() {}
