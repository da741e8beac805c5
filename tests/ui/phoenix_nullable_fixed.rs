use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Orders {
    #[max_len(16)]
    customer: String,
    placed: Option<i64>,
}

fn main() {}
