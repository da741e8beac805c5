use rowkey::RowKey;

#[derive(RowKey)]
struct Op {
    uid: u64,
    seq: u32,
}

fn main() {
    let _ = Op::scan().uid.eq(7).seq.latest(1);
}
