use rowkey::RowKey;

#[derive(RowKey)]
struct Spend {
    #[salt(buckets = 120, group_by = mnth, range = 1..=12, per_group = 10)]
    user: u64,
    month: u8,
}

fn main() {}
