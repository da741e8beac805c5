//! `#[derive(Record)]` quick check (grows into the full suite).

use rowkey::store::{Cell, Record, Row};
use rowkey::{Record, RowKey};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct OpKey {
    uid: u64,
    #[desc_ts]
    at: i64,
}

#[derive(Record, Debug, Clone, PartialEq)]
#[record(key = OpKey, family = "d")]
struct Op {
    uid: u64,
    at: i64,
    kind: String,
    #[cell(qualifier = "amt")]
    amount: f64,
    note: Option<String>,
    #[cell(skip)]
    cached: u32,
}

#[test]
fn roundtrip() {
    let op = Op {
        uid: 7,
        at: 10,
        kind: "login".into(),
        amount: 2.5,
        note: None,
        cached: 0,
    };
    let key = op.key();
    assert_eq!(key, OpKey { uid: 7, at: 10 });
    let cells = op.cells();
    assert_eq!(
        cells,
        vec![
            Cell::new("d", "kind", "login"),
            Cell::new("d", "amt", 2.5f64.to_be_bytes())
        ]
    );
    let row = Row::new(key.to_vec().unwrap(), cells);
    assert_eq!(Op::from_row(&row).unwrap(), op);
    assert_eq!(
        format!("{:?}", Op::columns().unwrap()),
        "[d:amt, d:kind, d:note]"
    );
    let bad = Row::new(key.to_vec().unwrap(), vec![Cell::new("d", "kind", "x")]);
    let e = Op::from_row(&bad).unwrap_err();
    assert!(e.to_string().contains("cell d:amt"), "{e}");
}
