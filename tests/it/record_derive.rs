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

/// Issue 41: `from_row`'s error is a concrete type (`RecordError`), so
/// `?` takes it into a `Box<dyn Error>` (a `BoxError`, `Send + Sync`, was
/// not); a derived record's error says which cell, a hand-written one's
/// `?` on text, parse and decode errors gives `RecordError::Other`.
#[test]
fn from_row_errors_go_through_question_mark_into_box_dyn_error() {
    use rowkey::store::RecordError;
    use std::error::Error;
    let key = OpKey { uid: 7, at: 10 }.to_vec().unwrap();
    let bad = Row::new(key.clone(), vec![Cell::new("d", "kind", "x")]);
    let read = |row: &Row| -> Result<Op, Box<dyn Error>> { Ok(Op::from_row(row)?) };
    let e = read(&bad).unwrap_err();
    let e = e.downcast::<RecordError>().expect("a RecordError");
    assert_eq!(e.record(), Some("Op"));
    assert!(matches!(*e, RecordError::Cell { .. }), "{e}");

    /// A hand-written record whose `from_row` uses `?` on `&str`, UTF-8
    /// and number errors.
    struct Amount(u64);
    impl Record for Amount {
        type Key = OpKey;
        fn key(&self) -> OpKey {
            OpKey { uid: self.0, at: 0 }
        }
        fn cells(&self) -> Vec<Cell> {
            vec![Cell::new("d", "n", self.0.to_string())]
        }
        fn from_row(row: &Row) -> Result<Self, RecordError> {
            let _key: OpKey = row.key_as()?;
            let n = row.value("d", "n").ok_or("no d:n cell")?;
            Ok(Amount(std::str::from_utf8(n)?.parse()?))
        }
    }
    let read = |row: &Row| -> Result<u64, Box<dyn Error>> { Ok(Amount::from_row(row)?.0) };
    assert_eq!(
        read(&Row::new(key.clone(), vec![Cell::new("d", "n", "42")])).unwrap(),
        42
    );
    let e = read(&Row::new(key.clone(), vec![Cell::new("d", "m", "42")])).unwrap_err();
    assert_eq!(e.to_string(), "no d:n cell");
    let e = read(&Row::new(key, vec![Cell::new("d", "n", "4x")])).unwrap_err();
    assert_eq!(e.to_string(), "invalid digit found in string");
    let e = e.downcast::<RecordError>().unwrap();
    assert!(matches!(*e, RecordError::Other(_)) && e.record().is_none());
}

/// Issue 41: one enum as a key field and as a cell, both derived
/// (`KeyPart` for the key's byte, `CellValue` for the cell: the
/// variant's name); a newtype too. A cell that names no variant is a
/// `RecordError` naming the cell, never a panic.
#[test]
fn an_enum_is_a_key_field_and_a_cell_by_derive() {
    use rowkey::store::cell::CellValue;
    use rowkey::store::RecordError;
    #[derive(rowkey::KeyPart, rowkey::CellValue, Debug, Clone, Copy, PartialEq)]
    enum Status {
        Requested,
        Completed,
        Disputed,
    }
    #[derive(rowkey::KeyPart, rowkey::CellValue, Debug, Clone, Copy, PartialEq)]
    struct Cents(u64);
    #[derive(RowKey, Debug, PartialEq)]
    struct TripKey {
        status: Status,
        id: u64,
    }
    #[derive(Record, Debug, Clone, PartialEq)]
    #[record(key = TripKey, family = "t")]
    struct Trip {
        status: Status,
        id: u64,
        previous: Status,
        fare: Cents,
        appeal: Option<Status>,
    }
    assert_eq!(Status::Disputed.to_cell(), b"Disputed");
    assert_eq!(Status::from_cell(b"Completed").unwrap(), Status::Completed);
    assert_eq!(Cents(1250).to_cell(), 1250u64.to_cell());
    let trip = Trip {
        status: Status::Disputed,
        id: 9,
        previous: Status::Completed,
        fare: Cents(1250),
        appeal: Some(Status::Requested),
    };
    let key = trip.key();
    assert_eq!(
        key.to_vec().unwrap()[0],
        2,
        "the key holds the variant's index"
    );
    let row = Row::new(key.to_vec().unwrap(), trip.cells());
    assert!(row.cells.contains(&Cell::new("t", "previous", "Completed")));
    assert_eq!(Trip::from_row(&row).unwrap(), trip);
    let bad = Row::new(
        key.to_vec().unwrap(),
        vec![
            Cell::new("t", "previous", "Lost"),
            Cell::new("t", "fare", 1u64.to_be_bytes()),
        ],
    );
    let e = Trip::from_row(&bad).unwrap_err();
    assert!(
        matches!(&e, RecordError::Cell { family, .. } if family == "t"),
        "{e}"
    );
    assert!(e.to_string().contains("cell t:previous"), "{e}");
    assert!(e.to_string().contains("no variant of Status"), "{e}");
}
