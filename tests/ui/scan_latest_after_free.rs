use rowkey::RowKey;

#[derive(RowKey)]
struct Reading {
    device: u32,
    metric: u16,
    #[desc_ts]
    at_ms: i64,
}

fn main() {
    // A range after `any` filters the rows read (allowed); `latest` would
    // need the newest rows across every device, which no scan order gives.
    let _ = Reading::scan().device.any().metric.eq(3).at_ms.latest(10);
}
