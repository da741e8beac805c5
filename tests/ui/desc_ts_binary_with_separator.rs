use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(separator = "_")]
struct Event {
    #[text(width = 6)]
    month: u32,
    #[desc_ts]
    at_ms: i64,
}

fn main() {}
