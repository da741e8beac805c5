use rowkey::KeyPart;

#[derive(KeyPart, Clone, Copy)]
struct Offset {
    #[bits(20)]
    second: u16,
    #[bits(4)]
    flags: u8,
}

fn main() {}
