//! The blocking HBaseStore (`rowkey_hbase::blocking`), as code without an
//! async runtime uses it: connect, put, get, query a salted plan merged in
//! key order, page through it, delete, and a store of records; all on a
//! plain thread, no runtime anywhere. Shared by the test binaries of both
//! transports (`#[path]`).

use rowkey::store::admin::TableSpec;
use rowkey::store::blocking::{BlockingStore, ParkingExecutor};
use rowkey::store::Cell;
use rowkey::RowKey;
use rowkey_hbase::blocking;

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Reading {
    #[salt(buckets = 4, binary)]
    device: u32,
    #[desc_ts]
    at: i64,
}

/// The whole check, on the HBase at `address` (a Thrift server's
/// `host:port`, or a native `zk://`), in table `table`.
pub fn check(address: &str, table: &str) {
    let client = blocking::client(address).unwrap();
    let table = table.to_owned();
    blocking::block_on(client.admin().create_table(&TableSpec::new(&table, &["d"]))).unwrap();
    let store = blocking::connect(address, &table).unwrap();
    for device in 0..10u32 {
        for at in 0..20i64 {
            store
                .put(
                    &Reading { device, at },
                    vec![Cell::new("d", "v", at.to_string())],
                )
                .unwrap();
        }
    }
    let one = store.get(&Reading { device: 3, at: 7 }).unwrap().unwrap();
    assert_eq!(one.value("d", "v"), Some(&b"7"[..]));
    // Newest first, one device: one bucket.
    let plan = Reading::scan().device.eq(3).at.latest(5).unwrap();
    let ats: Vec<i64> = store
        .query(&plan)
        .map(|r| r.unwrap().key_as::<Reading>().unwrap().at)
        .collect();
    assert_eq!(ats, [19, 18, 17, 16, 15]);
    // Every device, merged over the four buckets in key order, in pages.
    let all = Reading::scan().plan().unwrap();
    let mut cursor = None;
    let mut seen = Vec::new();
    loop {
        let page = store.page(&all, cursor.as_ref(), 33).unwrap();
        seen.extend(page.rows.iter().map(|r| r.key_as::<Reading>().unwrap()));
        match page.next {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(seen.len(), 200);
    assert!(seen
        .windows(2)
        .all(|w| (w[0].device, -w[0].at) < (w[1].device, -w[1].at)));
    store.delete(&Reading { device: 3, at: 7 }).unwrap();
    assert!(store.get(&Reading { device: 3, at: 7 }).unwrap().is_none());
    // The same client's table, driven by hand.
    let again = BlockingStore::with_executor(client.table(&table), ParkingExecutor);
    assert_eq!(again.query(&all).count(), 199);
}
