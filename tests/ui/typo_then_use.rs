use rowkey::RowKey;

#[derive(RowKey)]
struct Spend<'a> {
    #[text(widht = 6)]
    month: u32,
    #[pad(width = 10, fill = 0x01, align = left)]
    user: &'a str,
    #[desc_ts]
    at_ms: i64,
}

fn main() {
    // One mistake, one error: the uses below add none.
    let s = Spend { month: 202112, user: "zhangsan", at_ms: 0 };
    let key = s.to_key().unwrap();
    let _ = Spend::decode(&key);
    let _ = Spend::scan().month.eq(202112).user.eq("zhangsan").plan();
    let _ = Spend::scan().month.eq(202112).user.starts_with("zh");
    let _ = Spend::scan().month.eq(202112).user.eq("zhangsan").at_ms.latest(20);
}
