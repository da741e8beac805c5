//! What only Bigtable has, on the emulator: cells of 10 MiB (the client's
//! message limit), a write of more mutations than one request takes (cut
//! into requests), refusals that send nothing, reads moved into spawned
//! tasks of the multi-thread runtime, and the blocking facade (its own
//! runtime; an error, not a panic, inside another). The contract every
//! store keeps is checked by the conformance suite (conformance.rs).

use futures::TryStreamExt;
use rowkey::split::SplitKeys;
use rowkey::store::{Cell, IndexedStore, KeyRange, ReadRequest, Row, Store, StoreError, StoreExt};
use rowkey::{IndexOf, RowKey};
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

/// Empty keys, keys over 4 KiB, rows without cells and requests with no
/// ranges are refused before anything is sent: the store points at no
/// server, so a request sent would fail to connect instead. (What every
/// store refuses is in the conformance suite; this proves Bigtable's
/// refusals cost no request.) A request that is sent fails, precisely.
#[tokio::test(flavor = "current_thread")]
async fn bad_keys_are_refused_before_anything_is_sent() {
    let bt = nowhere().await;
    let cell = || vec![Cell::new("d", "v", "x")];
    let long = vec![b'k'; 4097];
    for e in [
        bt.write_rows(vec![Row::new(vec![], cell())])
            .await
            .unwrap_err(),
        bt.read_row(b"").await.unwrap_err(),
        bt.delete_rows(vec![vec![]]).await.unwrap_err(),
    ] {
        assert!(matches!(e, StoreError::EmptyKey { .. }), "{e}");
    }
    for e in [
        bt.write_rows(vec![Row::new(long.clone(), cell())])
            .await
            .unwrap_err(),
        bt.read_row(&long).await.unwrap_err(),
        bt.delete_rows(vec![long.clone()]).await.unwrap_err(),
    ] {
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
    }
    let e = bt
        .write_rows(vec![Row::new("k", vec![])])
        .await
        .unwrap_err();
    assert!(matches!(e, StoreError::NoCells { .. }), "{e}");
    // No ranges: nothing is sent (an empty RowSet would read the whole
    // table), and nothing comes back.
    assert!(rows(&bt, ReadRequest::new([])).await.is_empty());
    let backwards = ReadRequest::new([KeyRange::new("b", Some(b"a".to_vec()))]);
    assert!(rows(&bt, backwards).await.is_empty());
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

/// A write of 1,001 rows whose last repeats the first's key with a new
/// value keeps the new value, as `MemStore` does: the two rows once went
/// out in two batches in flight together, and the old value survived in
/// 8 of 20 runs. Twenty writes, each with values of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_key_in_one_write_keeps_the_later_value() {
    let emu = Emulator::start();
    let bt = table(&emu, "repeat", &SplitKeys::new(Vec::<Vec<u8>>::new())).await;
    for run in 0..20u32 {
        let mut written: Vec<Row> = (0..1000u32)
            .map(|i| {
                let cells = vec![
                    Cell::new("d", "v", format!("old{run}")),
                    Cell::new("d", "w", format!("kept{run}")),
                ];
                Row::new(format!("row{i:04}").into_bytes(), cells)
            })
            .collect();
        written.push(Row::new(
            "row0000",
            vec![Cell::new("d", "v", format!("new{run}"))],
        ));
        bt.write_rows(written).await.unwrap();
        let row = bt.read_row(b"row0000").await.unwrap().expect("the row");
        let new = format!("new{run}");
        assert_eq!(row.value("d", "v"), Some(new.as_bytes()), "run {run}");
        let kept = format!("kept{run}");
        assert_eq!(row.value("d", "w"), Some(kept.as_bytes()), "run {run}");
    }
}

/// The blocking indexed store on Bigtable, called from a plain thread: the
/// clients are connected on the blocking runtime, which then drives every
/// call.
#[test]
fn blocking_indexed_store_on_the_emulator() {
    use rowkey::store::blocking::BlockOn;
    use rowkey_bigtable::blocking::{self, IndexedBigtableStore, Runtime};
    use rowkey_fixtures::layouts::{BuyerTrade, SellerTrade, Trade};

    let emu = Emulator::start();
    for (name, family) in [("seller_trades", "d"), ("buyer_trades", "i")] {
        let families = [family];
        let spec = TableSpec::new(name, &families);
        blocking::create_table(Some(&emu.host), "p", "i", &spec).unwrap();
    }
    let rt = Runtime::new().unwrap();
    let (main, index) = rt
        .block_on("connect", async {
            let main = BigtableStore::connect_emulator(&emu.host, "p", "i", "seller_trades").await;
            let index = BigtableStore::connect_emulator(&emu.host, "p", "i", "buyer_trades").await;
            (main.unwrap(), index.unwrap())
        })
        .unwrap();
    let store = IndexedBigtableStore::with_executor(IndexedStore::new(main, index), rt);
    let trades = Trade::rows(200);
    for t in &trades {
        store.put_record::<BuyerTrade, _>(t).unwrap();
    }
    let buyer = trades[0].buyer_id;
    let plan = BuyerTrade::scan().buyer_id.eq(buyer).plan().unwrap();
    let mut rows = store.query_records::<BuyerTrade, Trade, _>(&plan);
    let got = rows.by_ref().collect::<Result<Vec<_>, _>>().unwrap();
    let mut want: Vec<&Trade> = trades.iter().filter(|t| t.buyer_id == buyer).collect();
    want.sort_by_key(|t| BuyerTrade::index_key(*t).to_vec().unwrap());
    assert!(got.iter().eq(want.iter().copied()));
    assert_eq!(rows.stats().joined as usize, want.len());
    let joined: Vec<SellerTrade> = store
        .query_index(&plan)
        .map(|r| r.unwrap().key_as::<SellerTrade>().unwrap())
        .collect();
    assert_eq!(joined.len(), want.len());
}
