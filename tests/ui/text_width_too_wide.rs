use rowkey::RowKey;

#[derive(RowKey)]
struct Call {
    #[text(width = 25)]
    tel: u64,
}

fn main() {}
