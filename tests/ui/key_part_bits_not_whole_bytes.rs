use rowkey::KeyPart;

#[derive(KeyPart, Clone, Copy)]
struct Offset {
    #[bits(12)]
    second: u16,
    #[bits(3)]
    flags: u8,
}

fn main() {}
