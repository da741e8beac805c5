//! Bounded memory of bulk loads through an index, proven with a counting
//! allocator: the peak heap while `put_records` loads 20,000 trades and
//! while it loads 100,000 (from iterators that make each trade as it is
//! asked for), on the emulator and on a store that drops what it is
//! given, is the same in small batches and stays under a bound set by the
//! batching, not by the records, with the defaults.

use rowkey::store::{
    IndexedStore, KeyLimit, PutRecordsOptions, ReadRequest, Row, RowStream, Store, StoreError,
};
use rowkey::RowKey;
use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::alloc::{live_bytes, peak_bytes, reset_peak, Counting};
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::layouts::{BuyerTrade, SellerTrade, Trade, T0};
use std::future::Future;

#[global_allocator]
static HEAP: Counting = Counting;

/// A store that accepts every write and keeps nothing: what the load
/// itself holds.
#[derive(Clone)]
struct Drop;

impl Store for Drop {
    fn key_limit(&self) -> KeyLimit {
        KeyLimit::BIGTABLE
    }
    fn write_rows(&self, rows: Vec<Row>) -> impl Future<Output = Result<(), StoreError>> + Send {
        std::future::ready(KeyLimit::BIGTABLE.check_rows(&rows))
    }
    fn delete_rows(
        &self,
        _keys: Vec<Vec<u8>>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        std::future::ready(Ok(()))
    }
    fn read_rows(&self, _request: ReadRequest) -> RowStream {
        Box::pin(futures::stream::empty())
    }
}

/// `n` trades, each made when the load asks for it.
fn trades(n: u64) -> impl Iterator<Item = Trade> {
    (0..n).map(|i| Trade {
        seller_id: 1000 + (i % 50) as u32,
        buyer_id: 5000 + (i % 300) as u32,
        ts: T0 + i * 1_000,
        order_id: i,
    })
}

/// Loads `n` trades: (records, peak heap bytes above what was live
/// before).
async fn load<S: Store, I: Store>(
    store: &IndexedStore<S, I>,
    n: u64,
    options: PutRecordsOptions,
) -> (u64, usize) {
    reset_peak();
    let before = live_bytes();
    let done = store
        .put_records_with::<BuyerTrade, _>(trades(n), options, |_| {})
        .await
        .expect("the load");
    (done.records, peak_bytes().saturating_sub(before))
}

/// 20,000 then 100,000 trades, with small batches and with the defaults.
/// With small batches both loads reach their steady state many times
/// over: the peak does not grow with the records. With the defaults the
/// peak depends on what HTTP/2 holds when the most writes are in flight
/// (20,000 trades measured 2.6 to 3.8 MiB; 100,000 and 300,000 about
/// 4.8 and 5.1 MiB): it stays under a bound set by the batching.
async fn measure<S: Store, I: Store, F: Future<Output = IndexedStore<S, I>>>(
    what: &str,
    mut tables: impl FnMut(u64) -> F,
) {
    let small = PutRecordsOptions::default().batch_records(200).in_flight(2);
    for (options, name, bound, steady) in [
        (small, "batches of 200, 2 in flight", 2 << 20, true),
        // (4 + 2) batches of 1,000 trades, main and index rows: about 1.5
        // MiB of rows, 8 MiB with what the transport holds.
        (PutRecordsOptions::default(), "the defaults", 8 << 20, false),
    ] {
        let mut peaks = Vec::new();
        for n in [20_000, 100_000] {
            let store = tables(n).await;
            peaks.push(load(&store, n, options).await);
        }
        let [(n_small, small), (n_large, large)] = peaks[..] else {
            unreachable!()
        };
        eprintln!(
            "{what}, {name}: peak heap while loading {n_small} trades: {} KiB; {n_large} trades: {} KiB",
            small / 1024,
            large / 1024
        );
        assert_eq!((n_small, n_large), (20_000, 100_000));
        assert!(
            large <= bound && small <= bound,
            "{what}, {name}: {small} and {large} bytes, over the bound of {bound}"
        );
        // Five times the records, not five times the memory: at most half
        // as much again, or 1 MiB, whichever is larger.
        let allowed = small + (small / 2).max(1 << 20);
        assert!(
            !steady || large <= allowed,
            "{what}, {name}: the peak grew with the records: {large} vs {small} bytes"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bulk_load_holds_bounded_memory() {
    measure("a store that keeps nothing", |_| async {
        IndexedStore::new(Drop, Drop)
    })
    .await;

    let emu = Emulator::start();
    let admin = BigtableAdmin::connect_emulator(&emu.host, "p", "i").unwrap();
    let (admin, host) = (&admin, &emu.host);
    let mut run = 0;
    measure("BigtableStore (emulator)", |n| {
        run += 1;
        async move {
            let (main, index) = (format!("trades{n}_{run}"), format!("by_buyer{n}_{run}"));
            let splits = SellerTrade::split_keys();
            admin
                .create_table(&TableSpec::new(&main, &["d"]).splits(&splits))
                .await
                .unwrap();
            admin
                .create_table(&TableSpec::new(&index, &["i"]))
                .await
                .unwrap();
            let connect = |t: String| async move {
                BigtableStore::connect_emulator(host, "p", "i", &t)
                    .await
                    .unwrap()
            };
            IndexedStore::new(connect(main).await, connect(index).await)
        }
    })
    .await;
}
