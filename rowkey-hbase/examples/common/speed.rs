//! What the native-versus-Java speed examples share: JavaBench's rows,
//! its timed rounds, and the native store's round of the same.

use futures::TryStreamExt;
use rowkey::store::admin::TableSpec;
use rowkey::store::{Cell, KeyRange, ReadRequest, Row, Store};
use rowkey_fixtures::hbase::{java_main, HBase};
use rowkey_hbase::HBaseClient;
use std::io::{BufRead, BufReader};
use std::time::{Duration, Instant};

/// Row `i`: the key and value JavaBench writes.
pub fn row(i: usize) -> (Vec<u8>, Vec<u8>) {
    (
        format!("row{i:021}").into_bytes(),
        vec![b'a' + (i % 26) as u8; 72],
    )
}

/// Java's timed rounds, after `warmups` untimed ones in the same JVM:
/// (write, scan) each.
pub fn java_rounds(
    hbase: &HBase,
    rows: usize,
    runs: usize,
    warmups: usize,
    env: &[(&'static str, String)],
) -> Vec<(Duration, Duration)> {
    let mut child = java_main("rowkey.testing.JavaBench")
        .unwrap_or_else(|e| panic!("{e}"))
        // On a Kerberized cluster, logged in from the client keytab.
        .envs(hbase.kdc.iter().flat_map(|kdc| kdc.java_env()))
        .envs(env.iter().cloned())
        .arg(hbase.zk_port.to_string())
        .arg("javabench")
        .arg(rows.to_string())
        .arg(runs.to_string())
        .arg(warmups.to_string())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("java");
    let mut out = Vec::new();
    let mut write = Duration::ZERO;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let mut words = line.split_whitespace();
        let what = words.next().unwrap_or_default();
        let ms: f64 = words.next().and_then(|w| w.parse().ok()).unwrap_or(0.0);
        let took = Duration::from_secs_f64(ms / 1e3);
        match what {
            "write" => write = took,
            "scan" => {
                let read: usize = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
                assert_eq!(read, rows, "Java read back every row");
                out.push((write, took));
            }
            _ => {}
        }
    }
    assert!(child.wait().unwrap().success(), "JavaBench failed");
    out
}

/// `write_rows` then `read_rows` of every row through `client`'s store.
pub async fn store_round(client: &HBaseClient, table: &str, rows: usize) -> (Duration, Duration) {
    let _ = client.admin().delete_table(table).await;
    client
        .admin()
        .create_table(&TableSpec::new(table, &["d"]))
        .await
        .unwrap();
    let store = client.table(table);
    let batch: Vec<Row> = (0..rows)
        .map(|i| {
            let (k, v) = row(i);
            Row::new(k, vec![Cell::new("d", "v", v)])
        })
        .collect();
    let began = Instant::now();
    store.write_rows(batch).await.unwrap();
    let wrote = Instant::now();
    let read: usize = store
        .read_rows(ReadRequest::new([KeyRange::new(Vec::new(), None)]))
        .try_fold(0, |n, _| async move { Ok(n + 1) })
        .await
        .unwrap();
    let scanned = Instant::now();
    assert_eq!(read, rows);
    client.admin().delete_table(table).await.unwrap();
    (wrote - began, scanned - wrote)
}
