use rowkey::RowKey;

#[derive(RowKey)]
enum Event {
    Click { at: i64 },
    View(u32),
}

fn main() {}
