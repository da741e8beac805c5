use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[desc_ts]
    #[text(width = 10)]
    at_ms: i64,
}

fn main() {}
