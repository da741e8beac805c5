//! Buyer trade history: a second key over the same trades, buyer_id + ts + order_id (a secondary index table).
//!
//! A trade is a `Record` stored in the seller table; `BuyerTrade` is
//! `#[rowkey(index_of = Trade)]`, its fields taken from the trade (the
//! buyer is not in the seller key). `IndexedStore` writes both rows and
//! joins a buyer's index rows back to the seller table.
//!
//! Run: `cargo run --example buyer_trades`
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
//! /// The secondary index: the same trades by buyer, each field taken from
//! /// the trade.
//! #[derive(RowKey, Debug, Clone, PartialEq)]
//! #[rowkey(index_of = Trade)]
//! pub struct BuyerTrade {
//!     #[text(width = 8)]
//!     pub buyer_id: u32,
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
//! BuyerTrade::scan().buyer_id.eq(b).ts.range(month)?
//! ```
//!
//! <!-- end of what is shown from the fixtures -->
use layouts::{BuyerTrade, Trade};
use rowkey::store::blocking::IndexedMemStore;
use rowkey::store::{IndexedStore, MemStore};
use rowkey::IndexOf;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let trades = Trade::rows(10_000);
    let rows: Vec<BuyerTrade> = trades.iter().map(BuyerTrade::index_key).collect();
    rowkey_fixtures::show::layout(
        &rows,
        &rowkey::split::SplitKeys::decimal_string(8),
        BuyerTrade::queries(&trades),
    )?;

    // The seller table and the buyer index, written through the record.
    let store = IndexedMemStore::new(IndexedStore::new(MemStore::new(), MemStore::new()));
    for trade in &trades {
        store.put_record::<BuyerTrade, _>(trade)?;
    }
    let buyer = trades[0].buyer_id;
    let plan = BuyerTrade::scan()
        .buyer_id
        .eq(buyer)
        .ts
        .range(Trade::month(3))?;
    let mut found = store.query_records::<BuyerTrade, Trade, _>(&plan);
    println!("buyer {buyer}'s 4th month, joined to the seller table:");
    for trade in found.by_ref().take(5) {
        println!("  {:?}", trade?);
    }
    found.by_ref().try_for_each(|t| t.map(drop))?;
    println!("  {:?}", found.stats());

    // The buyer of one trade changes: the index row moves with it.
    let mut moved = trades[0].clone();
    moved.buyer_id = 9_999;
    store.update_record::<BuyerTrade, _>(&moved)?;
    let plan = BuyerTrade::scan().buyer_id.eq(9_999).plan()?;
    let now: Vec<Trade> = store
        .query_records::<BuyerTrade, _, _>(&plan)
        .collect::<Result<_, _>>()?;
    println!("after the buyer changed: buyer 9999 has {now:?}");
    Ok(())
}
