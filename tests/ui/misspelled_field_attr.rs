use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[desc_tz]
    at_ms: i64,
}

fn main() {}
