use rowkey::RowKey;

#[derive(RowKey)]
struct User {
    #[rowkey(max_len = 16)]
    name: String,
}

fn main() {}
