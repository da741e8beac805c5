//! Seller trade history: salt + seller_id + ts + order_id; a seller's month is one range in one bucket.
//!
//! Run: `cargo run --example seller_trades`
mod layouts;
mod show;
use layouts::{SellerTrade, Trade};
use rowkey::RowKey;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let trades = Trade::rows(10_000);
    let rows: Vec<SellerTrade> = trades.iter().map(Trade::seller_key).collect();
    show::layout(
        &rows,
        &SellerTrade::split_keys(),
        SellerTrade::queries(&trades),
    )
}
