use rowkey::RowKey;

#[derive(RowKey)]
struct Call {
    #[text(width = 0)]
    tel: u64,
}

fn main() {}
