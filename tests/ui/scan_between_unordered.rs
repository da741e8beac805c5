use rowkey::RowKey;

#[derive(RowKey)]
struct Site {
    #[max_len(64)]
    #[reverse(segments = ".")]
    host: String,
    #[max_len(256)]
    path: String,
}

fn main() {
    let _ = Site::scan().host.between("a.com", "b.com");
}
