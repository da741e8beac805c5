use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    tenant: u32,
    #[hash_prefix(len = 4)]
    #[max_len(16)]
    user: String,
}

fn main() {
    let _ = Event::scan();
}
