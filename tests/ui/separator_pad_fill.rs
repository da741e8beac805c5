use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(separator = "_")]
struct User {
    #[pad(width = 10, fill = b'_')]
    name: String,
    #[text(width = 6)]
    month: u32,
}

fn main() {}
