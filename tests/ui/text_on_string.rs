use rowkey::RowKey;

#[derive(RowKey)]
struct User {
    #[text]
    name: String,
}

fn main() {}
