use chrono::NaiveDate;
use rowkey::RowKey;

#[derive(RowKey)]
struct Visit {
    #[text(format = "%Y%m%d%H")]
    day: NaiveDate,
    user: u32,
}

fn main() {}
