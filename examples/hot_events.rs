//! Hot event window: a 2-digit salt + event_id + date + offset; one event's rows come from all sixteen buckets, merged.
//!
//! Run: `cargo run --example hot_events`
use layouts::HotEvent;
use rowkey::RowKey;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = HotEvent::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &HotEvent::split_keys(), HotEvent::queries(&rows))
}
