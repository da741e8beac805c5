//! Call records: the seed's Java salt (6 buckets, pre-split 0| .. 4|); one phone's month is one range.
//!
//! Run: `cargo run --example call_records`
//!
//! <!-- shown from the fixtures (ROWKEY_BLESS=1 cargo test --all-features --test it docs:: rewrites it) -->
//!
//! Defined once in `fixtures/src/layouts/calls.rs` (the tests run it too):
//!
//! ```ignore
//! #[derive(RowKey, Debug, Clone, PartialEq)]
//! #[rowkey(separator = "_")]
//! pub struct CallRecord {
//!     #[salt(buckets = 6, hash = call_bucket)]
//!     #[text(width = 11)]
//!     pub tel: u64,
//!     #[salt]
//!     #[text(width = 14)]
//!     pub time: u64,
//! }
//! ```
//!
//! Its queries, run below on 10,000 rows, each checked against a brute-force filter:
//!
//! ```ignore
//! CallRecord::scan().in_bucket(call_bucket_of(t, month)).tel.eq(t).time.starts_with(&month.to_string())?
//! CallRecord::scan().tel.any().time.eq(at).plan()?
//! ```
//!
//! <!-- end of what is shown from the fixtures -->
use layouts::CallRecord;
use rowkey::RowKey;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = CallRecord::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &CallRecord::split_keys(), CallRecord::queries(&rows))
}
