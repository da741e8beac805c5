use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[salt(buckets = 16)]
    user: u32,
    #[salt(buckets = 16)]
    id: u64,
}

fn main() {}
