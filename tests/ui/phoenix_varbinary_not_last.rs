use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Blobs {
    #[max_len(32)]
    digest: Vec<u8>,
    part: i32,
}

fn main() {}
