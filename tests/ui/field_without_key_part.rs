use rowkey::RowKey;

struct Region {
    code: u16,
}

#[derive(RowKey)]
struct Shop {
    region: Region,
    id: u32,
}

fn main() {}
