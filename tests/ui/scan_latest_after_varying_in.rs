use rowkey::RowKey;

#[derive(RowKey)]
struct Reading {
    #[max_len(32)]
    device: String,
    #[desc_ts]
    at_ms: i64,
}

fn main() {
    // Devices of different lengths put `at_ms` at a different byte in
    // each key: there is nothing to merge the newest rows by.
    let _ = Reading::scan().device.is_in(["a", "bc"]).at_ms.latest(10);
}
