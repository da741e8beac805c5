use rowkey::RowKey;

#[derive(RowKey)]
struct User<'a> {
    #[max_len(8)]
    name: &'a str,
    id: u32,
}

fn main() {}
