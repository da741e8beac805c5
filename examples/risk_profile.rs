//! Risk profile lookups: md5_hex(uid)[0..5] + uid; point gets.
//!
//! Run: `cargo run --example risk_profile`
//!
//! <!-- shown from the fixtures (ROWKEY_BLESS=1 cargo test --all-features --test it docs:: rewrites it) -->
//!
//! Defined once in `fixtures/src/layouts/lookups.rs` (the tests run it too):
//!
//! ```ignore
//! #[derive(RowKey, Debug, Clone, PartialEq)]
//! pub struct RiskProfile {
//!     #[hash_prefix(len = 5)]
//!     #[max_len(32)]
//!     pub uid: String,
//! }
//! ```
//!
//! Its queries, run below on 10,000 rows, each checked against a brute-force filter:
//!
//! ```ignore
//! RiskProfile::scan().uid.eq(&uid).plan()?
//! ```
//!
//! <!-- end of what is shown from the fixtures -->
use layouts::RiskProfile;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = RiskProfile::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &RiskProfile::splits(), RiskProfile::queries(&rows))
}
