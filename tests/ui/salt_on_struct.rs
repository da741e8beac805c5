use rowkey::RowKey;

#[derive(RowKey)]
#[salt(buckets = 16)]
struct Event {
    user: u32,
    id: u64,
}

fn main() {}
