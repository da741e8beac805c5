use rowkey::KeyPart;

#[derive(KeyPart, Clone, Copy)]
struct Offset {
    #[bits(12)]
    second: u16,
    flags: u8,
}

fn main() {}
