use rowkey::RowKey;

#[derive(RowKey)]
struct User {
    #[pad(width = 0)]
    name: String,
}

fn main() {}
