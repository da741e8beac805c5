use chrono::NaiveDateTime;
use rowkey::RowKey;

#[derive(RowKey)]
struct Visit {
    #[text(format = "%y%m%d")]
    at: NaiveDateTime,
    user: u32,
}

fn main() {}
