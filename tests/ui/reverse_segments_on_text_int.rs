use rowkey::RowKey;

#[derive(RowKey)]
struct Call {
    #[text(width = 11)]
    #[reverse(segments = ".")]
    tel: u64,
}

fn main() {}
