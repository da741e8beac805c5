use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(separator = "_")]
struct Call {
    #[salt(buckets = 16, binary)]
    #[text(width = 11)]
    tel: u64,
}

fn main() {}
