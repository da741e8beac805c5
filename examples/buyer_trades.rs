//! Buyer trade history: a second key over the same trades, buyer_id + ts + order_id (a secondary index table).
//!
//! Run: `cargo run --example buyer_trades`
use layouts::{BuyerTrade, Trade};
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let trades = Trade::rows(10_000);
    let rows: Vec<BuyerTrade> = trades.iter().map(Trade::buyer_key).collect();
    rowkey_fixtures::show::layout(
        &rows,
        &rowkey::split::SplitKeys::decimal_string(8),
        BuyerTrade::queries(&trades),
    )
}
