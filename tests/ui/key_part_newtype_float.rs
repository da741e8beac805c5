use rowkey::KeyPart;

#[derive(KeyPart)]
struct Ratio(f64);

fn main() {}
