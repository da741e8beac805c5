use rowkey::RowKey;

#[derive(RowKey)]
struct Hash<const N: usize> {
    bytes: [u8; N],
}

fn main() {}
