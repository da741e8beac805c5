//! The ten seed layouts end to end: 10,000 generated rows each written
//! through a store into a pre-split table, every query of the layout
//! answered through the typed builders and compared with a brute-force
//! filter over the generated rows. Each layout runs on `MemStore` and, with
//! the `bigtable` feature, on `BigtableStore` against the Cloud Bigtable
//! emulator (one per test, started and stopped by the harness), and with
//! the `hbase` feature on `HBaseStore` against a real HBase: through its
//! Thrift 1 server (one for the test binary, `rowkey_fixtures::hbase`),
//! in tables that are not pre-split (Thrift 1 cannot create them so), and
//! natively against a cluster of three region servers
//! (`rowkey_fixtures::hbase::cluster`), each table pre-split at the
//! layout's split keys.

use futures::{StreamExt, TryStreamExt};
use rowkey::split::SplitKeys;
use rowkey::store::{Cell, IndexedStore, MemStore, Row, Store, StoreExt};
use rowkey::{IndexOf, RowKey};
use rowkey_fixtures::layouts::*;
use std::time::Instant;

const ROWS: usize = 10_000;

/// Where a layout's rows go: a fresh store per table.
trait Tables {
    type S: Store;
    async fn table(&mut self, name: &str, splits: &SplitKeys) -> Self::S;
}

struct Mem;
impl Tables for Mem {
    type S = MemStore;
    async fn table(&mut self, _: &str, _: &SplitKeys) -> MemStore {
        MemStore::new()
    }
}

#[cfg(feature = "bigtable")]
struct Bigtable(rowkey_fixtures::emulator::Emulator);
#[cfg(feature = "bigtable")]
impl Tables for Bigtable {
    type S = rowkey::bigtable::BigtableStore;
    async fn table(&mut self, name: &str, splits: &SplitKeys) -> Self::S {
        use rowkey::bigtable::{BigtableAdmin, BigtableStore, TableSpec};
        let host = &self.0.host;
        let admin = BigtableAdmin::connect_emulator(host, "p", "i").unwrap();
        admin
            // `i`: an index table's family.
            .create_table(&TableSpec::new(name, &["d", "i"]).splits(splits))
            .await
            .unwrap();
        BigtableStore::connect_emulator(host, "p", "i", name)
            .await
            .unwrap()
    }
}

#[cfg(feature = "hbase")]
struct HBase;
#[cfg(feature = "hbase")]
impl Tables for HBase {
    type S = rowkey::hbase::HBaseStore;
    async fn table(&mut self, name: &str, _: &SplitKeys) -> Self::S {
        use rowkey::hbase::HBaseClient;
        use rowkey::store::admin::TableSpec;
        let address = &rowkey_fixtures::hbase::shared().thrift;
        let client = HBaseClient::connect(address).await.unwrap();
        // Named after the process too: each test binary has a server of
        // its own, but a name says where a table came from.
        let name = format!("{name}_{}", std::process::id());
        client
            .admin()
            .create_table(&TableSpec::new(&name, &["d", "i"]))
            .await
            .unwrap();
        client.table(&name)
    }
}

/// The native transport on a cluster of three region servers
/// (`rowkey_fixtures::hbase::cluster`), each table pre-split at the
/// layout's split keys, as the seed posts advise.
#[cfg(feature = "hbase")]
struct HBaseNative;
#[cfg(feature = "hbase")]
impl Tables for HBaseNative {
    type S = rowkey::hbase::HBaseStore;
    async fn table(&mut self, name: &str, splits: &SplitKeys) -> Self::S {
        use rowkey::hbase::HBaseClient;
        use rowkey::store::admin::TableSpec;
        let address = rowkey_fixtures::hbase::cluster().zk_address();
        let client = HBaseClient::connect(&address).await.unwrap();
        let name = format!("{name}_native_{}", std::process::id());
        client
            .admin()
            .create_table(&TableSpec::new(&name, &["d", "i"]).splits(splits))
            .await
            .unwrap();
        client.table(&name)
    }
}

async fn load<K: RowKey>(store: &impl Store, rows: &[K], cells: impl Fn(usize) -> Vec<Cell>) {
    let rows: Vec<Row> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| Row::new(r.to_vec().unwrap(), cells(i)))
        .collect();
    store.write_rows(rows).await.unwrap();
}

/// The keys of a plan's rows, as the store streams them.
async fn keys<S: Store, const N: usize>(
    store: &S,
    plan: &rowkey::scan::ScanPlan<N>,
) -> Vec<Vec<u8>> {
    let rows: Vec<Row> = store.query(plan).try_collect().await.unwrap();
    rows.into_iter().map(|r| r.key).collect()
}

/// The keys the query's filter keeps, in logical order (descending when
/// `reversed`), cut at the plan's limit.
fn brute_force<K: RowKey, const N: usize>(
    rows: &[K],
    q: &Query<K, N>,
    reversed: bool,
) -> Vec<Vec<u8>> {
    let skip = q.plan.prefix_len();
    let mut want: Vec<Vec<u8>> = rows
        .iter()
        .filter(|r| (q.keep)(r))
        .map(|r| r.to_vec().unwrap())
        .collect();
    want.sort_by(|a, b| a[skip..].cmp(&b[skip..]));
    want.dedup();
    if reversed {
        want.reverse();
    }
    want.truncate(q.plan.limit().unwrap_or(usize::MAX));
    want
}

/// The query's rows from the store must be the filter's, in logical key
/// order, cut at the plan's limit; `read_plan` (one multi-range read) must
/// return the same rows in stored key order. Returns how many rows matched.
async fn check<K: RowKey, const N: usize>(
    store: &impl Store,
    rows: &[K],
    q: &Query<K, N>,
) -> usize {
    let got = keys(store, &q.plan).await;
    let want = brute_force(rows, q, false);
    assert!(
        !want.is_empty(),
        "{}: the generated rows should match",
        q.name
    );
    assert_eq!(got.len(), want.len(), "{}", q.name);
    assert!(got == want, "{}: rows differ", q.name);
    // The same plan read backwards: the last rows, last first.
    let back = keys(store, &q.plan.clone().reversed()).await;
    assert!(
        back == brute_force(rows, q, true),
        "{}: reversed rows differ",
        q.name
    );
    if q.plan.limit().is_none() {
        let stored: Vec<Row> = store.read_plan(&q.plan).try_collect().await.unwrap();
        let mut sorted = want.clone();
        sorted.sort();
        let stored: Vec<Vec<u8>> = stored.into_iter().map(|r| r.key).collect();
        assert!(stored == sorted, "{}: read_plan differs", q.name);
    }
    got.len()
}

async fn run<K: RowKey, const N: usize, T: Tables>(
    tables: &mut T,
    name: &str,
    rows: &[K],
    splits: &SplitKeys,
    queries: Vec<Query<K, N>>,
) -> T::S {
    let start = Instant::now();
    let store = tables.table(name, splits).await;
    load(&store, rows, |i| vec![Cell::new("d", "i", i.to_string())]).await;
    let mut matched = 0;
    for q in &queries {
        matched += check(&store, rows, q).await;
    }
    eprintln!(
        "{name}: {} rows written, {} queries ({matched} rows) checked in {:.2?}",
        rows.len(),
        queries.len(),
        start.elapsed()
    );
    store
}

async fn order_status(t: &mut impl Tables) {
    let rows = OrderStatus::rows(ROWS);
    run(
        t,
        "order_status",
        &rows,
        &OrderStatus::splits(),
        OrderStatus::queries(&rows),
    )
    .await;
}

async fn hot_events(t: &mut impl Tables) {
    let rows = HotEvent::rows(ROWS);
    let queries = HotEvent::queries(&rows);
    let plan = queries[0].plan.clone();
    let store = run(t, "hot_events", &rows, &HotEvent::split_keys(), queries).await;
    // Keyset pages of 7 through the store: every row once, in order.
    let all = keys(&store, &plan).await;
    let (mut resume, mut paged) = (None::<rowkey::scan::Cursor>, Vec::new());
    loop {
        let page = store.page(&plan, resume.as_ref(), 7).await.unwrap();
        paged.extend(page.rows.into_iter().map(|r| r.key));
        match page.next {
            Some(next) => resume = Some(next),
            None => break,
        }
    }
    assert_eq!(paged, all, "keyset pages");
    // Backwards, in pages of 7: every row once, last first.
    let back = plan.reversed();
    let (mut resume, mut paged) = (None::<rowkey::scan::Cursor>, Vec::new());
    loop {
        let page = store.page(&back, resume.as_ref(), 7).await.unwrap();
        paged.extend(page.rows.into_iter().map(|r| r.key));
        match page.next {
            Some(next) => resume = Some(next),
            None => break,
        }
    }
    let mut all_back = all.clone();
    all_back.reverse();
    assert_eq!(paged, all_back, "reversed keyset pages");
    eprintln!("hot_events: {} rows read back in pages of 7", paged.len());
}

async fn trades(t: &mut impl Tables) {
    let trades = Trade::rows(ROWS);
    let sellers: Vec<SellerTrade> = trades.iter().map(Trade::seller_key).collect();
    let buyers: Vec<BuyerTrade> = trades.iter().map(BuyerTrade::index_key).collect();
    let main = run(
        t,
        "seller_trades",
        &sellers,
        &SellerTrade::split_keys(),
        SellerTrade::queries(&trades),
    )
    .await;
    // Each trade written as a record: its cells into the seller row, and
    // the buyer index row built from the record.
    let start = Instant::now();
    let index = t.table("buyer_trades", &SplitKeys::decimal_string(8)).await;
    let store = IndexedStore::new(main, index);
    futures::stream::iter(&trades)
        .map(|tr| store.put_record::<BuyerTrade, _>(tr))
        .buffer_unordered(32)
        .try_collect::<()>()
        .await
        .unwrap();
    let mut matched = 0;
    for q in BuyerTrade::queries(&trades) {
        matched += check(store.index(), &buyers, &q).await;
        // Joined back to the seller table, read back as trades.
        let mut found = store.query_records::<BuyerTrade, Trade, _>(&q.plan);
        let joined: Vec<Trade> = (&mut found).try_collect().await.unwrap();
        let mut want: Vec<&Trade> = trades
            .iter()
            .filter(|tr| (q.keep)(&BuyerTrade::index_key(tr)))
            .collect();
        want.sort_by_key(|tr| BuyerTrade::index_key(tr).to_vec().unwrap());
        let want: Vec<Trade> = want.into_iter().cloned().collect();
        assert_eq!(joined, want, "buyer's trades joined to the seller table");
        let stats = found.stats();
        assert_eq!((stats.missing, stats.stale), (0, 0), "{stats:?}");
    }
    eprintln!(
        "buyer_trades: {ROWS} trades written as records, {matched} index rows checked and joined in {:.2?}",
        start.elapsed()
    );
}

async fn risk_profile(t: &mut impl Tables) {
    let rows = RiskProfile::rows(ROWS);
    let store = run(
        t,
        "risk_profile",
        &rows,
        &RiskProfile::splits(),
        RiskProfile::queries(&rows),
    )
    .await;
    for r in rows.iter().step_by(997) {
        assert!(store.get(r).await.unwrap().is_some(), "point get {}", r.uid);
    }
    assert!(store
        .get(&RiskProfile {
            uid: "nobody".into()
        })
        .await
        .unwrap()
        .is_none());
    // The same lookups by ID card and by phone, each its own table.
    let cards = IdCardProfile::rows(ROWS);
    let by_card = t.table("risk_by_id_card", &RiskProfile::splits()).await;
    load(&by_card, &cards, |i| {
        vec![Cell::new("d", "uid", rows[i].uid.as_bytes())]
    })
    .await;
    let phones = PhoneProfile::rows(ROWS);
    let by_phone = t.table("risk_by_phone", &RiskProfile::splits()).await;
    load(&by_phone, &phones, |i| {
        vec![Cell::new("d", "uid", rows[i].uid.as_bytes())]
    })
    .await;
    for i in (0..ROWS).step_by(1_001) {
        let via_card = by_card.get(&cards[i]).await.unwrap().expect("id card row");
        let via_phone = by_phone.get(&phones[i]).await.unwrap().expect("phone row");
        assert_eq!(via_card.value("d", "uid"), Some(rows[i].uid.as_bytes()));
        assert_eq!(via_phone.value("d", "uid"), Some(rows[i].uid.as_bytes()));
    }
    eprintln!("risk_profile: {ROWS} id card and {ROWS} phone rows written, point gets checked");
}

async fn car_telemetry(t: &mut impl Tables) {
    let rows = CarTelemetry::rows(ROWS);
    run(
        t,
        "car_telemetry",
        &rows,
        &CarTelemetry::splits(),
        CarTelemetry::queries(&rows),
    )
    .await;
}

async fn user_ops(t: &mut impl Tables) {
    let rows = UserOp::rows(ROWS);
    run(
        t,
        "user_ops",
        &rows,
        &UserOp::splits(),
        UserOp::queries(&rows),
    )
    .await;
}

async fn site_pages(t: &mut impl Tables) {
    let rows = SitePage::rows(ROWS);
    run(
        t,
        "site_pages",
        &rows,
        &SitePage::splits(),
        SitePage::queries(&rows),
    )
    .await;
}

async fn call_records(t: &mut impl Tables) {
    let rows = CallRecord::rows(ROWS);
    // The table is created pre-split at 0| .. 4| (the emulator reports
    // samples, not tablets, so the check is against these keys).
    let splits = CallRecord::split_keys();
    assert_eq!(splits.to_string(), "0|\n1|\n2|\n3|\n4|\n");
    run(
        t,
        "call_records",
        &rows,
        &splits,
        CallRecord::queries(&rows),
    )
    .await;
    // Every row lands in the region of the bucket the Java formula gives.
    for r in &rows {
        let key = r.to_vec().unwrap();
        assert_eq!(splits.region_of(&key), call_bucket(r) as usize, "{r:?}");
    }
}

async fn spending_ledger(t: &mut impl Tables) {
    let rows = Ledger::rows(ROWS);
    let queries = Ledger::queries(&rows);
    assert_eq!((queries[0].plan.len(), queries[1].plan.len()), (1, 10));
    run(t, "spending_ledger", &rows, &Ledger::split_keys(), queries).await;
}

macro_rules! layouts {
    ($($name:ident),* $(,)?) => {
        mod mem {
            $(#[tokio::test] async fn $name() { super::$name(&mut super::Mem).await; })*
        }
        // The emulator runs on the multi-thread runtime, as services do;
        // rowkey-bigtable/tests/it/conformance.rs runs the current-thread one.
        #[cfg(feature = "bigtable")]
        mod bigtable {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)] async fn $name() {
                let emulator = rowkey_fixtures::emulator::Emulator::start();
                super::$name(&mut super::Bigtable(emulator)).await;
            })*
        }
        #[cfg(feature = "hbase")]
        mod hbase {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)] async fn $name() {
                super::$name(&mut super::HBase).await;
            })*
        }
        #[cfg(feature = "hbase")]
        mod hbase_native {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)] async fn $name() {
                super::$name(&mut super::HBaseNative).await;
            })*
        }
    };
}

layouts!(
    order_status,
    hot_events,
    trades,
    risk_profile,
    car_telemetry,
    user_ops,
    site_pages,
    call_records,
    spending_ledger,
);
