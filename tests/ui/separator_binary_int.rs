use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(separator = "_")]
struct Call {
    #[text(width = 11)]
    tel: u64,
    time: u64,
}

fn main() {}
