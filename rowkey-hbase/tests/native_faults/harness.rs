//! What the fault tests share: the cluster, tables with known rows, and
//! reads checked against them.

use futures::TryStreamExt;
use rowkey::store::admin::TableSpec;
use rowkey::store::{Cell, KeyRange, ReadRequest, RetryPolicy, Row, Store};
use rowkey_core::split::SplitKeys;
use rowkey_fixtures::proxy::{Fault, FaultProxy};
use rowkey_hbase::{HBaseClient, HBaseStore};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a table holds: key to value.
pub type Model = BTreeMap<Vec<u8>, Vec<u8>>;

/// Row `i`'s key: `k` and eight digits, so keys sort as numbers.
pub fn key(i: u32) -> Vec<u8> {
    format!("k{i:08}").into_bytes()
}

/// A policy that outlasts a region server's death: its regions reopen
/// elsewhere within seconds (the harness's ZooKeeper session is 6 s).
pub fn patient() -> RetryPolicy {
    RetryPolicy::default()
        .attempts(60)
        .backoff_between(Duration::from_millis(100), Duration::from_secs(2))
        .idle_timeout(Duration::from_secs(20))
}

/// A native client of this binary's cluster (`crate::cluster`, with
/// `crate::native_options`: the binaries that share these tests run them
/// on an open and on a Kerberized cluster).
pub async fn client() -> HBaseClient {
    HBaseClient::connect_native(&crate::cluster().zk_address(), crate::native_options())
        .await
        .expect("a native client")
}

/// Runs a cluster command on a blocking thread; panics with why if it fails.
pub async fn command(line: &str) -> String {
    let line = line.to_owned();
    tokio::task::spawn_blocking(move || {
        crate::cluster()
            .command(&line)
            .unwrap_or_else(|e| panic!("cluster command failed: {e}"))
    })
    .await
    .unwrap()
}

/// A fresh table of `n` rows `key(0..n)`, pre-split at `splits` (row
/// numbers), written through `store`'s client.
pub async fn table(client: &HBaseClient, n: u32, splits: &[u32]) -> (HBaseStore, Model) {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let name = format!(
        "f{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    );
    let split_keys = SplitKeys::new(splits.iter().map(|&i| key(i)));
    client
        .admin()
        .create_table(&TableSpec::new(&name, &["d"]).splits(&split_keys))
        .await
        .unwrap();
    let store = client.table(&name).with_retry(patient());
    let model: Model = (0..n)
        .map(|i| (key(i), format!("v{i}").into_bytes()))
        .collect();
    write(&store, &model).await;
    (store, model)
}

/// Writes `rows` to `store`.
pub async fn write(store: &HBaseStore, rows: &Model) {
    let rows = rows
        .iter()
        .map(|(k, v)| Row::new(k.clone(), vec![Cell::new("d", "v", v)]))
        .collect();
    store.write_rows(rows).await.expect("a write");
}

/// Reads `request` (a page of `page_rows` rows a round trip, pausing
/// between rows now and then so that faults land mid-scan) and checks it
/// against `model`: the same keys and values, in order, none twice.
pub async fn check_read(store: &HBaseStore, model: &Model, request: ReadRequest, what: &str) {
    let mut want: Vec<(&Vec<u8>, &Vec<u8>)> =
        model.iter().filter(|(k, _)| request.contains(k)).collect();
    if request.is_reversed() {
        want.reverse();
    }
    if let Some(limit) = request.limit() {
        want.truncate(limit as usize);
    }
    let mut rows = store.clone().with_read_page_rows(97).read_rows(request);
    let mut got = Vec::new();
    while let Some(row) = rows
        .try_next()
        .await
        .unwrap_or_else(|e| panic!("{what}: {e}"))
    {
        if got.len() % 500 == 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        got.push((row.key.clone(), row.value("d", "v").map(<[u8]>::to_vec)));
    }
    // The first row that differs says where a read went wrong.
    let first_wrong = got
        .iter()
        .zip(&want)
        .position(|((gk, _), (wk, _))| gk != *wk);
    if let Some(i) = first_wrong.or((got.len() != want.len()).then(|| got.len().min(want.len()))) {
        let show = |k: Option<&Vec<u8>>| k.map(|k| String::from_utf8_lossy(k).into_owned());
        panic!(
            "{what}: {} rows read, {} wanted; row {i} is {:?}, wanted {:?} (the row before: {:?})",
            got.len(),
            want.len(),
            show(got.get(i).map(|(k, _)| k)),
            show(want.get(i).map(|(k, _)| *k)),
            show(i.checked_sub(1).and_then(|j| want.get(j)).map(|(k, _)| *k)),
        );
    }
    for (i, ((gk, gv), (wk, wv))) in got.iter().zip(&want).enumerate() {
        assert_eq!(gk, *wk, "{what}: row {i}");
        assert_eq!(
            gv.as_deref(),
            Some(wv.as_slice()),
            "{what}: value of row {i}"
        );
    }
}

/// Reads of every kind over `n` rows: whole, reversed, a range across
/// regions, several ranges, a limit.
pub fn requests(n: u32) -> Vec<(ReadRequest, String)> {
    let all = || ReadRequest::new([KeyRange::new(Vec::new(), None)]);
    vec![
        (all(), "everything".into()),
        (all().reversed(), "everything reversed".into()),
        (
            ReadRequest::new([KeyRange::new(key(n / 5), Some(key(n * 4 / 5)))]),
            "a range".into(),
        ),
        (
            ReadRequest::new(
                (0..40).map(|i| KeyRange::new(key(i * n / 40), Some(key(i * n / 40 + 30)))),
            ),
            "forty ranges".into(),
        ),
        (
            ReadRequest::new(
                (0..40).map(|i| KeyRange::new(key(i * n / 40), Some(key(i * n / 40 + 30)))),
            )
            .reversed(),
            "forty ranges reversed".into(),
        ),
        (all().with_limit(u64::from(n) / 3), "a limit".into()),
    ]
}

/// Each region server's proxy, by the server's address.
pub type Proxies = Arc<Mutex<HashMap<String, Arc<FaultProxy>>>>;

/// A table of `n` rows pre-split at `splits` on this binary's cluster,
/// through a client whose every region server connection goes through a
/// proxy of its own, each proxy given `faults()` for its first
/// connections when it starts.
pub async fn proxied_table(
    n: u32,
    splits: &[u32],
    policy: RetryPolicy,
    faults: impl Fn() -> Vec<Fault> + Send + Sync + 'static,
) -> (HBaseStore, Model, Proxies) {
    let proxies = Proxies::default();
    let map = {
        let proxies = proxies.clone();
        move |server: &str| {
            let mut proxies = proxies.lock().unwrap();
            let proxy = proxies.entry(server.to_owned()).or_insert_with(|| {
                let proxy = FaultProxy::start(server);
                proxy.plan(faults());
                Arc::new(proxy)
            });
            proxy.addr.clone()
        }
    };
    let options = crate::native_options().address_map(map);
    let client = HBaseClient::connect_native(&crate::cluster().zk_address(), options)
        .await
        .unwrap();
    let (store, model) = table(&client, n, splits).await;
    (store.with_retry(policy), model, proxies)
}
