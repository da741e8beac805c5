use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[salt]
    user: u32,
    #[salt]
    id: u64,
}

fn main() {}
