use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Users {
    #[phoenix(integer)]
    id: String,
}

fn main() {}
