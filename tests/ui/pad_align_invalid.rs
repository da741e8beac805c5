use rowkey::RowKey;

#[derive(RowKey)]
struct User {
    #[pad(width = 10, align = center)]
    name: String,
}

fn main() {}
