use rowkey::KeyPart;

const BASE: isize = 10;

#[derive(KeyPart)]
enum Level {
    Low = BASE,
    High,
}

fn main() {}
