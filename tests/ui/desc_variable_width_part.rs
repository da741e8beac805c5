use rowkey::{KeyPart, RowKey};

#[derive(KeyPart)]
struct MaybeId(Option<u32>);

#[derive(RowKey)]
struct Session {
    #[desc]
    id: MaybeId,
}

fn main() {}
