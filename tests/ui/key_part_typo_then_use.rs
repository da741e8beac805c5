use rowkey::{KeyPart, RowKey};

#[derive(KeyPart)]
#[rowkey(crat = "rowkey")]
enum Status {
    Open = 0,
    Closed = 1,
}

#[derive(RowKey)]
struct Order {
    status: Status,
    id: u64,
}

fn main() {
    let _ = Order { status: Status::Open, id: 1 }.to_key();
}
