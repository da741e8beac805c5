use rowkey::RowKey;

#[derive(RowKey)]
struct Row {
    index: usize,
}

fn main() {}
