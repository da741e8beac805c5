use rowkey::RowKey;

#[derive(RowKey)]
union Id {
    a: u32,
    b: i32,
}

fn main() {}
