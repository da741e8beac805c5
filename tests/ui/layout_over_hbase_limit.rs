use rowkey::RowKey;

#[derive(RowKey)]
struct Blob {
    #[pad(width = 20000)]
    a: Vec<u8>,
    #[pad(width = 20000)]
    b: Vec<u8>,
}

fn main() {}
