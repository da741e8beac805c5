use rowkey::KeyPart;

#[derive(KeyPart)]
enum Never {}

fn main() {}
