use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[salt(buckets = 6, hash = my_bucket)]
    id: u64,
}

fn main() {}
