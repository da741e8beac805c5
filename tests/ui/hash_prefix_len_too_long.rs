use rowkey::RowKey;

#[derive(RowKey)]
struct Profile {
    #[hash_prefix(len = 33)]
    #[max_len(32)]
    uid: String,
}

fn main() {}
