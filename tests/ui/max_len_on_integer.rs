use rowkey::RowKey;

#[derive(RowKey)]
struct Order {
    #[max_len(8)]
    id: u32,
}

fn main() {}
