use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(max_len = 40000)]
struct Blob {
    #[pad(width = 20000)]
    a: Vec<u8>,
    #[pad(width = 15000)]
    b: Vec<u8>,
}

fn main() {}
