use rowkey::RowKey;

#[derive(RowKey)]
struct Spend {
    #[salt(buckets = 100, group_by = month, range = 1..=12, per_group = 10)]
    user: u64,
    month: u8,
}

fn main() {}
