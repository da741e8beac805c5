use rowkey::{KeyPart, RowKey};

#[derive(KeyPart)]
struct UserId(u64);

#[derive(RowKey)]
#[rowkey(max_len = 4)]
struct Session {
    user: UserId,
}

fn main() {}
