use chrono::NaiveDateTime;
use rowkey::RowKey;

#[derive(RowKey)]
struct Visit {
    #[text(format = "%Y%m")]
    month: NaiveDateTime,
    user: u32,
}

fn main() {
    let _ = Visit::scan().month.starts_with("2021");
}
