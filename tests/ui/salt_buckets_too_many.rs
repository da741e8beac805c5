use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[salt(buckets = 70000)]
    id: u64,
}

fn main() {}
