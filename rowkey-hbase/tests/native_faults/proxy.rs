//! Every connection to a region server through a proxy that cuts them
//! all every 300 ms (servers' addresses come from `hbase:meta`, so the
//! client maps each to its proxy): reads resume after the last row they
//! delivered, stamped writes are retried, and every read still holds.

use crate::harness::{check_read, key, patient, requests, Model};
use rowkey::store::Store;
use rowkey_fixtures::proxy::FaultProxy;
use rowkey_hbase::HBaseClient;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_cut_every_300_ms() {
    const N: u32 = 8_000;
    let proxies: Arc<Mutex<HashMap<String, Arc<FaultProxy>>>> = Arc::default();
    let map = {
        let proxies = proxies.clone();
        move |server: &str| {
            let mut proxies = proxies.lock().unwrap();
            let proxy = proxies
                .entry(server.to_owned())
                .or_insert_with(|| Arc::new(FaultProxy::start(server)));
            proxy.addr.clone()
        }
    };
    let options = rowkey_hbase::hbase_native::Options::default().address_map(map);
    let client =
        HBaseClient::connect_native(&rowkey_fixtures::hbase::cluster().zk_address(), options)
            .await
            .unwrap();
    let (store, mut model) = crate::harness::table(&client, N, &[2_000, 4_000, 6_000]).await;
    let stop = Arc::new(AtomicBool::new(false));
    let cutter = {
        let (proxies, stop) = (proxies.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut cuts = 0;
            while !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(300));
                for proxy in proxies.lock().unwrap().values() {
                    proxy.cut_all();
                }
                cuts += 1;
            }
            cuts
        })
    };
    let store = store.with_retry(patient());
    for round in 0..3u32 {
        for (request, what) in requests(N) {
            check_read(&store, &model, request, &format!("round {round}: {what}")).await;
        }
        let fresh: Model = (0..1_000)
            .map(|i| (key(i * 8 + round), format!("c{round}").into_bytes()))
            .collect();
        crate::harness::write(&store, &fresh).await;
        model.extend(fresh);
    }
    stop.store(true, Ordering::SeqCst);
    let cuts = cutter.join().unwrap();
    let cut: usize = proxies.lock().unwrap().values().map(|p| p.cuts()).sum();
    assert!(
        cuts > 3 && cut > 0,
        "{cuts} rounds of cuts, {cut} connections cut"
    );
    assert_eq!(store.key_limit().store, "HBase");
}
