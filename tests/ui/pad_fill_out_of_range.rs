use rowkey::RowKey;

#[derive(RowKey)]
struct User {
    #[pad(width = 10, fill = 300)]
    name: String,
}

fn main() {}
