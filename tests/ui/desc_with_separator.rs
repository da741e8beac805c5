use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(separator = "_")]
struct Score {
    #[text(width = 6)]
    month: u32,
    #[text(width = 10)]
    #[desc]
    points: u32,
}

fn main() {}
