use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Users {
    name: String,
    id: i64,
}

fn main() {}
