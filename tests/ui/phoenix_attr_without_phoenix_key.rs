use rowkey::RowKey;

#[derive(RowKey)]
struct Users {
    #[phoenix(integer)]
    id: i32,
}

fn main() {}
