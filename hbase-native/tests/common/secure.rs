//! What the secure-cluster tests share (`kerberos.rs`, `tls.rs`): tapping
//! proxies before every server, a table written and read back every way,
//! and the error a refused client meets in bounded time.

use futures::TryStreamExt;
use hbase_native::{Client, Error, Options, RowMutation, Scan};
use rowkey_fixtures::hbase::HBase;
use rowkey_fixtures::proxy::FaultProxy;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A proxy before every server the client meets, made as it meets them,
/// each tapped: what a wire-tapper between client and cluster sees.
#[derive(Clone, Default)]
pub struct Taps(Arc<Mutex<HashMap<String, Arc<FaultProxy>>>>);

impl Taps {
    /// Options whose connections go through the taps; the servers keep
    /// their names (`localhost:PORT`), which the service principal needs.
    pub fn options(&self) -> Options {
        let taps = self.clone();
        Options::default().attempts(3).address_map(move |server| {
            let mut taps = taps.0.lock().unwrap();
            let proxy = taps.entry(server.to_owned()).or_insert_with(|| {
                let proxy = FaultProxy::start(server);
                proxy.tap();
                Arc::new(proxy)
            });
            proxy.addr.clone()
        })
    }

    /// Every byte each way, over all servers.
    pub fn seen(&self) -> (Vec<u8>, Vec<u8>) {
        let (mut up, mut down) = (Vec::new(), Vec::new());
        for proxy in self.0.lock().unwrap().values() {
            let (u, d) = proxy.tapped();
            up.extend(u);
            down.extend(d);
        }
        (up, down)
    }

    /// Connections made through the taps.
    pub fn connections(&self) -> usize {
        self.0
            .lock()
            .unwrap()
            .values()
            .map(|p| p.connections())
            .sum()
    }

    pub fn cut_all(&self) {
        for proxy in self.0.lock().unwrap().values() {
            proxy.cut_all();
        }
    }
}

pub fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// What goes in the values: a marker a tapper can look for.
pub const MARKER: &[u8] = b"rowkey-kerberos-plaintext-marker";

/// Creates `table`, writes `n` rows and reads them back every way.
pub async fn round_trip(client: &Client, table: &str, n: u32) {
    let admin = client.admin();
    let _ = admin.delete_table(table).await;
    admin
        .create_table(table, &["d"], &[b"row00500".to_vec()])
        .await
        .expect("create");
    let rows: BTreeMap<Vec<u8>, Vec<u8>> = (0..n)
        .map(|i| {
            // Values of many sizes: wrap tokens of many sizes, one past
            // 64 KiB (HBase's default SASL buffer).
            let len = if i == 7 {
                70_000
            } else {
                (i as usize * 37) % 5000
            };
            let mut value = MARKER.to_vec();
            value.resize(MARKER.len() + len, b'a' + (i % 26) as u8);
            (format!("row{i:05}").into_bytes(), value)
        })
        .collect();
    let mutations = rows
        .iter()
        .map(|(k, v)| RowMutation::put(k.clone()).set(b"d", b"q", v).at(1))
        .collect();
    client.mutate(table, mutations).await.expect("write");
    let got: Vec<_> = client
        .scan(table, Scan::all().caching(97))
        .try_collect()
        .await
        .expect("scan");
    let got: BTreeMap<Vec<u8>, Vec<u8>> = got
        .into_iter()
        .map(|r| (r.row, r.cells[0].value.clone()))
        .collect();
    assert_eq!(got, rows);
    let reversed: Vec<_> = client
        .scan(table, Scan::all().reversed().limit(10))
        .try_collect()
        .await
        .expect("reversed scan");
    assert_eq!(reversed.len(), 10);
    assert_eq!(reversed[0].row, format!("row{:05}", n - 1).into_bytes());
}

/// The error of a client with `options` on `server`: at connect or at its
/// first call, within 30 s.
pub async fn refused(server: &HBase, options: Options) -> Error {
    let started = Instant::now();
    let attempt = async {
        let client = Client::connect_with(&server.zk_address(), options).await?;
        client.admin().table_names().await.map(drop)
    };
    let e = tokio::time::timeout(Duration::from_secs(30), attempt)
        .await
        .expect("an answer in bounded time")
        .expect_err("refused");
    eprintln!("refused after {:?}: {e}", started.elapsed());
    e
}
