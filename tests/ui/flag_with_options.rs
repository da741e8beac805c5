use rowkey::RowKey;

#[derive(RowKey)]
struct Score {
    #[desc(true)]
    points: u32,
}

fn main() {}
