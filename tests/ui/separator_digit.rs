use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(separator = "5")]
struct Call {
    #[text(width = 11)]
    tel: u64,
    #[max_len(20)]
    name: String,
}

fn main() {}
