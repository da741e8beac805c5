use rowkey::KeyPart;

#[derive(KeyPart)]
struct Point {
    x: u32,
    y: u32,
}

fn main() {}
