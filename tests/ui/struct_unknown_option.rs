use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(seperator = "_")]
struct Call {
    #[text(width = 11)]
    tel: u64,
}

fn main() {}
