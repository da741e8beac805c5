use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Users {
    #[phoenix(varchr(16))]
    name: String,
}

fn main() {}
