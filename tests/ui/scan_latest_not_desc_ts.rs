use rowkey::RowKey;

#[derive(RowKey)]
struct Op {
    uid: u64,
    seq: u32,
}

fn main() {
    let _ = Op::scan().uid(7).seq_latest();
}
