//! BigtableStore against the emulator: exact range reads next to 0xFF
//! like MemStore's, limits, point gets, 10 MiB cells, the key checks made
//! before anything is sent, both tokio runtimes, and the blocking facade.

use futures::TryStreamExt;
use rowkey::split::SplitKeys;
use rowkey::store::{Cell, KeyRange, MemStore, ReadRequest, Row, Store, StoreError, StoreExt};
use rowkey_bigtable::{blocking, BigtableAdmin, BigtableStore, TableSpec};
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

/// A store whose server does not exist: anything it sends fails.
async fn nowhere() -> BigtableStore {
    BigtableStore::connect_emulator("127.0.0.1:1", "p", "i", "t")
        .await
        .unwrap()
        .with_retry(rowkey::store::RetryPolicy::never())
}

async fn rows(store: &impl Store, request: ReadRequest) -> Vec<Row> {
    store.read_rows(request).try_collect().await.unwrap()
}

#[tokio::test(flavor = "current_thread")]
async fn reads_ranges_exactly_like_memstore() {
    let emu = Emulator::start();
    let splits = SplitKeys::new([vec![0x01, 0xFF], b"m".to_vec()]);
    let bt = table(&emu, "t", &splits).await;
    let mem = MemStore::new();
    let keys: Vec<Vec<u8>> = vec![
        vec![0x01],
        vec![0x01, 0xFF],
        vec![0x01, 0xFF, 0x00],
        vec![0x02],
        vec![0x02, 0x00],
        b"a".to_vec(),
        b"m".to_vec(),
        b"z\xFF\xFF".to_vec(),
    ];
    let written: Vec<Row> = keys
        .iter()
        .map(|k| Row::new(k.clone(), vec![Cell::new("d", "v", k)]))
        .collect();
    bt.write_rows(written.clone()).await.unwrap();
    mem.write_rows(written).await.unwrap();
    let ranges = [
        vec![KeyRange::new([0x01, 0xFF], Some(vec![0x02]))],
        vec![KeyRange::new([], None)],
        vec![KeyRange::new([0x01], Some(vec![0x01, 0xFF, 0x00]))],
        vec![KeyRange::new("m", None)],
        vec![KeyRange::new([0x02], Some(vec![0x02]))],
        // Several ranges in one request, out of order and overlapping.
        vec![
            KeyRange::new("m", None),
            KeyRange::new([0x01], Some(vec![0x01, 0xFF])),
            KeyRange::new([0x01, 0x80], Some(vec![0x02, 0x00])),
        ],
    ];
    for ranges in ranges {
        for limit in [None, Some(1), Some(3)] {
            let mut request = ReadRequest::new(ranges.clone());
            if let Some(l) = limit {
                request = request.with_limit(l);
            }
            let a = rows(&bt, request.clone()).await;
            let b = rows(&mem, request.clone()).await;
            assert_eq!(a, b, "{request:?}");
        }
    }
    let m = bt.read_row(b"m").await.unwrap().unwrap();
    assert_eq!(m.value("d", "v"), Some(&b"m"[..]));
    assert!(bt.read_row(b"nope").await.unwrap().is_none());
    // A rewrite replaces the cell; one version is read back.
    bt.write_rows(vec![Row::new("m", vec![Cell::new("d", "v", "2")])])
        .await
        .unwrap();
    let m = bt.read_row(b"m").await.unwrap().unwrap();
    assert_eq!(m.cells, vec![Cell::new("d", "v", "2")]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_mib_cells_read_back() {
    let emu = Emulator::start();
    let bt = table(&emu, "big", &SplitKeys::new([])).await;
    let value: Vec<u8> = (0..10 << 20).map(|i: u32| (i % 251) as u8).collect();
    let rows = vec![
        Row::new("a", vec![Cell::new("d", "v", "small")]),
        Row::new("b", vec![Cell::new("d", "v", &value)]),
        Row::new("c", vec![Cell::new("d", "v", "small")]),
    ];
    bt.write_rows(rows).await.unwrap();
    let b = bt.read_row(b"b").await.unwrap().expect("the row");
    assert!(
        b.value("d", "v") == Some(&value[..]),
        "10 MiB value differs"
    );
    let all = rows_of(&bt).await;
    assert_eq!(all.len(), 3);
    assert!(all[1].value("d", "v") == Some(&value[..]));
}

async fn rows_of(bt: &BigtableStore) -> Vec<Row> {
    rows(bt, ReadRequest::new([KeyRange::new([], None)])).await
}

#[tokio::test(flavor = "current_thread")]
async fn bad_keys_are_refused_before_anything_is_sent() {
    // The store points nowhere: a request sent would fail to connect, so
    // these errors prove nothing was sent.
    let bt = nowhere().await;
    let mem = MemStore::new();
    let empty = vec![Row::new(vec![], vec![Cell::new("d", "v", "x")])];
    for e in [
        bt.write_rows(empty.clone()).await.unwrap_err(),
        mem.write_rows(empty).await.unwrap_err(),
        bt.read_row(b"").await.unwrap_err(),
        mem.read_row(b"").await.unwrap_err(),
    ] {
        assert!(matches!(e, StoreError::EmptyKey { .. }), "{e}");
        assert!(e.to_string().contains("the row key is empty"), "{e}");
    }
    let long = vec![b'k'; 4097];
    let e = bt
        .write_rows(vec![Row::new(long.clone(), vec![Cell::new("d", "v", "x")])])
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            StoreError::KeyTooLong {
                len: 4097,
                max: 4096,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().starts_with(
        "cannot write rows: key of 4097 bytes exceeds Bigtable's 4096-byte row key limit"
    ));
    let e = mem
        .write_rows(vec![Row::new(long.clone(), vec![Cell::new("d", "v", "x")])])
        .await
        .unwrap_err();
    assert!(matches!(e, StoreError::KeyTooLong { .. }), "{e}");
    assert!(matches!(
        bt.read_row(&long).await.unwrap_err(),
        StoreError::KeyTooLong { .. }
    ));
    let e = bt
        .write_rows(vec![Row::new("k", vec![])])
        .await
        .unwrap_err();
    assert!(matches!(e, StoreError::NoCells { .. }), "{e}");
    // No ranges: nothing is sent (an empty RowSet would read the whole
    // table), and nothing comes back.
    assert!(rows(&bt, ReadRequest::new([])).await.is_empty());
    assert!(rows(
        &bt,
        ReadRequest::new([KeyRange::new("b", Some(b"a".to_vec()))])
    )
    .await
    .is_empty());
    // A request that is sent fails, precisely.
    let e = bt.read_row(b"k").await.unwrap_err();
    assert!(
        matches!(
            e,
            StoreError::Backend {
                op: "read rows",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn the_blocking_store_works_outside_a_runtime_and_errs_inside_one() {
    let emu = Emulator::start();
    let spec = TableSpec::new("b", &["d"]);
    blocking::create_table(Some(&emu.host), "p", "i", &spec).unwrap();
    let store = blocking::connect_emulator(&emu.host, "p", "i", "b").unwrap();
    store
        .write_rows(vec![Row::new("k", vec![Cell::new("d", "v", "x")])])
        .unwrap();
    assert!(store.read_row(b"k").unwrap().is_some());
    let all: Vec<Row> = store
        .read_rows(ReadRequest::new([KeyRange::new("a", None)]))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(all.len(), 1);
    // Inside a runtime: an error, not a panic, and the runtime goes on.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let e = store.read_row(b"k").unwrap_err();
        assert!(
            matches!(e, StoreError::InsideAsyncRuntime { op: "read row" }),
            "{e}"
        );
        assert!(e.to_string().contains("use the async store"), "{e}");
        let mut rows = store.read_rows(ReadRequest::new([KeyRange::new("a", None)]));
        assert!(matches!(
            rows.next(),
            Some(Err(StoreError::InsideAsyncRuntime { .. }))
        ));
        assert!(rows.next().is_none());
        // Dropping a blocking store inside a runtime does not panic either.
        drop(blocking::connect_emulator(&emu.host, "p", "i", "b"));
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queries_run_in_spawned_tasks() {
    // Streams own what they need: a query moves into a task and back.
    let emu = Emulator::start();
    let bt = table(&emu, "s", &SplitKeys::new([])).await;
    let rows: Vec<Row> = (0..100u32)
        .map(|i| Row::new(i.to_be_bytes().to_vec(), vec![Cell::new("d", "v", "x")]))
        .collect();
    bt.write_rows(rows).await.unwrap();
    let tasks: Vec<_> = (0..4u32)
        .map(|t| {
            let bt = bt.clone();
            tokio::spawn(async move {
                let request = ReadRequest::new([KeyRange::new(
                    (t * 25).to_be_bytes().to_vec(),
                    Some(((t + 1) * 25).to_be_bytes().to_vec()),
                )]);
                bt.read_rows(request).try_collect::<Vec<Row>>().await
            })
        })
        .collect();
    for t in tasks {
        assert_eq!(t.await.unwrap().unwrap().len(), 25);
    }
}

/// 1,000 rows of 101 cells: 101,000 mutations, more than one `MutateRows`
/// request may carry (Bigtable refuses over 100,000). The write is cut by
/// mutations into requests Bigtable takes, and every cell lands.
#[tokio::test(flavor = "multi_thread")]
async fn a_write_of_more_mutations_than_one_request_takes_lands_whole() {
    let emu = Emulator::start();
    let bt = table(&emu, "wide", &SplitKeys::new(Vec::<Vec<u8>>::new())).await;
    let written: Vec<Row> = (0..1000u32)
        .map(|i| {
            let cells = (0..101u32)
                .map(|c| Cell::new("d", format!("c{c:03}"), (i * 1000 + c).to_be_bytes()))
                .collect();
            Row::new(format!("row{i:04}").into_bytes(), cells)
        })
        .collect();
    bt.write_rows(written.clone()).await.unwrap();
    let read = rows(&bt, ReadRequest::new([KeyRange::new([], None)])).await;
    assert_eq!(read.len(), 1000);
    for (got, want) in read.iter().zip(&written) {
        assert_eq!(got.key, want.key);
        let mut cells = got.cells.clone();
        cells.sort_by(|a, b| a.qualifier.cmp(&b.qualifier));
        assert_eq!(cells, want.cells, "{}", String::from_utf8_lossy(&got.key));
    }
}
