use rowkey::RowKey;

#[derive(RowKey)]
struct Spend<'a> {
    #[text(width = 6)]
    month: u32,
    #[pad(width = 10, fill = 0x01, align = left)]
    user: &'a str,
    #[desc_ts]
    at_ms: i64,
}

fn main() {
    let _ = Spend::scan().month.eq(202112).user.starts_with("zhang");
}
