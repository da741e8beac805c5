//! The spending ledger: 120 buckets, ten per month; user U in December is one range, everyone in December ten.
//!
//! Run: `cargo run --example spending_ledger`
use layouts::Ledger;
use rowkey::RowKey;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = Ledger::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &Ledger::split_keys(), Ledger::queries(&rows))
}
