//! Order status, newest first: `reverse(user_id) + (Long.MAX_VALUE - ts)`.
//!
//! Run: `cargo run --example order_status`
use layouts::OrderStatus;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = OrderStatus::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &OrderStatus::splits(), OrderStatus::queries(&rows))
}
