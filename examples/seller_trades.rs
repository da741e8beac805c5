//! Seller trade history: salt + seller_id + ts + order_id; a seller's month is one range in one bucket.
//!
//! Run: `cargo run --example seller_trades`
//!
//! <!-- shown from the fixtures (ROWKEY_BLESS=1 cargo test --all-features --test it docs:: rewrites it) -->
//!
//! Defined once in `fixtures/src/layouts/trades.rs` (the tests run it too):
//!
//! ```ignore
//! /// One trade: what both keys are built from. Stored as a row of the
//! /// seller table, its buyer in the cell `d:buyer`.
//! #[derive(Debug, Clone, PartialEq)]
//! pub struct Trade {
//!     pub seller_id: u32,
//!     pub buyer_id: u32,
//!     pub ts: u64,
//!     pub order_id: u64,
//! }
//!
//! #[derive(RowKey, Debug, Clone, PartialEq)]
//! pub struct SellerTrade {
//!     #[salt(buckets = 8)]
//!     #[text(width = 8)]
//!     pub seller_id: u32,
//!     #[text(width = 13)]
//!     pub ts: u64,
//!     #[text(width = 10)]
//!     pub order_id: u64,
//! }
//! ```
//!
//! Its queries, run below on 10,000 rows, each checked against a brute-force filter:
//!
//! ```ignore
//! SellerTrade::scan().seller_id.eq(s).ts.range(month)?
//! ```
//!
//! <!-- end of what is shown from the fixtures -->
use layouts::{SellerTrade, Trade};
use rowkey::RowKey;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let trades = Trade::rows(10_000);
    let rows: Vec<SellerTrade> = trades.iter().map(Trade::seller_key).collect();
    rowkey_fixtures::show::layout(
        &rows,
        &SellerTrade::split_keys(),
        SellerTrade::queries(&trades),
    )
}
