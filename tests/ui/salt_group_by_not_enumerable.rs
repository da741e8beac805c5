use rowkey::RowKey;

#[derive(RowKey)]
struct Spend {
    #[salt(buckets = 120, group_by = region, per_group = 10)]
    user: u64,
    #[max_len(8)]
    region: String,
}

fn main() {}
