//! The spending ledger: 120 buckets, ten per month; user U in December is one range, everyone in December ten.
//!
//! Run: `cargo run --example spending_ledger`
//!
//! <!-- shown from the fixtures (ROWKEY_BLESS=1 cargo test --all-features --test it docs:: rewrites it) -->
//!
//! Defined once in `fixtures/src/layouts/ledger.rs` (the tests run it too):
//!
//! ```ignore
//! #[derive(RowKey, Debug, Clone, PartialEq)]
//! pub struct Ledger {
//!     #[salt(buckets = 120, group_by = month, group = month_of_year, groups = 12, per_group = 10)]
//!     #[pad(width = 7)]
//!     pub month: String,
//!     #[salt]
//!     #[pad(width = 10, fill = 0x01, align = left)]
//!     pub user: String,
//!     /// `-dd hh:mm:ss`.
//!     #[pad(width = 12)]
//!     pub rest: String,
//! }
//! ```
//!
//! Its queries, run below on 10,000 rows, each checked against a brute-force filter:
//!
//! ```ignore
//! Ledger::scan().month.eq(december()).user.eq(&u).plan()?
//! Ledger::scan().month.eq(december()).plan()?
//! Ledger::scan().month.is_in(months.clone()).user.is_in(names).plan()?
//! ```
//!
//! <!-- end of what is shown from the fixtures -->
use layouts::Ledger;
use rowkey::RowKey;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = Ledger::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &Ledger::split_keys(), Ledger::queries(&rows))
}
