use rowkey::RowKey;

#[derive(RowKey)]
struct Order {
    #[reverse]
    id: u64,
}

fn main() {}
