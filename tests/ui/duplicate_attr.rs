use rowkey::RowKey;

#[derive(RowKey)]
struct Score {
    #[desc]
    #[desc]
    points: u32,
}

fn main() {}
