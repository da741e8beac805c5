use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(separator = "::")]
struct Call {
    #[text(width = 11)]
    tel: u64,
}

fn main() {}
