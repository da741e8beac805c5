use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[salt(buckets = 0)]
    id: u64,
}

fn main() {}
