use rowkey::RowKey;

#[derive(RowKey)]
struct Op {
    uid: u64,
    seq: u32,
}

fn main() {
    let _ = Op::scan().uid.is_in([1, 2]).seq.eq(3).key();
}
