//! Rows to and from hbase-thrift's structs: `BatchMutation`s as HBase's
//! handler splits their columns, `TRowResult`s as it builds them, precise
//! errors, no panics on any column bytes, and the bytes hbase-thrift's
//! binary protocol writes and reads.

use crate::common;

use common::{written, written_cells};
use hbase_thrift::hbase::{BatchMutation, Mutation, TCell, TColumn, TRowResult, TScan};
use proptest::prelude::*;
use rowkey::store::{Cell, Row, StoreError};
use rowkey_hbase::{
    row_from_thrift, rows_from_thrift, to_batch_mutation, to_batch_mutations, ThriftDataError,
    ToTScan,
};
use std::collections::BTreeMap;
use thrift::protocol::{TBinaryInputProtocol, TBinaryOutputProtocol};

fn tcell(value: &[u8]) -> TCell {
    TCell {
        value: Some(value.to_vec()),
        timestamp: Some(1),
    }
}

/// The column name HBase's `KeyValue.makeColumn` builds.
fn column(family: &[u8], qualifier: &[u8]) -> Vec<u8> {
    [family, b":", qualifier].concat()
}

/// What HBase's Thrift handler returns for stored cells (family,
/// qualifier, value), sorted as HBase sorts them: the `columns` map, or
/// with `sort_columns` the `sorted_columns` list.
fn result(key: &[u8], cells: &[(Vec<u8>, Vec<u8>, Vec<u8>)], sorted: bool) -> TRowResult {
    if sorted {
        TRowResult {
            row: Some(key.to_vec()),
            columns: None,
            sorted_columns: Some(
                cells
                    .iter()
                    .map(|(f, q, v)| TColumn {
                        column_name: Some(column(f, q)),
                        cell: Some(tcell(v)),
                    })
                    .collect(),
            ),
        }
    } else {
        TRowResult {
            row: Some(key.to_vec()),
            columns: Some(
                cells
                    .iter()
                    .map(|(f, q, v)| (column(f, q), tcell(v)))
                    .collect(),
            ),
            sorted_columns: None,
        }
    }
}

fn backend_source(e: &StoreError) -> &ThriftDataError {
    match e {
        StoreError::Backend {
            source,
            transient: false,
            attempts: 1,
            ..
        } => source.downcast_ref().expect("a ThriftDataError"),
        other => panic!("not a backend error: {other:?}"),
    }
}

// ---- Writes.

#[test]
fn batch_mutation_byte_for_byte() {
    let row = Row::new(
        b"\x00k\xFF".to_vec(),
        vec![
            Cell::new("d", "at:utc", "12"),
            Cell::new("d", "", ""),
            Cell::new("meta", b"\xFF:\x00", b"\x00"),
        ],
    );
    let want = BatchMutation {
        row: Some(b"\x00k\xFF".to_vec()),
        mutations: Some(vec![
            Mutation {
                is_delete: Some(false),
                column: Some(b"d:at:utc".to_vec()),
                value: Some(b"12".to_vec()),
                write_to_w_a_l: Some(true),
            },
            Mutation {
                is_delete: Some(false),
                column: Some(b"d:".to_vec()),
                value: Some(Vec::new()),
                write_to_w_a_l: Some(true),
            },
            Mutation {
                is_delete: Some(false),
                column: Some(b"meta:\xFF:\x00".to_vec()),
                value: Some(b"\x00".to_vec()),
                write_to_w_a_l: Some(true),
            },
        ]),
    };
    assert_eq!(to_batch_mutation(row.clone()).unwrap(), want);
    assert_eq!(
        to_batch_mutations(vec![row.clone(), row]).unwrap(),
        [want.clone(), want]
    );
    // hbase-thrift's own default would skip the write-ahead log.
    assert_eq!(Mutation::default().write_to_w_a_l, Some(false));
}

#[test]
fn write_errors_are_precise() {
    let cells = || vec![Cell::new("d", "q", "v")];
    let e = to_batch_mutation(Row::new(Vec::new(), cells())).unwrap_err();
    assert!(
        matches!(e, StoreError::EmptyKey { op: "write rows" }),
        "{e:?}"
    );
    let e = to_batch_mutation(Row::new(vec![7; 32768], cells())).unwrap_err();
    assert!(
        matches!(
            e,
            StoreError::KeyTooLong {
                op: "write rows",
                len: 32768,
                max: 32767,
                store: "HBase",
                ..
            }
        ),
        "{e:?}"
    );
    assert!(to_batch_mutation(Row::new(vec![7; 32767], cells())).is_ok());
    let e = to_batch_mutation(Row::new(b"k".to_vec(), vec![])).unwrap_err();
    assert!(
        matches!(&e, StoreError::NoCells { key } if key == b"k"),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "cannot write rows: row k has no cells and clears no column; a row needs at least one of either"
    );
    // Families HBase would not read back as written.
    let e =
        to_batch_mutation(Row::new(b"k".to_vec(), vec![Cell::new("d:x", "q", "v")])).unwrap_err();
    assert_eq!(
        backend_source(&e),
        &ThriftDataError::BadFamily {
            row: b"k".to_vec(),
            family: "d:x".into()
        }
    );
    assert_eq!(e.op(), "write rows");
    assert_eq!(
        e.to_string(),
        format!("store failed to write rows: {}", backend_source(&e))
    );
    assert_eq!(
        e.backend_source().unwrap().to_string(),
        "family d:x of row k contains ':'; HBase would split the column at it and write another family and qualifier"
    );
    let e = to_batch_mutation(Row::new(b"k".to_vec(), vec![Cell::new("", "q", "v")])).unwrap_err();
    assert!(
        backend_source(&e)
            .to_string()
            .contains("a cell of row k has an empty family"),
        "{e:?}"
    );
    // A batch is refused whole, naming the bad row.
    let good = Row::new(b"a".to_vec(), cells());
    let bad = Row::new(b"b".to_vec(), vec![]);
    let e = to_batch_mutations(vec![good, bad]).unwrap_err();
    assert!(
        matches!(&e, StoreError::NoCells { key } if key == b"b"),
        "{e:?}"
    );
}

// ---- Reads.

#[test]
fn results_convert_byte_for_byte() {
    let stored = vec![
        (b"d".to_vec(), b"".to_vec(), b"\x00".to_vec()),
        (b"d".to_vec(), b"::".to_vec(), b"colons".to_vec()),
        (b"d".to_vec(), b"at:utc".to_vec(), b"12".to_vec()),
        (b"d".to_vec(), b"\xFF".to_vec(), b"".to_vec()),
        // Sorts before `d:...` as a column name, after it in HBase.
        (b"d0".to_vec(), b"x".to_vec(), b"v".to_vec()),
    ];
    let want = Row::new(
        b"k\x00\xFF".to_vec(),
        stored
            .iter()
            .map(|(f, q, v)| Cell::new(String::from_utf8(f.clone()).unwrap(), q, v))
            .collect(),
    );
    for sorted in [false, true] {
        let row = row_from_thrift(result(b"k\x00\xFF", &stored, sorted)).unwrap();
        assert_eq!(row, want, "sorted: {sorted}");
        assert_eq!(row.cells, want.cells, "sorted: {sorted}");
    }
    // No columns: a row without cells.
    let empty = TRowResult {
        row: Some(b"k".to_vec()),
        columns: None,
        sorted_columns: None,
    };
    assert_eq!(
        row_from_thrift(empty).unwrap(),
        Row::new(b"k".to_vec(), vec![])
    );
    // Of several versions of a column, the first (newest).
    let versions = TRowResult {
        row: Some(b"k".to_vec()),
        columns: None,
        sorted_columns: Some(vec![
            TColumn {
                column_name: Some(b"d:q".to_vec()),
                cell: Some(tcell(b"new")),
            },
            TColumn {
                column_name: Some(b"d:q".to_vec()),
                cell: Some(tcell(b"old")),
            },
        ]),
    };
    assert_eq!(
        row_from_thrift(versions).unwrap(),
        Row::new(b"k".to_vec(), vec![Cell::new("d", "q", "new")])
    );
    let rows = rows_from_thrift(vec![
        result(b"a", &stored, false),
        result(b"b", &stored, true),
    ])
    .unwrap();
    assert_eq!(
        rows.iter().map(|r| r.key.as_slice()).collect::<Vec<_>>(),
        [&b"a"[..], b"b"]
    );
}

#[test]
fn read_errors_are_precise() {
    let bad = |column: &[u8], cell: Option<TCell>| TRowResult {
        row: Some(b"k".to_vec()),
        columns: None,
        sorted_columns: Some(vec![TColumn {
            column_name: Some(column.to_vec()),
            cell,
        }]),
    };
    let e = row_from_thrift(bad(b"dq", Some(tcell(b"v")))).unwrap_err();
    assert_eq!(
        backend_source(&e),
        &ThriftDataError::ColumnWithoutColon {
            row: b"k".to_vec(),
            column: b"dq".to_vec()
        }
    );
    assert_eq!(e.op(), "read rows");
    assert_eq!(
        e.to_string(),
        format!("store failed to read rows: {}", backend_source(&e))
    );
    assert_eq!(
        e.backend_source().unwrap().to_string(),
        "column dq of row k has no ':' between family and qualifier"
    );
    let e = row_from_thrift(bad(b"\xFF:q", Some(tcell(b"v")))).unwrap_err();
    assert_eq!(
        backend_source(&e),
        &ThriftDataError::FamilyNotUtf8 {
            row: b"k".to_vec(),
            column: b"\xFF:q".to_vec()
        }
    );
    assert!(backend_source(&e)
        .to_string()
        .contains(r"column \xFF:q of row k has a family that is not UTF-8"));
    let missing = ThriftDataError::MissingValue {
        row: b"k".to_vec(),
        column: b"d:q".to_vec(),
    };
    let e = row_from_thrift(bad(b"d:q", None)).unwrap_err();
    assert_eq!(backend_source(&e), &missing);
    let no_value = TCell {
        value: None,
        timestamp: Some(1),
    };
    let e = row_from_thrift(bad(b"d:q", Some(no_value))).unwrap_err();
    assert_eq!(backend_source(&e), &missing);
    assert!(backend_source(&e)
        .to_string()
        .contains("column d:q of row k has no value"));
    // A missing column name is an empty one, which has no ':'.
    let nameless = TRowResult {
        row: Some(b"k".to_vec()),
        columns: None,
        sorted_columns: Some(vec![TColumn {
            column_name: None,
            cell: Some(tcell(b"v")),
        }]),
    };
    let e = row_from_thrift(nameless).unwrap_err();
    assert!(
        matches!(backend_source(&e), ThriftDataError::ColumnWithoutColon { column, .. } if column.is_empty())
    );
    let both = TRowResult {
        row: Some(b"k".to_vec()),
        columns: Some(BTreeMap::new()),
        sorted_columns: Some(Vec::new()),
    };
    let e = row_from_thrift(both).unwrap_err();
    assert_eq!(
        backend_source(&e),
        &ThriftDataError::BothColumnForms { row: b"k".to_vec() }
    );
    // Keys: missing or empty, and over HBase's limit.
    for row in [None, Some(Vec::new())] {
        let e = row_from_thrift(TRowResult {
            row,
            columns: None,
            sorted_columns: None,
        })
        .unwrap_err();
        assert!(
            matches!(e, StoreError::EmptyKey { op: "read rows" }),
            "{e:?}"
        );
    }
    let long = TRowResult {
        row: Some(vec![b'k'; 32768]),
        columns: None,
        sorted_columns: None,
    };
    let e = row_from_thrift(long).unwrap_err();
    assert!(
        matches!(
            e,
            StoreError::KeyTooLong {
                op: "read rows",
                len: 32768,
                ..
            }
        ),
        "{e:?}"
    );
    // Long keys and columns are cut in messages.
    let e = row_from_thrift(TRowResult {
        row: Some(vec![b'k'; 100]),
        columns: Some(BTreeMap::from([(vec![b'c'; 100], tcell(b"v"))])),
        sorted_columns: None,
    })
    .unwrap_err();
    let shown = format!("column {}... of row {}...", "c".repeat(64), "k".repeat(64));
    assert!(backend_source(&e).to_string().contains(&shown), "{e:?}");
    // The first bad row ends a batch.
    let e = rows_from_thrift(vec![
        TRowResult {
            row: Some(b"a".to_vec()),
            columns: None,
            sorted_columns: None,
        },
        bad(b"dq", Some(tcell(b"v"))),
    ])
    .unwrap_err();
    assert!(matches!(
        backend_source(&e),
        ThriftDataError::ColumnWithoutColon { .. }
    ));
}

fn family() -> impl Strategy<Value = String> {
    prop_oneof!["[a-z0-9_.-]{1,4}", "\\PC{1,3}"]
        .prop_filter("no ':' in a family", |f| !f.contains(':'))
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![Just(b':'), Just(0u8), Just(0xFF), any::<u8>()],
        0..6,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A row written through `mutateRows` (columns split as HBase splits
    /// them) and read back as HBase returns it (either form) is the same
    /// row, its cells in HBase's order.
    #[test]
    fn rows_roundtrip_through_the_handler(
        key in proptest::collection::vec(any::<u8>(), 1..8),
        cells in proptest::collection::vec((family(), bytes(), bytes()), 1..8),
        sorted in any::<bool>(),
    ) {
        let row = Row::new(key.clone(), cells.iter().map(|(f, q, v)| Cell::new(f.clone(), q, v)).collect());
        let batch = to_batch_mutation(row.clone()).unwrap();
        prop_assert_eq!(batch.row.as_deref(), Some(key.as_slice()));
        // Every cell lands in its own family and qualifier.
        for (m, c) in batch.mutations.iter().flatten().zip(&row.cells) {
            prop_assert_eq!(written(m), (c.family.as_bytes().to_vec(), c.qualifier.clone(), c.value.clone()));
        }
        let stored = written_cells(&batch);
        let back = row_from_thrift(result(&key, &stored, sorted)).unwrap();
        // The last write of a column wins; cells sorted by family, qualifier.
        let mut want: Vec<Cell> = row.cells.iter().rev().cloned().collect();
        want.sort_by(|a, b| (a.family.as_bytes(), &a.qualifier).cmp(&(b.family.as_bytes(), &b.qualifier)));
        want.dedup_by(|a, b| a.family == b.family && a.qualifier == b.qualifier);
        prop_assert_eq!(back, Row::new(key, want));
    }

    /// Any column bytes convert or fail precisely, never panic: a column
    /// converts exactly when it has a ':' and the bytes before the first
    /// are UTF-8, and then family ':' qualifier is the column.
    #[test]
    fn any_column_bytes_convert_or_fail_precisely(
        key in proptest::collection::vec(any::<u8>(), 0..4),
        col in proptest::collection::vec(prop_oneof![Just(b':'), any::<u8>()], 0..12),
        value in proptest::option::of(bytes()),
        sorted in any::<bool>(),
    ) {
        let cell = TCell { value: value.clone(), timestamp: None };
        let r = if sorted {
            TRowResult { row: Some(key.clone()), columns: None, sorted_columns: Some(vec![TColumn { column_name: Some(col.clone()), cell: Some(cell) }]) }
        } else {
            TRowResult { row: Some(key.clone()), columns: Some(BTreeMap::from([(col.clone(), cell)])), sorted_columns: None }
        };
        let colon = col.iter().position(|&b| b == b':');
        match row_from_thrift(r) {
            Ok(row) => {
                let i = colon.expect("converted: has a ':'");
                prop_assert!(!key.is_empty() && value.is_some());
                prop_assert_eq!(row.cells.len(), 1);
                let c = &row.cells[0];
                prop_assert_eq!(c.family.as_bytes(), &col[..i]);
                prop_assert_eq!(column(c.family.as_bytes(), &c.qualifier), col.clone());
                prop_assert_eq!(Some(c.value.clone()), value);
            }
            Err(StoreError::EmptyKey { .. }) => prop_assert!(key.is_empty()),
            Err(e) => {
                prop_assert!(!key.is_empty());
                let want = match colon {
                    None => ThriftDataError::ColumnWithoutColon { row: key.clone(), column: col.clone() },
                    Some(_) if value.is_none() => ThriftDataError::MissingValue { row: key.clone(), column: col.clone() },
                    Some(_) => ThriftDataError::FamilyNotUtf8 { row: key.clone(), column: col.clone() },
                };
                if let ThriftDataError::FamilyNotUtf8 { .. } = want {
                    prop_assert!(std::str::from_utf8(&col[..colon.unwrap()]).is_err());
                }
                prop_assert_eq!(backend_source(&e), &want);
                let _ = e.to_string();
            }
        }
    }
}

// ---- The bytes hbase-thrift's binary protocol writes and reads.

fn encode(
    write: impl FnOnce(&mut TBinaryOutputProtocol<&mut Vec<u8>>) -> thrift::Result<()>,
) -> Vec<u8> {
    let mut buf = Vec::new();
    let mut out = TBinaryOutputProtocol::new(&mut buf, true);
    write(&mut out).unwrap();
    buf
}

/// A binary-protocol field header: type, then id (big-endian).
fn field(ty: u8, id: i16) -> Vec<u8> {
    [&[ty][..], &id.to_be_bytes()].concat()
}

/// A binary-protocol string: length (big-endian), then bytes.
fn string(b: &[u8]) -> Vec<u8> {
    [&(b.len() as i32).to_be_bytes()[..], b].concat()
}

const STRING: u8 = 11;
const BOOL: u8 = 2;
const MAP: u8 = 13;
const LIST: u8 = 15;
const STRUCT: u8 = 12;
const I64: u8 = 10;
const STOP: u8 = 0;

#[test]
fn a_scan_on_the_wire_carries_only_its_rows() {
    let scan = rowkey::store::KeyRange::new(b"a\x00".to_vec(), Some(b"a\xFF".to_vec()))
        .to_tscan()
        .unwrap();
    let bytes = encode(|o| scan.write_to_out_protocol(o));
    let want = [
        field(STRING, 1),
        string(b"a\x00"),
        field(STRING, 2),
        string(b"a\xFF"),
        vec![STOP],
    ]
    .concat();
    assert_eq!(bytes, want);
    // hbase-thrift's default carries every field: 10 of them.
    let default = encode(|o| TScan::default().write_to_out_protocol(o));
    assert!(default.len() > want.len());
    // Reversed: the rows and the flag.
    let read = rowkey::store::KeyRange::new(b"a".to_vec(), None)
        .to_reversed_tscan()
        .unwrap();
    let bytes = encode(|o| read.tscan().write_to_out_protocol(o));
    let want = [
        field(STRING, 2),
        string(b"`"),
        field(BOOL, 9),
        vec![1],
        vec![STOP],
    ]
    .concat();
    assert_eq!(bytes, want);
}

#[test]
fn a_mutation_on_the_wire() {
    let batch = to_batch_mutation(Row::new(
        b"k".to_vec(),
        vec![Cell::new("d", b"q:\xFF", "v")],
    ))
    .unwrap();
    let bytes = encode(|o| batch.write_to_out_protocol(o));
    let mutation = [
        field(BOOL, 1),
        vec![0],
        field(STRING, 2),
        string(b"d:q:\xFF"),
        field(STRING, 3),
        string(b"v"),
        field(BOOL, 4),
        vec![1],
        vec![STOP],
    ]
    .concat();
    let want = [
        field(STRING, 1),
        string(b"k"),
        field(LIST, 2),
        vec![STRUCT],
        1i32.to_be_bytes().to_vec(),
        mutation,
        vec![STOP],
    ]
    .concat();
    assert_eq!(bytes, want);
}

/// A `TRowResult` as HBase's Java server writes it (its `columns` map),
/// read by hbase-thrift and converted.
#[test]
fn a_row_from_the_wire() {
    let tcell = |v: &[u8]| {
        [
            field(STRING, 1),
            string(v),
            field(I64, 2),
            5i64.to_be_bytes().to_vec(),
            vec![STOP],
        ]
        .concat()
    };
    let bytes = [
        field(STRING, 1),
        string(b"k\x00\xFF"),
        field(MAP, 2),
        vec![STRING, STRUCT],
        2i32.to_be_bytes().to_vec(),
        string(b"d:a:b"),
        tcell(b"1"),
        string(b"d:"),
        tcell(b""),
        vec![STOP],
    ]
    .concat();
    let mut input = TBinaryInputProtocol::new(bytes.as_slice(), true);
    let result = TRowResult::read_from_in_protocol(&mut input).unwrap();
    assert_eq!(result.sorted_columns, None);
    let row = row_from_thrift(result).unwrap();
    assert_eq!(
        row,
        Row::new(
            b"k\x00\xFF".to_vec(),
            vec![Cell::new("d", "", ""), Cell::new("d", "a:b", "1")]
        )
    );
    // A result without its row field reads as an empty key: refused.
    let bytes = [vec![STOP]].concat();
    let mut input = TBinaryInputProtocol::new(bytes.as_slice(), true);
    let result = TRowResult::read_from_in_protocol(&mut input).unwrap();
    assert_eq!(result.row, Some(Vec::new()));
    assert!(matches!(
        row_from_thrift(result),
        Err(StoreError::EmptyKey { .. })
    ));
}
