//! Text-form fields (`#[text(format)]`, a UUID's and a decimal's `#[text]`)
//! through the layout-driven decoder and encoder: the layout survives
//! JSON, every key decodes to the text it holds and encodes back, and on
//! damaged keys the layout decoder and the derived one agree.

mod support;

use chrono::{DateTime, NaiveDateTime, Utc};
use proptest::prelude::*;
use rowkey::RowKey;
use rust_decimal::Decimal;
use support::{check_bytes, check_value, neighbours, via_json};
use uuid::Uuid;

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(separator = "|")]
struct Texts {
    #[text(format = "%Y-%m")]
    month: NaiveDateTime,
    #[text(format = "%F %T.%3f")]
    at: DateTime<Utc>,
    #[text]
    id: Uuid,
    #[text(width = 8, scale = 2)]
    price: Decimal,
}

#[test]
fn decodes_to_the_stored_text() {
    let at = DateTime::from_timestamp_millis(1_638_360_000_123).unwrap();
    let row = Texts {
        month: at.naive_utc(),
        at,
        id: Uuid::from_u128(0xab),
        price: Decimal::new(125, 1),
    };
    let layout = via_json::<Texts>();
    let key = row.to_vec().unwrap();
    let d = rowkey_cli::decode::decode(layout, &key).unwrap();
    let shown = format!("{:?}", d.values());
    assert!(shown.contains("2021-12-01 12:00:00.123"), "{shown}");
    assert!(
        shown.contains("00000000-0000-0000-0000-0000000000ab"),
        "{shown}"
    );
    assert!(shown.contains("00012.50"), "{shown}");
    check_value(layout, &row);
    assert!(layout.explain().contains("format \"%Y-%m\""));
}

proptest! {
    #[test]
    fn layout_decoder_agrees_with_derived(ms in 0i64..253_402_300_799_000, id: u128, cents in 0i64..9_999_999) {
        let at = DateTime::from_timestamp_millis(ms).unwrap();
        let row = Texts { month: at.naive_utc(), at, id: Uuid::from_u128(id), price: Decimal::new(cents, 2) };
        let layout = via_json::<Texts>();
        check_value(layout, &row);
        for k in neighbours(&row.to_vec().unwrap()) {
            check_bytes::<Texts>(layout, &k);
        }
    }
}
