use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[salt(buckets = 300, hash = phoenix)]
    id: u64,
}

fn main() {}
