use rowkey::KeyPart;

#[derive(KeyPart)]
#[rowkey(separator = "_")]
struct Id(u64);

fn main() {}
