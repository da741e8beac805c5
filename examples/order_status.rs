//! Order status, newest first: `reverse(user_id) + (Long.MAX_VALUE - ts)`.
//!
//! Run: `cargo run --example order_status`
//!
//! <!-- shown from the fixtures (ROWKEY_BLESS=1 cargo test --all-features --test it docs:: rewrites it) -->
//!
//! Defined once in `fixtures/src/layouts/events.rs` (the tests run it too):
//!
//! ```ignore
//! #[derive(RowKey, Debug, Clone, PartialEq)]
//! pub struct OrderStatus {
//!     #[text(width = 11)]
//!     #[reverse]
//!     pub user_id: u64,
//!     #[desc_ts]
//!     pub ts: i64,
//!     #[text(width = 8)]
//!     pub order_id: u32,
//! }
//! ```
//!
//! Its queries, run below on 10,000 rows, each checked against a brute-force filter:
//!
//! ```ignore
//! OrderStatus::scan().user_id.eq(u).ts.latest(1)?
//! OrderStatus::scan().user_id.eq(u).ts.between(t1, t2)?
//! OrderStatus::scan().user_id.eq(u).plan()?
//! OrderStatus::scan().user_id.is_in(users.clone()).ts.between(t1, t2)?
//! OrderStatus::scan().user_id.any().ts.any().order_id.eq(42).plan()?
//! ```
//!
//! <!-- end of what is shown from the fixtures -->
use layouts::OrderStatus;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = OrderStatus::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &OrderStatus::splits(), OrderStatus::queries(&rows))
}
