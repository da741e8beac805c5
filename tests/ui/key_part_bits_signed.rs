use rowkey::KeyPart;

#[derive(KeyPart, Clone, Copy)]
struct Offset {
    #[bits(12)]
    second: i16,
    #[bits(4)]
    flags: u8,
}

fn main() {}
