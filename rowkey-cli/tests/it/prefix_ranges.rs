//! `Layout::prefix_ranges` (what the CLI's `scan` reads for the values of
//! a key's first fields) against brute force on every seed layout and the
//! IoT layouts: for the first `k` values of sample keys, the keys in its
//! ranges are exactly the keys whose first `k` fields hold those values
//! (a hash prefix whose field is not given reads the whole table, and the
//! caller compares).

use crate::support::via_json;
use rowkey::layout::dynamic::{KeyRangeBytes, Value};
use rowkey::{DecodeKeyOwned, RowKey};
use std::fmt::Debug;

fn in_ranges(ranges: &[KeyRangeBytes], key: &[u8]) -> bool {
    ranges.iter().any(|(start, stop)| {
        key >= start.as_slice() && stop.as_ref().is_none_or(|s| key < s.as_slice())
    })
}

fn run<T: RowKey + DecodeKeyOwned + Debug>(rows: &[T]) {
    let layout = via_json::<T>();
    let keys: Vec<Vec<u8>> = rows.iter().map(|r| r.to_vec().unwrap()).collect();
    let values: Vec<Vec<Value>> = keys
        .iter()
        .map(|k| layout.decode_key(k).unwrap().values())
        .collect();
    for sample in values.iter().step_by(37) {
        for k in 0..=layout.fields.len() {
            let given = &sample[..k];
            let ranges = layout
                .prefix_ranges(given)
                .unwrap_or_else(|e| panic!("{}: {k} fields: {e}", layout.name));
            assert!(
                ranges.windows(2).all(|w| w[0].0 < w[1].0),
                "{}: sorted",
                layout.name
            );
            let whole_table = ranges == [(Vec::new(), None)];
            for (key, vals) in keys.iter().zip(&values) {
                let matches = &vals[..k] == given;
                let inside = in_ranges(&ranges, key);
                assert!(
                    !matches || inside,
                    "{}: {k} fields {given:?}: {key:?} matches but is outside {ranges:?}",
                    layout.name
                );
                assert!(
                    matches || !inside || whole_table,
                    "{}: {k} fields {given:?}: {key:?} is inside but does not match",
                    layout.name
                );
            }
        }
    }
}

#[test]
fn prefix_ranges_hold_exactly_the_keys_of_their_values() {
    struct Exact;
    impl crate::support::SeedCheck for Exact {
        fn run<T: RowKey + DecodeKeyOwned + Debug>(&mut self, rows: &[T]) {
            run(rows);
        }
    }
    crate::support::each_seed_layout(400, &mut Exact);
}
