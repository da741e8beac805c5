use rowkey::RowKey;

#[derive(RowKey)]
struct User {
    #[pad(widht = 10)]
    name: String,
}

fn main() {}
