//! `#[derive(Record)] #[record(key = K, phoenix)]`: a Phoenix table's
//! row as a struct, its cells Phoenix's (qualifiers, value bytes, the
//! empty column, NULL as no cell). Checked against a live Phoenix in
//! `rowkey-hbase/tests/phoenix/`.

use futures::executor::block_on;
use proptest::prelude::*;
use rowkey::codec::phoenix::double_bytes;
use rowkey::store::{Cell, MemStore, Record, Row, StoreError, StoreExt};
use rowkey::{EncodeErrorKind, RowKey};
use rowkey_fixtures::layouts::{PhoenixMetric, PhoenixMetricRow};

fn row(v: Option<f64>, note: Option<&str>, seen: Option<i64>) -> PhoenixMetricRow {
    PhoenixMetricRow {
        host: "web-01".into(),
        metric: 7,
        at: 1_700_000_000_000,
        v,
        note: note.map(str::to_owned),
        seen,
    }
}

#[test]
fn cells_are_at_phoenix_qualifiers_with_the_empty_column() {
    let r = row(Some(1.5), Some("hi"), Some(-1));
    assert_eq!(
        r.try_cells().unwrap(),
        [
            // The empty column first: every Phoenix row has it, so
            // `put_record_if_absent` tests it.
            Cell::new("0", [0, 0, 0, 0], "x"),
            Cell::new("0", [0x80, 0x0b], double_bytes(1.5)),
            Cell::new("0", [0x80, 0x0c], "hi"),
            // DATE: the millisecond count, sign bit flipped.
            Cell::new(
                "0",
                [0x80, 0x0d],
                [0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
            ),
        ]
    );
    assert_eq!(r.to_key().unwrap().as_ref(), r.key().to_vec().unwrap());
    // NULLs: no cell; the empty column is written all the same.
    let nulls = row(None, None, None);
    assert_eq!(nulls.cells(), [Cell::new("0", [0, 0, 0, 0], "x")]);
    let columns = PhoenixMetricRow::columns().unwrap();
    let named: Vec<(String, Vec<u8>)> = columns
        .iter()
        .map(|(f, q)| (f.to_owned(), q.to_vec()))
        .collect();
    assert_eq!(
        named,
        [
            ("0".into(), vec![0, 0, 0, 0]),
            ("0".into(), vec![0x80, 0x0b]),
            ("0".into(), vec![0x80, 0x0c]),
            ("0".into(), vec![0x80, 0x0d]),
        ]
    );
}

#[test]
fn a_record_reads_back_and_a_null_clears_the_stored_cell() {
    let store = MemStore::new();
    let full = row(Some(2.25), Some("é Ω"), Some(1_700_000_000_123));
    block_on(store.put_record(&full)).unwrap();
    let key = full.key();
    assert_eq!(
        block_on(store.get_record::<PhoenixMetricRow>(&key)).unwrap(),
        Some(full.clone())
    );
    // Phoenix's UPSERT of NULL into a mutable table deletes the column:
    // the record's write clears it.
    let nulls = row(None, None, None);
    block_on(store.put_record(&nulls)).unwrap();
    let stored = block_on(store.read_row(&key.to_vec().unwrap()))
        .unwrap()
        .unwrap();
    assert_eq!(stored.cells, [Cell::new("0", [0, 0, 0, 0], "x")]);
    assert_eq!(
        block_on(store.get_record::<PhoenixMetricRow>(&key)).unwrap(),
        Some(nulls)
    );
}

#[test]
fn many_records_are_one_write_and_a_bad_one_sends_none() {
    let store = MemStore::new();
    let rows: Vec<PhoenixMetricRow> = (0..50)
        .map(|i| PhoenixMetricRow {
            metric: i,
            ..row(Some(f64::from(i)), Some("n"), None)
        })
        .collect();
    block_on(store.put_records(&rows)).unwrap();
    for r in &rows {
        assert_eq!(
            block_on(store.get_record::<PhoenixMetricRow>(&r.key()))
                .unwrap()
                .as_ref(),
            Some(r)
        );
    }
    let mut bad = vec![row(Some(1.0), Some("n"), None), row(None, Some(""), None)];
    bad[0].metric = 99;
    assert!(block_on(store.put_records(&bad)).is_err());
    let first = bad[0].key().to_vec().unwrap();
    assert_eq!(block_on(store.read_row(&first)).unwrap(), None);
}

#[test]
fn put_if_absent_sees_a_row_whose_first_column_is_null() {
    let store = MemStore::new();
    let first = row(None, Some("first"), None);
    assert!(block_on(store.put_record_if_absent(&first)).unwrap());
    let second = row(Some(2.0), Some("second"), None);
    assert!(!block_on(store.put_record_if_absent(&second)).unwrap());
    assert_eq!(
        block_on(store.get_record::<PhoenixMetricRow>(&first.key())).unwrap(),
        Some(first)
    );
}

#[test]
fn empty_values_are_null_as_phoenix_reads_them() {
    // A STORE_NULLS table writes NULL as an empty value.
    let key = row(None, None, None).key().to_vec().unwrap();
    let stored = Row::new(
        key,
        vec![
            Cell::new("0", [0x80, 0x0b], ""),
            Cell::new("0", [0x80, 0x0c], ""),
            Cell::new("0", [0, 0, 0, 0], "x"),
        ],
    );
    assert_eq!(
        PhoenixMetricRow::from_row(&stored).unwrap(),
        row(None, None, None)
    );
}

#[test]
fn values_phoenix_would_change_are_refused_naming_the_field() {
    let store = MemStore::new();
    for (r, field, kind) in [
        (row(Some(1.0), Some(""), None), "note", "empty"),
        (row(Some(1.0), Some(&"n".repeat(21)), None), "note", "chars"),
    ] {
        let e = r.try_cells().unwrap_err();
        assert_eq!((e.key(), e.field()), ("PhoenixMetricRow", field), "{e}");
        match (kind, e.kind()) {
            ("chars", EncodeErrorKind::TooManyChars { chars: 21, max: 20 }) => {}
            ("empty", EncodeErrorKind::Invalid(why)) => assert!(why.contains("NULL"), "{why}"),
            (_, other) => panic!("{kind}: {other:?}"),
        }
        // No cells: nothing a store would write as if it were the record.
        assert!(r.cells().is_empty());
        let put = block_on(store.put_record(&r)).unwrap_err();
        assert!(matches!(put, StoreError::Encode(_)), "{put:?}");
        let key = r.key().to_vec().unwrap();
        assert_eq!(block_on(store.read_row(&key)).unwrap(), None);
    }
}

#[test]
fn a_cell_of_the_wrong_width_is_an_error_not_a_panic() {
    let key = row(None, None, None).key().to_vec().unwrap();
    let stored = Row::new(key, vec![Cell::new("0", [0x80, 0x0b], [1, 2, 3])]);
    let e = PhoenixMetricRow::from_row(&stored).unwrap_err();
    assert!(e.to_string().contains("PhoenixMetricRow"), "{e}");
}

proptest! {
    #[test]
    fn records_round_trip_through_their_cells(
        host in "[a-z0-9é-]{1,12}",
        metric: i32,
        at: i64,
        v in proptest::option::of(any::<f64>().prop_filter("not NaN", |f| !f.is_nan())),
        note in proptest::option::of("[ -~éΩ]{1,20}"),
        seen: Option<i64>,
    ) {
        let r = PhoenixMetricRow { host, metric, at, v, note, seen };
        let cells = r.try_cells().unwrap();
        let key = r.to_key().unwrap().as_ref().to_vec();
        prop_assert_eq!(&PhoenixMetric::decode(&key).unwrap(), &r.key());
        let back = PhoenixMetricRow::from_row(&Row::new(key, cells)).unwrap();
        prop_assert_eq!(back, r);
    }

    #[test]
    fn arbitrary_cells_never_panic(
        v in proptest::collection::vec(any::<u8>(), 0..12),
        note in proptest::collection::vec(any::<u8>(), 0..30),
        seen in proptest::collection::vec(any::<u8>(), 0..12),
    ) {
        let key = row(None, None, None).key().to_vec().unwrap();
        let stored = Row::new(key, vec![
            Cell::new("0", [0x80, 0x0b], v),
            Cell::new("0", [0x80, 0x0c], note),
            Cell::new("0", [0x80, 0x0d], seen),
        ]);
        let _ = PhoenixMetricRow::from_row(&stored);
    }
}

mod single_cell {
    use super::*;
    use rowkey::codec::phoenix::pack_single_cell;
    use rowkey_fixtures::layouts::PhoenixEventRow;

    fn event(v: Option<f64>, note: Option<&str>, seen: Option<i64>) -> PhoenixEventRow {
        row(v, note, seen).into()
    }

    #[test]
    fn a_family_s_columns_are_one_packed_cell() {
        // V and SEEN NULL: their slots absent; the cell has all three.
        let e = event(None, Some("ab"), None);
        assert_eq!(
            e.try_cells().unwrap(),
            [
                Cell::new("0", [0, 0, 0, 0], "x"),
                Cell::new("0", "1", pack_single_cell(&[None, Some(b"ab"), None])),
            ]
        );
        let hex: String = e.cells()[1]
            .value
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        // x, ab; offsets 0, -1, 1, -3; data 3 bytes; 4 slots; version 3.
        assert_eq!(
            hex,
            "786162".to_owned() + "0000ffff0001fffd" + "00000003" + "00000004" + "03"
        );
        let columns: Vec<(String, Vec<u8>)> = PhoenixEventRow::columns()
            .unwrap()
            .iter()
            .map(|(f, q)| (f.to_owned(), q.to_vec()))
            .collect();
        assert_eq!(
            columns,
            [("0".into(), vec![0, 0, 0, 0]), ("0".into(), b"1".to_vec())]
        );
        // Every column NULL: the family's cell is there all the same.
        assert_eq!(event(None, None, None).cells().len(), 2);
    }

    #[test]
    fn a_cell_without_the_later_slots_reads_them_as_null() {
        // A row written before SEEN was added: two slots only.
        let key = event(None, None, None).key().to_vec().unwrap();
        let stored = Row::new(
            key,
            vec![Cell::new(
                "0",
                "1",
                pack_single_cell(&[Some(&double_bytes(2.5)), Some(b"n")]),
            )],
        );
        assert_eq!(
            PhoenixEventRow::from_row(&stored).unwrap(),
            event(Some(2.5), Some("n"), None)
        );
        // A packed cell that is not one: an error naming the cell.
        let bad = Row::new(stored.key.clone(), vec![Cell::new("0", "1", [1, 2, 3])]);
        let e = PhoenixEventRow::from_row(&bad).unwrap_err();
        assert!(
            e.to_string().contains("SINGLE_CELL_ARRAY_WITH_OFFSETS"),
            "{e}"
        );
    }

    proptest! {
        #[test]
        fn events_round_trip_through_their_cell(
            v in proptest::option::of(-1e9f64..1e9),
            note in proptest::option::of("[ -~éΩ]{1,20}"),
            seen: Option<i64>,
        ) {
            let e = PhoenixEventRow { v, note, seen, ..event(None, None, None) };
            let key = e.to_key().unwrap().as_ref().to_vec();
            let back = PhoenixEventRow::from_row(&Row::new(key, e.try_cells().unwrap())).unwrap();
            prop_assert_eq!(back, e);
        }

        #[test]
        fn arbitrary_packed_cells_never_panic(cell in proptest::collection::vec(any::<u8>(), 0..48)) {
            let key = event(None, None, None).key().to_vec().unwrap();
            let _ = PhoenixEventRow::from_row(&Row::new(key, vec![Cell::new("0", "1", cell)]));
        }
    }
}
