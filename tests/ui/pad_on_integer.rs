use rowkey::RowKey;

#[derive(RowKey)]
struct Order {
    #[pad(width = 8)]
    id: u32,
}

fn main() {}
