use rowkey::RowKey;

type Tel = u64;

#[derive(RowKey)]
struct Call {
    #[text(width = 50)]
    tel: Tel,
}

fn main() {}
