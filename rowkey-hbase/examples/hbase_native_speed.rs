//! The native transport against HBase's own Java client and against the
//! Thrift 1 transport, on one HBase 2.6.1 (standalone, one region server,
//! in one JVM) in one run:
//!
//! - write 100,000 rows of about 100 bytes (a 24-byte key, one 72-byte
//!   cell): `write_rows` natively and through Thrift 1 (the store's
//!   default batching: 1,000 rows a call, 4 calls in flight), the native
//!   client's own `mutate` of the same rows in batches of 1,000 one after
//!   the other, and Java's `BufferedMutator`;
//! - scan them back: `read_rows` of the whole table (1,000 rows a round
//!   trip), the native client's own `scan` with caching 1,000, and Java's
//!   `Scan` with caching 1,000.
//!
//! Each run writes into fresh tables. Java runs first, in one JVM
//! (`rowkey.testing.JavaBench`: 3 untimed warm-up rounds, then the timed
//! ones); then the Rust ways, after one untimed round each.
//!
//! Run: `cargo run --release -p rowkey-hbase --example hbase_native_speed`
//! (`-- --rows N --runs R --java-warmups W`).

#[path = "common/speed.rs"]
mod speed;

use futures::TryStreamExt;
use rowkey_fixtures::bench::{arg, median, per_run, table_row};
use rowkey_fixtures::hbase::HBase;
use rowkey_hbase::hbase_native::{RowMutation, Scan};
use rowkey_hbase::HBaseClient;
use speed::{java_rounds, row, store_round};
use std::time::{Duration, Instant};

/// The native client's own `mutate` (1,000 rows a call, one at a time)
/// and `scan`.
async fn raw_round(
    client: &rowkey_hbase::hbase_native::Client,
    table: &str,
    rows: usize,
) -> (Duration, Duration) {
    let admin = client.admin();
    let _ = admin.delete_table(table).await;
    admin.create_table(table, &["d"], &[]).await.unwrap();
    let mutations: Vec<RowMutation> = (0..rows)
        .map(|i| {
            let (k, v) = row(i);
            RowMutation::put(k).set(b"d", b"v", &v)
        })
        .collect();
    let began = Instant::now();
    for chunk in mutations.chunks(1000) {
        client.mutate(table, chunk.to_vec()).await.unwrap();
    }
    let wrote = Instant::now();
    let read = client
        .scan(table, Scan::all().caching(1000))
        .try_fold(0usize, |n, _| async move { Ok(n + 1) })
        .await
        .unwrap();
    let scanned = Instant::now();
    assert_eq!(read, rows);
    admin.delete_table(table).await.unwrap();
    (wrote - began, scanned - wrote)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let rows = arg("--rows", 100_000);
    let runs = arg("--runs", 5);
    let warmups = arg("--java-warmups", 3);
    let hbase = HBase::start();
    let native = HBaseClient::connect(&hbase.zk_address()).await.unwrap();
    let thrift = HBaseClient::connect(&hbase.thrift).await.unwrap();
    let raw = rowkey_hbase::hbase_native::Client::connect(&hbase.zk_address())
        .await
        .unwrap();
    // Untimed: the Rust ways' first round.
    store_round(&native, "warm_native", rows).await;
    store_round(&thrift, "warm_thrift", rows).await;
    raw_round(&raw, "warm_raw", rows).await;
    let mut times: [Vec<Duration>; 8] = Default::default();
    let java = java_rounds(&hbase, rows, runs, warmups, &[]);
    for (run, &(jw, js)) in java.iter().enumerate() {
        let (nw, ns) = store_round(&native, &format!("native{run}"), rows).await;
        let (rw, rs) = raw_round(&raw, &format!("raw{run}"), rows).await;
        let (tw, ts) = store_round(&thrift, &format!("thrift{run}"), rows).await;
        for (i, t) in [jw, nw, rw, tw, js, ns, rs, ts].into_iter().enumerate() {
            times[i].push(t);
        }
        eprintln!("run {run}: java {jw:?}/{js:?} native {nw:?}/{ns:?} raw {rw:?}/{rs:?} thrift {tw:?}/{ts:?}");
    }
    let java_write = times[0].clone();
    let java_scan = times[4].clone();
    println!(
        "{rows} rows of about 100 bytes, {runs} runs, medians; ratios against Java's client\n"
    );
    println!("| way | median | range | vs Java |");
    println!("| --- | ---: | ---: | ---: |");
    for (i, way) in [
        "write: Java BufferedMutator",
        "write: native write_rows",
        "write: native client mutate, 1,000 a call",
        "write: Thrift 1 write_rows",
    ]
    .iter()
    .enumerate()
    {
        println!("{}", table_row(way, &times[i], &[median(&java_write)]));
    }
    for (i, way) in [
        "scan: Java Scan, caching 1,000",
        "scan: native read_rows",
        "scan: native client scan, caching 1,000",
        "scan: Thrift 1 read_rows",
    ]
    .iter()
    .enumerate()
    {
        println!("{}", table_row(way, &times[4 + i], &[median(&java_scan)]));
    }
    println!(
        "\nper run, native store / Java: write {}, scan {}",
        per_run(&times[1], &java_write),
        per_run(&times[5], &java_scan)
    );
}
