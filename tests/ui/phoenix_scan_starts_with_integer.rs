use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Orders {
    #[max_len(16)]
    customer: String,
    placed: i64,
}

fn main() {
    let _ = Orders::scan().customer.eq("ann").placed.starts_with("17");
}
