use rowkey::RowKey;

#[derive(RowKey)]
struct Host<'a> {
    id: u32,
    #[max_len(64)]
    #[reverse]
    domain: &'a str,
}

fn main() {}
