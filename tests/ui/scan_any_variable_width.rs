use rowkey::RowKey;

#[derive(RowKey)]
struct Page {
    #[max_len(64)]
    host: String,
    status: u16,
}

fn main() {
    // The host's width varies: the status after it has no fixed offset.
    let _ = Page::scan().host.any().status.eq(404).plan();
}
