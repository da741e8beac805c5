use rowkey::RowKey;

#[derive(RowKey)]
struct Month {
    #[text]
    #[pad(width = 4)]
    year: u16,
}

fn main() {}
