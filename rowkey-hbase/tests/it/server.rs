//! The HBase these tests run against: one standalone HBase and its
//! Thrift 1 server for the whole test binary (`rowkey_fixtures::hbase`),
//! started on first use, and a fresh table per test.

use rowkey::store::admin::TableSpec;
use rowkey_hbase::HBaseClient;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The Thrift server's address: the shared server's, or the one at
/// `ROWKEY_HBASE_DEV_THRIFT` while developing (a server kept running with
/// `cargo run -p rowkey-fixtures --bin hbase-server`; the Java client
/// checks and the wrong-server checks still start the shared one).
pub fn address() -> String {
    if let Ok(a) = std::env::var("ROWKEY_HBASE_DEV_THRIFT") {
        return a;
    }
    rowkey_fixtures::hbase::shared().thrift.clone()
}

/// A client of the shared server.
pub async fn client() -> HBaseClient {
    HBaseClient::connect(&address())
        .await
        .expect("a client of the test HBase")
}

/// A new, empty table with `families`, named after a counter (and the
/// process, so that reruns on a kept server never meet an old table).
pub async fn fresh_table(client: &HBaseClient, families: &[&str]) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let name = format!(
        "t{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    );
    client
        .admin()
        .create_table(&TableSpec::new(&name, families))
        .await
        .unwrap_or_else(|e| panic!("creating table {name}: {e:?}"));
    name
}
