use rowkey::RowKey;

#[derive(RowKey)]
struct User {
    id: u32,
    name: String,
}

fn main() {}
