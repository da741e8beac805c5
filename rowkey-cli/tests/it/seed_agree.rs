//! The layout-driven decoder and encoder on every seed layout and the IoT
//! layouts (rowkey-fixtures), fed by their generators: they agree with the
//! derived code on every key and on every key's neighbours.

use crate::support;

use rowkey::{DecodeKeyOwned, RowKey};
use rowkey_fixtures::layouts::*;
use std::fmt::Debug;
use support::{check_bytes, check_value, neighbours, via_json};

fn run<T: RowKey + DecodeKeyOwned + Debug>(rows: &[T]) {
    let layout = via_json::<T>();
    for (i, row) in rows.iter().enumerate() {
        check_value(layout, row);
        if i % 50 == 0 {
            for k in neighbours(&row.to_vec().unwrap()) {
                check_bytes::<T>(layout, &k);
            }
        }
    }
}

#[test]
fn seed_layouts_agree_with_derived_code() {
    struct Agree;
    impl support::SeedCheck for Agree {
        fn run<T: RowKey + DecodeKeyOwned + Debug>(&mut self, rows: &[T]) {
            run(rows);
        }
    }
    support::each_seed_layout(500, &mut Agree);
}

#[test]
fn checked_in_layouts_are_the_current_ones() {
    for layout in seed_layouts().into_iter().chain(iot_layouts()) {
        let path = format!(
            "{}/tests/layouts/{}.json",
            env!("CARGO_MANIFEST_DIR"),
            layout.name
        );
        let file = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            file,
            serde_json::to_string_pretty(layout).unwrap() + "\n",
            "{path} is stale: cargo run -p rowkey-cli --example export_layout -- --all rowkey-cli/tests/layouts"
        );
        assert_eq!(rowkey::Layout::from_json(&file).unwrap(), layout);
    }
}
