//! Call records: the seed's Java salt (6 buckets, pre-split 0| .. 4|); one phone's month is one range.
//!
//! Run: `cargo run --example call_records`
use layouts::CallRecord;
use rowkey::RowKey;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = CallRecord::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &CallRecord::split_keys(), CallRecord::queries(&rows))
}
