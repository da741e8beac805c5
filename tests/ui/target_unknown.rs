use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(target = "cassandra")]
struct Page {
    seq: u32,
}

fn main() {}
