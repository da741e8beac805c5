use rowkey::RowKey;

#[derive(RowKey)]
struct User {
    #[max_len = 16]
    name: String,
}

fn main() {}
