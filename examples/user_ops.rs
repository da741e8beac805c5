//! Latest user operations: uid + (Long.MAX_VALUE - ts); the latest N and a time window.
//!
//! Run: `cargo run --example user_ops`
//!
//! <!-- shown from the fixtures (ROWKEY_BLESS=1 cargo test --all-features --test it docs:: rewrites it) -->
//!
//! Defined once in `fixtures/src/layouts/activity.rs` (the tests run it too):
//!
//! ```ignore
//! #[derive(RowKey, Debug, Clone, PartialEq)]
//! pub struct UserOp {
//!     pub uid: u64,
//!     #[desc_ts]
//!     pub at: i64,
//!     #[max_len(16)]
//!     pub op: String,
//! }
//! ```
//!
//! Its queries, run below on 10,000 rows, each checked against a brute-force filter:
//!
//! ```ignore
//! UserOp::scan().uid.eq(u).plan()?
//! UserOp::scan().uid.eq(u).at.between(t1, t2)?
//! ```
//!
//! <!-- end of what is shown from the fixtures -->
use layouts::UserOp;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = UserOp::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &UserOp::splits(), UserOp::queries(&rows))
}
