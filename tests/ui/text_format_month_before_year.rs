use chrono::NaiveDateTime;
use rowkey::RowKey;

#[derive(RowKey)]
struct Visit {
    #[text(format = "%m%Y")]
    at: NaiveDateTime,
    user: u32,
}

fn main() {}
