use rowkey::KeyPart;

#[derive(KeyPart)]
struct Id<T>(T);

fn main() {}
