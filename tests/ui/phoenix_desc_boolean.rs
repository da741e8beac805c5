use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Flags {
    id: i64,
    #[desc]
    on: bool,
}

fn main() {}
