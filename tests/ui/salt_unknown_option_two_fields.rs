use rowkey::RowKey;

// One typo, one error: not a second "a salt needs a bucket count" at the
// other salted field.
#[derive(RowKey)]
struct Event {
    #[salt(bucket = 32)]
    device: u64,
    #[salt]
    id: u64,
}

fn main() {}
