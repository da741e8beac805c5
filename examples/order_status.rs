//! Order status, newest first: `reverse(user_id) + (Long.MAX_VALUE - ts)`.
//!
//! Run: `cargo run --example order_status`
mod layouts;
mod show;
use layouts::OrderStatus;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = OrderStatus::rows(10_000);
    show::layout(&rows, &OrderStatus::splits(), OrderStatus::queries(&rows))
}
