use rowkey::RowKey;

#[derive(RowKey)]
struct Visit {
    #[text(format = "%Y%m")]
    month: u32,
}

fn main() {}
