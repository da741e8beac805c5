use rowkey::RowKey;

#[derive(RowKey)]
struct User {
    #[pad(width = 10)]
    #[max_len(10)]
    name: String,
}

fn main() {}
