//! Buyer trade history: a second key over the same trades, buyer_id + ts + order_id (a secondary index table).
//!
//! Run: `cargo run --example buyer_trades`
mod layouts;
mod show;
use layouts::{BuyerTrade, Trade};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let trades = Trade::rows(10_000);
    let rows: Vec<BuyerTrade> = trades.iter().map(Trade::buyer_key).collect();
    show::layout(
        &rows,
        &rowkey::split::SplitKeys::decimal_string(8),
        BuyerTrade::queries(&trades),
    )
}
