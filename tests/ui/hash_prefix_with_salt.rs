use rowkey::RowKey;

#[derive(RowKey)]
struct Profile {
    #[salt(buckets = 16)]
    id: u64,
    #[hash_prefix(len = 6)]
    #[max_len(32)]
    uid: String,
}

fn main() {}
