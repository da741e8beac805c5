use rowkey::KeyPart;

#[derive(KeyPart, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Error = 3,
    Warn = 2,
    Info = 1,
}

fn main() {}
