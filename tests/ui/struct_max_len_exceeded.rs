use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(max_len = 10)]
struct Call {
    #[text(width = 11)]
    tel: u64,
}

fn main() {}
