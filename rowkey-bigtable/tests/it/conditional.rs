//! BigtableStore's `check_and_mutate_row` and `read_modify_write_row`, at
//! Bigtable's own level, on the emulator: no predicate (any cell), both
//! branches, a predicate of the caller's; several rules in one call, in
//! order, with the new cells' timestamps. (That neither is retried, and
//! that a deadline is DEADLINE_EXCEEDED, Google's conformance suite
//! checks through the test proxy.)

use rowkey::store::{ModifyRule, StoreExt};
use rowkey_bigtable::{BigtableAdmin, BigtableStore, Mutation, RowFilter, TableSpec};
use rowkey_fixtures::emulator::Emulator;

async fn table(emu: &Emulator, name: &str) -> BigtableStore {
    BigtableAdmin::connect_emulator(&emu.host, "p", "i")
        .unwrap()
        .create_table(&TableSpec::new(name, &["d"]))
        .await
        .unwrap();
    BigtableStore::connect_emulator(&emu.host, "p", "i", name)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_and_mutate_row_applies_one_branch() {
    let emu = Emulator::start();
    let store = table(&emu, "cam").await;
    let set = |q: &str| vec![Mutation::set_cell_at("d", q, 1_000, "x")];
    // No predicate: "the row has a cell". None yet: the false branch.
    let matched = store
        .check_and_mutate_row(b"r".to_vec(), None, set("t"), set("f"))
        .await
        .unwrap();
    assert!(!matched);
    let row = store.read_row(b"r").await.unwrap().unwrap();
    assert_eq!(
        (row.value("d", "t"), row.value("d", "f")),
        (None, Some(&b"x"[..]))
    );
    // Now it has one: the true branch.
    assert!(store
        .check_and_mutate_row(b"r".to_vec(), None, set("t"), vec![])
        .await
        .unwrap());
    assert!(store
        .read_row(b"r")
        .await
        .unwrap()
        .unwrap()
        .value("d", "t")
        .is_some());
    // A predicate of the caller's: a value regex that matches nothing.
    let nothing = RowFilter {
        filter: Some(
            bigtable_rs::google::bigtable::v2::row_filter::Filter::ValueRegexFilter(
                b"^zzz$".to_vec(),
            ),
        ),
    };
    let matched = store
        .check_and_mutate_row(
            b"r".to_vec(),
            Some(nothing),
            vec![Mutation::DeleteRow],
            set("n"),
        )
        .await
        .unwrap();
    assert!(!matched);
    assert!(store
        .read_row(b"r")
        .await
        .unwrap()
        .unwrap()
        .value("d", "n")
        .is_some());
    // Refused before anything is sent.
    let e = store
        .check_and_mutate_row(Vec::new(), None, set("t"), vec![])
        .await
        .unwrap_err();
    assert!(
        matches!(e, rowkey::store::StoreError::EmptyKey { .. }),
        "{e}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_modify_write_row_applies_rules_in_order() {
    let emu = Emulator::start();
    let store = table(&emu, "rmw").await;
    let rules = vec![
        ModifyRule::increment("d", "n", 2),
        ModifyRule::increment("d", "n", 40),
        ModifyRule::append("d", "s", "ab"),
        ModifyRule::append("d", "s", "c"),
    ];
    let row = store
        .read_modify_write_row(b"r".to_vec(), rules)
        .await
        .unwrap();
    let mut cells: Vec<_> = row
        .cells
        .iter()
        .map(|c| (c.qualifier.clone(), c.value.clone()))
        .collect();
    cells.sort();
    assert_eq!(
        cells,
        [
            (b"n".to_vec(), 42i64.to_be_bytes().to_vec()),
            (b"s".to_vec(), b"abc".to_vec())
        ]
    );
    assert!(row.cells.iter().all(|c| c.timestamp_micros > 0), "{row:?}");
}
