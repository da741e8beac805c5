use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[salt(bucket = 16)]
    id: u64,
}

fn main() {}
