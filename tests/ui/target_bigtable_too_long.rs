use rowkey::RowKey;

// Escaped text takes up to 2 * 2100 + 2 bytes: more than Bigtable's 4 KiB.
#[derive(RowKey)]
#[rowkey(target = "bigtable")]
struct Page {
    #[max_len(2100)]
    path: String,
    seq: u32,
}

fn main() {}
