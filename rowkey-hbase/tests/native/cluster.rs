//! The cluster these tests run against, and fresh tables pre-split over
//! its region servers.

use rowkey::store::admin::TableSpec;
use rowkey_core::split::SplitKeys;
use rowkey_hbase::HBaseClient;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `zk://127.0.0.1:PORT` of the shared cluster (`crate::cluster`).
pub fn address() -> String {
    crate::cluster().zk_address()
}

/// A native client of the shared cluster, with `crate::native_options`.
pub async fn client() -> HBaseClient {
    HBaseClient::connect_native(&address(), crate::native_options())
        .await
        .expect("a native client of the test cluster")
}

/// Split keys that spread the suite's keys (bytes of every value) over
/// several regions: before 0x20, 0x40, ... 0xe0.
pub fn spread() -> SplitKeys {
    SplitKeys::new((1u8..8).map(|i| vec![i * 0x20]))
}

/// A new, empty table with `families`, pre-split as [`spread`] says.
pub async fn fresh_table(client: &HBaseClient, families: &[&str]) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let name = format!(
        "n{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    );
    let splits = spread();
    client
        .admin()
        .create_table(&TableSpec::new(&name, families).splits(&splits))
        .await
        .unwrap_or_else(|e| panic!("creating table {name}: {e:?}"));
    name
}
