use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[desc_ts]
    at: String,
}

fn main() {}
