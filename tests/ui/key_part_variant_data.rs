use rowkey::KeyPart;

#[derive(KeyPart)]
enum Kind {
    Click,
    View(u32),
    Buy { amount: u64 },
}

fn main() {}
