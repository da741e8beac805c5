//! Connected car telemetry: md5_hex(car_id)[0..6] + car_id + ts; one car's hour.
//!
//! Run: `cargo run --example car_telemetry`
//!
//! <!-- shown from the fixtures (ROWKEY_BLESS=1 cargo test --all-features --test it docs:: rewrites it) -->
//!
//! Defined once in `fixtures/src/layouts/lookups.rs` (the tests run it too):
//!
//! ```ignore
//! #[derive(RowKey, Debug, Clone, PartialEq)]
//! pub struct CarTelemetry {
//!     #[hash_prefix(len = 6)]
//!     #[pad(width = 17)]
//!     pub car_id: String,
//!     #[text(width = 13)]
//!     pub ts: u64,
//! }
//! ```
//!
//! Its queries, run below on 10,000 rows, each checked against a brute-force filter:
//!
//! ```ignore
//! CarTelemetry::scan().car_id.eq(&car).ts.range(hour)?
//! ```
//!
//! <!-- end of what is shown from the fixtures -->
use layouts::CarTelemetry;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = CarTelemetry::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &CarTelemetry::splits(), CarTelemetry::queries(&rows))
}
