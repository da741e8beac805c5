use chrono::NaiveDateTime;
use rowkey::RowKey;

#[derive(RowKey)]
struct Visit {
    #[text(format = "%Y %B")]
    at: NaiveDateTime,
    user: u32,
}

fn main() {}
