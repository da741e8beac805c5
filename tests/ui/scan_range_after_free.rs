use rowkey::RowKey;

#[derive(RowKey)]
struct Reading {
    device: u32,
    metric: u16,
    #[desc_ts]
    at_ms: i64,
}

fn main() {
    // A fuzzy filter fixes bytes or leaves them free: no range after `any`.
    let _ = Reading::scan().device.any().metric.eq(3).at_ms.between(0, 10);
}
