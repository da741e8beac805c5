use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[desc_ts]
    at_s: u32,
}

fn main() {}
