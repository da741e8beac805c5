use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Days {
    #[text(width = 8)]
    day: u32,
    id: i64,
}

fn main() {}
