use rowkey::RowKey;

#[derive(RowKey)]
struct Op {
    uid: u64,
    #[desc_ts]
    at: i64,
}

fn main() {
    let _ = Op::scan().uid.starts_with("42");
}
