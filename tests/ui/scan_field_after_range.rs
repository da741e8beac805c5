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
    // A range ends the query: no field can follow it. rustc words this
    // error itself (a field access cannot carry a message of ours);
    // `ScanPlan`'s rustdoc and docs/queries-and-plans.md say what to do.
    let _ = Spend::scan().month.since(202101).unwrap().user.eq("zhangsan");
}
