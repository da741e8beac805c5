//! Seller trade history: salt + seller_id + ts + order_id; a seller's month is one range in one bucket.
//!
//! Run: `cargo run --example seller_trades`
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
