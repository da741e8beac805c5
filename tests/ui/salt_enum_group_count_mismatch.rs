use rowkey::{KeyPart, RowKey};

#[derive(KeyPart)]
enum Quarter {
    Q1,
    Q2,
    Q3,
    Q4,
}

#[derive(RowKey)]
struct Report {
    #[salt(buckets = 10, group_by = quarter, per_group = 2)]
    id: u64,
    quarter: Quarter,
}

fn main() {}
