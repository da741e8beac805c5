//! URLs by site: reversed dot segments + path; every page of one site.
//!
//! Run: `cargo run --example site_pages`
//!
//! <!-- shown from the fixtures (ROWKEY_BLESS=1 cargo test --all-features --test it docs:: rewrites it) -->
//!
//! Defined once in `fixtures/src/layouts/activity.rs` (the tests run it too):
//!
//! ```ignore
//! #[derive(RowKey, Debug, Clone, PartialEq)]
//! pub struct SitePage {
//!     #[max_len(64)]
//!     #[reverse(segments = ".")]
//!     pub host: String,
//!     #[max_len(128)]
//!     pub path: String,
//! }
//! ```
//!
//! Its queries, run below on 10,000 rows, each checked against a brute-force filter:
//!
//! ```ignore
//! SitePage::scan().host.eq(&h).plan()?
//! ```
//!
//! <!-- end of what is shown from the fixtures -->
use layouts::SitePage;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = SitePage::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &SitePage::splits(), SitePage::queries(&rows))
}
