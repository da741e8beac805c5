use rowkey::RowKey;

#[derive(RowKey)]
struct User {
    #[max_len(0)]
    name: String,
}

fn main() {}
