use rowkey::RowKey;

type Tel = u64;

#[derive(RowKey)]
struct Call {
    #[text]
    tel: Tel,
}

fn main() {}
