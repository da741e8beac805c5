use rowkey::RowKey;

#[derive(RowKey)]
struct Host {
    #[max_len(64)]
    #[reverse(segments = ".")]
    #[desc]
    domain: String,
}

fn main() {}
