//! Hot event window: a 2-digit salt + event_id + date + offset; one event's rows come from all sixteen buckets, merged.
//!
//! Run: `cargo run --example hot_events`
//!
//! <!-- shown from the fixtures (ROWKEY_BLESS=1 cargo test --all-features --test it docs:: rewrites it) -->
//!
//! Defined once in `fixtures/src/layouts/events.rs` (the tests run it too):
//!
//! ```ignore
//! #[derive(RowKey, Debug, Clone, PartialEq)]
//! pub struct HotEvent {
//!     #[text(width = 6)]
//!     pub event_id: u32,
//!     #[text(width = 8)]
//!     pub date: u32,
//!     /// The salt hashes the Kafka offset: one event's rows spread over all
//!     /// sixteen buckets (two digits, `00`..`15`).
//!     #[salt(buckets = 16)]
//!     #[text(width = 12)]
//!     pub offset: u64,
//! }
//! ```
//!
//! Its queries, run below on 10,000 rows, each checked against a brute-force filter:
//!
//! ```ignore
//! HotEvent::scan().event_id.eq(e).plan()?
//! HotEvent::scan().event_id.eq(e).date.eq(d).plan()?
//! HotEvent::scan().event_id.is_in(events).date.is_in(dates).plan()?
//! HotEvent::scan().event_id.any().date.eq(d).plan()?
//! ```
//!
//! <!-- end of what is shown from the fixtures -->
use layouts::HotEvent;
use rowkey::RowKey;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = HotEvent::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &HotEvent::split_keys(), HotEvent::queries(&rows))
}
