//! BigtableStore's own operations beside the Store's, on the emulator:
//! every version of a cell with its timestamp (`read_versions`), one row's
//! mutations (`mutate_row`), many rows' with each row's outcome
//! (`mutate_rows`), key samples (`sample_row_keys`), another table on the
//! same connection (`for_table`).

use futures::TryStreamExt;
use rowkey::split::SplitKeys;
use rowkey::store::{KeyRange, ReadRequest, Store, StoreExt};
use rowkey_bigtable::{BigtableAdmin, BigtableStore, Mutation, RowMutation, TableSpec};
use rowkey_fixtures::emulator::Emulator;

async fn table(emu: &Emulator, name: &str, splits: &SplitKeys) -> BigtableStore {
    BigtableAdmin::connect_emulator(&emu.host, "p", "i")
        .unwrap()
        .create_table(&TableSpec::new(name, &["d"]).splits(splits))
        .await
        .unwrap();
    BigtableStore::connect_emulator(&emu.host, "p", "i", name)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn versions_read_back_with_their_timestamps() {
    let emu = Emulator::start();
    let store = table(&emu, "versions", &SplitKeys::new(Vec::<Vec<u8>>::new())).await;
    store
        .mutate_row(RowMutation::new(
            "row-01",
            vec![
                Mutation::set_cell_at("d", "q", 1_000, "old"),
                Mutation::set_cell_at("d", "q", 2_000, "new"),
                Mutation::set_cell_at("d", "r", 1_000, "other"),
            ],
        ))
        .await
        .unwrap();
    let rows: Vec<_> = store
        .read_versions(ReadRequest::row(b"row-01"))
        .try_collect()
        .await
        .unwrap();
    let cells: Vec<_> = rows[0]
        .cells
        .iter()
        .map(|c| {
            (
                c.qualifier.as_slice(),
                c.timestamp_micros,
                c.value.as_slice(),
            )
        })
        .collect();
    // Newest version first within a column.
    assert_eq!(
        cells,
        [
            (&b"q"[..], 2_000, &b"new"[..]),
            (&b"q"[..], 1_000, &b"old"[..]),
            (&b"r"[..], 1_000, &b"other"[..]),
        ]
    );
    // The store's rows keep the newest.
    let row = store.read_row(b"row-01").await.unwrap().unwrap();
    assert_eq!(row.value("d", "q"), Some(&b"new"[..]));
    // Deleting a time range leaves the versions outside it.
    store
        .mutate_row(RowMutation::new(
            "row-01",
            vec![Mutation::DeleteCells {
                family: "d".into(),
                qualifier: b"q".to_vec(),
                start_micros: Some(2_000),
                end_micros: None,
            }],
        ))
        .await
        .unwrap();
    let row = store.read_row(b"row-01").await.unwrap().unwrap();
    assert_eq!(row.value("d", "q"), Some(&b"old"[..]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutate_rows_writes_the_good_rows_and_names_the_bad() {
    let emu = Emulator::start();
    let store = table(&emu, "bulk", &SplitKeys::new(Vec::<Vec<u8>>::new())).await;
    let set = |key: &str, family: &str| {
        RowMutation::new(key, vec![Mutation::set_cell_at(family, "q", 1_000, "v")])
    };
    let e = store
        .mutate_rows(vec![
            set("a", "d"),
            set("b", "nope"),
            set("", "d"),
            set("c", "d"),
        ])
        .await
        .unwrap_err();
    let failed: Vec<usize> = e.failed().iter().map(|f| f.index).collect();
    assert_eq!(failed, [1, 2], "{e}");
    let keys: Vec<Vec<u8>> = store
        .read_rows(ReadRequest::new([KeyRange::new(Vec::new(), None)]))
        .map_ok(|r| r.key)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(keys, [b"a".to_vec(), b"c".to_vec()]);
    // The same connection, another table.
    let other = table(&emu, "other", &SplitKeys::new(Vec::<Vec<u8>>::new())).await;
    let again = store.for_table("other");
    assert_eq!(again.table_name(), other.table_name());
    again.mutate_rows(vec![set("x", "d")]).await.unwrap();
    assert!(other.read_row(b"x").await.unwrap().is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn key_samples_end_with_the_table() {
    let emu = Emulator::start();
    let splits = SplitKeys::new([b"m".to_vec()]);
    let store = table(&emu, "samples", &splits).await;
    store
        .mutate_rows(
            ["a", "n", "z"]
                .into_iter()
                .map(|k| RowMutation::new(k, vec![Mutation::set_cell_at("d", "q", 1_000, "v")]))
                .collect(),
        )
        .await
        .unwrap();
    let samples = store.sample_row_keys().await.unwrap();
    // The emulator samples each tablet's end; the last is the table's.
    assert_eq!(
        samples.last().map(|s| s.key.as_slice()),
        Some(&b""[..]),
        "{samples:?}"
    );
    let offsets: Vec<i64> = samples.iter().map(|s| s.offset_bytes).collect();
    assert!(offsets.windows(2).all(|w| w[0] <= w[1]), "{offsets:?}");
}
