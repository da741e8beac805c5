use rowkey::RowKey;

#[derive(RowKey)]
struct Wrapper<T> {
    id: u32,
    value: T,
}

fn main() {}
