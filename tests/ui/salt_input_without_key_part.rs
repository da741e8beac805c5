use rowkey::RowKey;

struct Region {
    code: u16,
}

// A salted field whose type is not a key part: the errors are the ones
// any field of that type gives (at the field), none from the salt or the
// scan builder.
#[derive(RowKey)]
struct Shop {
    #[salt(buckets = 8, binary)]
    region: Region,
    id: u32,
}

fn main() {}
