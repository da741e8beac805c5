use rowkey::RowKey;

#[derive(RowKey)]
struct Call {
    #[text(with = 11)]
    tel: u64,
}

fn main() {}
