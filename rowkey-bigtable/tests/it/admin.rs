//! Tables created if missing, on the emulator: a missing table is created
//! with its families and splits, an existing one with the same families
//! is found as it was (rows kept), and one with other families is refused
//! with the families named and nothing changed.

use futures::TryStreamExt;
use rowkey::split::SplitKeys;
use rowkey::store::{Cell, KeyRange, ReadRequest, Row, Store, StoreError};
use rowkey_bigtable::{
    blocking, BigtableAdmin, BigtableStore, TableMismatch, TableSpec, TableStatus,
};
use rowkey_fixtures::emulator::Emulator;

/// The [`TableMismatch`] behind `e`, if it is one.
fn mismatch(e: &StoreError) -> Option<&TableMismatch> {
    e.backend_source()?.downcast_ref::<TableMismatch>()
}

async fn all_rows(store: &BigtableStore) -> Vec<Row> {
    store
        .read_rows(ReadRequest::new([KeyRange::new([], None)]))
        .try_collect()
        .await
        .unwrap()
}

#[tokio::test(flavor = "current_thread")]
async fn creates_a_missing_table_then_finds_it_as_it_was() {
    let emu = Emulator::start();
    let admin = BigtableAdmin::connect_emulator(&emu.host, "p", "i").unwrap();
    let splits = SplitKeys::new([b"g".to_vec(), b"p".to_vec()]);
    let spec = TableSpec::new("readings", &["d", "i"]).splits(&splits);

    let first = admin.create_table_if_missing(&spec).await.unwrap();
    assert_eq!(first, TableStatus::Created);
    let store = BigtableStore::connect_emulator(&emu.host, "p", "i", "readings")
        .await
        .unwrap();
    let written = vec![
        Row::new("a", vec![Cell::new("d", "v", "1")]),
        Row::new("q", vec![Cell::new("i", "k", "2")]),
    ];
    store.write_rows(written.clone()).await.unwrap();

    // The same spec again: found, and its rows are still there.
    let again = admin.create_table_if_missing(&spec).await.unwrap();
    assert_eq!(again, TableStatus::Existed);
    assert_eq!(all_rows(&store).await, written);

    // The families in another order are the same families.
    let reordered = TableSpec::new("readings", &["i", "d"]).splits(&splits);
    assert_eq!(
        admin.create_table_if_missing(&reordered).await.unwrap(),
        TableStatus::Existed
    );

    // Split keys are not compared (Bigtable cannot report them; see the
    // method's docs): other splits, or none, find the table as it was.
    let other_splits = SplitKeys::new([b"c".to_vec()]);
    let resplit = TableSpec::new("readings", &["d", "i"]).splits(&other_splits);
    assert_eq!(
        admin.create_table_if_missing(&resplit).await.unwrap(),
        TableStatus::Existed
    );
    assert_eq!(
        admin
            .create_table_if_missing(&TableSpec::new("readings", &["d", "i"]))
            .await
            .unwrap(),
        TableStatus::Existed
    );
    assert_eq!(all_rows(&store).await, written);

    // create_table itself still refuses a table that exists.
    let e = admin.create_table(&spec).await.unwrap_err();
    assert_eq!(e.op(), "create table");
    assert!(mismatch(&e).is_none(), "{e}");
    let why = e.backend_source().expect("the server's error").to_string();
    assert!(why.contains("already exists"), "{e}: {why}");
}

#[tokio::test(flavor = "current_thread")]
async fn other_families_are_refused_naming_them() {
    let emu = Emulator::start();
    let admin = BigtableAdmin::connect_emulator(&emu.host, "p", "i").unwrap();
    admin
        .create_table(&TableSpec::new("events", &["d", "x", "y"]))
        .await
        .unwrap();
    let store = BigtableStore::connect_emulator(&emu.host, "p", "i", "events")
        .await
        .unwrap();
    let written = vec![Row::new("k", vec![Cell::new("x", "q", "v")])];
    store.write_rows(written.clone()).await.unwrap();

    // Missing and extra at once.
    let e = admin
        .create_table_if_missing(&TableSpec::new("events", &["d", "i", "m"]))
        .await
        .unwrap_err();
    assert_eq!(e.op(), "create table");
    assert!(!e.is_transient());
    let m = mismatch(&e).expect("a TableMismatch");
    assert_eq!(m.table, "events");
    assert_eq!(m.missing_families, ["i", "m"]);
    assert_eq!(m.extra_families, ["x", "y"]);
    assert_eq!(
        e.to_string(),
        format!(
            "store failed to create table: {}",
            e.backend_source().unwrap()
        )
    );
    assert_eq!(
        e.backend_source().unwrap().to_string(),
        "table events exists with other column families \
         than its spec: missing i, m (in the spec, not the table); \
         extra x, y (in the table, not the spec)"
    );

    // Only missing; only extra.
    let e = admin
        .create_table_if_missing(&TableSpec::new("events", &["d", "x", "y", "z"]))
        .await
        .unwrap_err();
    let m = mismatch(&e).expect("a TableMismatch");
    assert_eq!(
        (m.missing_families.as_slice(), m.extra_families.len()),
        (&["z".to_string()][..], 0)
    );
    assert!(
        m.to_string()
            .ends_with("missing z (in the spec, not the table)"),
        "{m}"
    );
    let e = admin
        .create_table_if_missing(&TableSpec::new("events", &["d"]))
        .await
        .unwrap_err();
    let m = mismatch(&e).expect("a TableMismatch");
    assert!(m.missing_families.is_empty());
    assert_eq!(m.extra_families, ["x", "y"]);

    // Nothing was changed: the table keeps its families and rows.
    assert_eq!(
        admin
            .create_table_if_missing(&TableSpec::new("events", &["y", "x", "d"]))
            .await
            .unwrap(),
        TableStatus::Existed
    );
    assert_eq!(all_rows(&store).await, written);
}

#[test]
fn blocking_creates_if_missing() {
    let emu = Emulator::start();
    let spec = TableSpec::new("ops", &["d"]);
    let create =
        |spec: &TableSpec<'_>| blocking::create_table_if_missing(Some(&emu.host), "p", "i", spec);
    assert_eq!(create(&spec).unwrap(), TableStatus::Created);
    assert_eq!(create(&spec).unwrap(), TableStatus::Existed);
    let e = create(&TableSpec::new("ops", &["e"])).unwrap_err();
    let m = mismatch(&e).expect("a TableMismatch");
    assert_eq!(
        (m.missing_families.clone(), m.extra_families.clone()),
        (vec!["e".to_string()], vec!["d".to_string()])
    );
}

/// Why `create_table_if_missing` does not compare split keys on the
/// emulator: it cannot report them. `SampleRowKeys` on a table created
/// with splits and no rows returns only the table's end (an empty key).
#[tokio::test(flavor = "current_thread")]
async fn the_emulator_reports_no_split_keys() {
    use bigtable_rs::google::bigtable::v2::SampleRowKeysRequest;
    let emu = Emulator::start();
    let splits = SplitKeys::new([b"g".to_vec(), b"p".to_vec()]);
    BigtableAdmin::connect_emulator(&emu.host, "p", "i")
        .unwrap()
        .create_table(&TableSpec::new("split", &["d"]).splits(&splits))
        .await
        .unwrap();
    let store = BigtableStore::connect_emulator(&emu.host, "p", "i", "split")
        .await
        .unwrap();
    let mut client = store.client();
    let request = SampleRowKeysRequest {
        table_name: client.get_full_table_name("split"),
        ..SampleRowKeysRequest::default()
    };
    let mut samples = client.sample_row_keys(request).await.unwrap();
    let mut keys = Vec::new();
    while let Some(sample) = samples.message().await.unwrap() {
        keys.push(sample.row_key);
    }
    assert_eq!(keys, [Vec::<u8>::new()]);
}
