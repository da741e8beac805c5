use chrono::NaiveDateTime;
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(separator = "-")]
struct Visit {
    #[text(format = "%Y-%m")]
    month: NaiveDateTime,
    #[text(width = 4)]
    user: u32,
}

fn main() {}
