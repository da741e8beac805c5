//! Read points under every way a scanner is lost while a read is held:
//! its lease expiring (then another writer's rows flushed and compacted)
//! and its region moved (then compacted on its new server). Once no scanner holds a read point, a flush keeps only the newest
//! version of a cell, so a scan reopened as of the lost scanner's point
//! would find no version of every row written since: half the rows went
//! missing that way. The read must deliver every row that was there
//! throughout, each once, in order, with a value it had at some time.
//!
//! A cluster of its own (two region servers, a scanner lease of 3 s), so
//! that a held read waits seconds, not a minute.

use futures::StreamExt;
use rowkey::store::admin::TableSpec;
use rowkey::store::{Cell, KeyRange, ReadRequest, Row, Store};
use rowkey_fixtures::hbase::{HBase, Options};
use rowkey_hbase::HBaseClient;
use std::sync::OnceLock;
use std::time::Duration;

const LEASE_MS: u64 = 3_000;
const ROWS: u32 = 2_000;

fn short_lease() -> &'static HBase {
    static HBASE: OnceLock<HBase> = OnceLock::new();
    HBASE.get_or_init(|| {
        HBase::try_start_with(&Options {
            settings: vec![
                (
                    "hbase.client.scanner.timeout.period".into(),
                    LEASE_MS.to_string(),
                ),
                // How often the region server looks for expired leases
                // (10 s by default).
                ("hbase.server.thread.wakefrequency".into(), "500".into()),
            ],
            region_servers: 2,
            ..Options::default()
        })
        .unwrap_or_else(|e| panic!("{e}"))
    })
}

async fn command(line: String) -> String {
    tokio::task::spawn_blocking(move || short_lease().command(&line))
        .await
        .unwrap()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn rows(value: &str) -> Vec<Row> {
    (0..ROWS)
        .map(|i| {
            Row::new(
                format!("r{i:06}").into_bytes(),
                vec![Cell::new("d", "v", value)],
            )
        })
        .collect()
}

/// Reads a table of `ROWS` rows 10 a round trip, holds the read after
/// its first rows while `meanwhile` runs (every row rewritten, then the
/// scanner lost), and checks that every row comes once, in order, with
/// its old or its new value.
async fn held_read(name: &str, meanwhile: &[String]) {
    let client = HBaseClient::connect(&short_lease().zk_address())
        .await
        .unwrap();
    client
        .admin()
        .create_table(&TableSpec::new(name, &["d"]))
        .await
        .unwrap();
    let store = client.table(name).with_read_page_rows(10);
    store.write_rows(rows("old")).await.unwrap();
    let mut read = store.read_rows(ReadRequest::new([KeyRange::new(Vec::new(), None)]));
    let mut got = Vec::new();
    for _ in 0..25 {
        got.push(read.next().await.unwrap().unwrap());
    }
    // Another writer rewrites every row while the read is held.
    let writer = HBaseClient::connect(&short_lease().zk_address())
        .await
        .unwrap()
        .table(name);
    writer.write_rows(rows("new")).await.unwrap();
    for line in meanwhile {
        match line.strip_prefix("sleep ") {
            Some(ms) => tokio::time::sleep(Duration::from_millis(ms.parse().unwrap())).await,
            None => {
                command(line.clone()).await;
            }
        }
    }
    while let Some(row) = read.next().await {
        got.push(row.unwrap_or_else(|e| panic!("{name}: the held read failed: {e}")));
    }
    let keys: Vec<Vec<u8>> = got.iter().map(|r| r.key.clone()).collect();
    let want: Vec<Vec<u8>> = rows("").into_iter().map(|r| r.key).collect();
    assert_eq!(
        keys.len(),
        want.len(),
        "{name}: {} of {ROWS} rows read",
        keys.len()
    );
    assert_eq!(keys, want, "{name}: the rows, once each, in order");
    for row in &got {
        let v = row.value("d", "v");
        assert!(
            v == Some(b"old") || v == Some(b"new"),
            "{name}: {:?} holds {v:?}",
            String::from_utf8_lossy(&row.key)
        );
    }
    // The rows read after the scanner was lost (reopened) are
    // the rewritten ones.
    let tail = got.last().unwrap();
    assert_eq!(
        tail.value("d", "v"),
        Some(&b"new"[..]),
        "{name}: the last row"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_held_past_its_lease_with_a_flush_and_a_compaction_loses_no_row() {
    let name = "held_lease";
    // The lease expires first: then no scanner holds the read's point,
    // and the flush and the compaction keep only the newest versions.
    held_read(
        name,
        &[
            format!("sleep {}", LEASE_MS * 3),
            format!("flush {name}"),
            format!("compact {name}"),
        ],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_held_while_its_region_moves_loses_no_row() {
    let name = "held_move";
    // The region closes on one server and opens on the other, well within
    // the lease; compacted there, where no scanner holds the read's point.
    held_read(name, &[format!("move {name} -"), format!("compact {name}")]).await;
}
