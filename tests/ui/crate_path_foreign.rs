// `#[rowkey(crate = "..")]` names the path to the rowkey facade; pointing it
// at another crate is one error at the attribute.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(crate = "std")]
struct Key {
    id: u64,
}

fn main() {}
