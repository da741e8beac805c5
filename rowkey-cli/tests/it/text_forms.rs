//! Text-form fields (`#[text(format)]`, a UUID's and a decimal's `#[text]`)
//! through the layout-driven decoder and encoder: the layout survives
//! JSON, every key decodes to the text it holds and encodes back, and on
//! damaged keys the layout decoder and the derived one agree.

use crate::support;

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
fn decodes_to_values_as_people_write_them() {
    let at = DateTime::from_timestamp_millis(1_638_360_000_123).unwrap();
    let row = Texts {
        month: at.naive_utc(),
        at,
        id: Uuid::from_u128(0xab),
        price: Decimal::new(125, 1),
    };
    let layout = via_json::<Texts>();
    let key = row.to_vec().unwrap();
    let d = layout.decode_key(&key).unwrap();
    let shown = |f: &str| d.get(f).unwrap().to_string();
    // `%Y-%m` keeps the month: the 1st, midnight.
    assert_eq!(shown("month"), "2021-12-01T00:00:00");
    assert_eq!(shown("at"), "2021-12-01T12:00:00.123Z");
    assert_eq!(shown("id"), "00000000-0000-0000-0000-0000000000ab");
    assert_eq!(shown("price"), "12.50");
    // The month may also be given as the text the key holds.
    let by_text = layout
        .parse_assignments(&[
            "month=2021-12",
            "at=2021-12-01T12:00:00.123Z",
            "id=00000000-0000-0000-0000-0000000000ab",
            "price=12.5",
        ])
        .unwrap();
    assert_eq!(layout.encode_key(&by_text, None).unwrap(), key);
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
