use rowkey::RowKey;

#[derive(RowKey)]
struct User {
    #[pad(fill = 0x01)]
    name: String,
}

fn main() {}
