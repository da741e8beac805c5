//! Queries on the native transport against the Thrift 1 transport and
//! HBase's own Java client, on one HBase 2.6.1 (standalone, one region
//! server) in one run, medians of the runs:
//!
//! - the all-bucket ledger query (120 salt buckets, 100,000 rows) through
//!   `query` natively and through Thrift 1, natively through `read_plan`,
//!   and Java's client scanning the plan's 120 ranges one after the other
//!   (`rowkey.testing.JavaBench ranges`: a `Scan` of caching 1,000 each,
//!   after 3 untimed rounds in its JVM);
//! - a walk of the same plan in pages of 1,000 rows, natively and through
//!   Thrift 1 (a page walk against one query of the same plan);
//! - a fuzzy scan (one row in 16 kept, 100,000 rows) natively with
//!   `FuzzyRowFilter` on the server against the same scan unfiltered with
//!   the pattern applied on the client.
//!
//! Both stores read the same table. Run: `cargo run --release -p
//! rowkey-hbase --example hbase_native_query_speed` (`-- --rows N --runs R`).

use futures::{StreamExt, TryStreamExt};
use rowkey::scan::{Cursor, ScanPlan};
use rowkey::store::admin::TableSpec;
use rowkey::store::{Store, StoreExt};
use rowkey_fixtures::bench::{arg, median, per_run, table_row};
use rowkey_fixtures::hbase::{java_main, HBase};
use rowkey_fixtures::layouts::Ledger;
use rowkey_hbase::hbase_native::{Client, Filter, RowMutation, Scan};
use rowkey_hbase::{HBaseClient, HBaseStore};
use std::io::{BufRead, BufReader, Write};
use std::time::{Duration, Instant};

fn hex(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "-".into();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Java scanning `ranges` of `table` one after the other: each run's time.
fn java_ranges(
    hbase: &HBase,
    table: &str,
    ranges: &[(Vec<u8>, Vec<u8>)],
    rows: usize,
    runs: usize,
) -> Vec<Duration> {
    let file = std::env::temp_dir().join(format!("ranges-{}.txt", std::process::id()));
    let mut f = std::fs::File::create(&file).unwrap();
    for (start, stop) in ranges {
        writeln!(f, "{} {}", hex(start), hex(stop)).unwrap();
    }
    drop(f);
    let mut child = java_main("rowkey.testing.JavaBench")
        .unwrap_or_else(|e| panic!("{e}"))
        .args(["ranges", &hbase.zk_port.to_string(), table])
        .arg(&file)
        .args([runs.to_string(), "3".to_owned()])
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("java");
    let mut out = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let w: Vec<&str> = line.split_whitespace().collect();
        if let ["ranges", ms, read] = w[..] {
            assert_eq!(read.parse::<usize>().unwrap(), rows, "Java read every row");
            out.push(Duration::from_secs_f64(ms.parse::<f64>().unwrap() / 1e3));
        }
    }
    assert!(child.wait().unwrap().success());
    let _ = std::fs::remove_file(file);
    out
}

async fn timed<F: std::future::Future<Output = usize>>(rows: usize, f: F) -> Duration {
    let began = Instant::now();
    let n = f.await;
    assert_eq!(n, rows, "every row read");
    began.elapsed()
}

async fn walk<const N: usize>(store: &HBaseStore, plan: &ScanPlan<N>) -> usize {
    let mut cursor: Option<Cursor> = None;
    let mut n = 0;
    loop {
        let page = store.page(plan, cursor.as_ref(), 1000).await.unwrap();
        n += page.rows.len();
        match page.next {
            Some(next) => cursor = Some(next),
            None => return n,
        }
    }
}

/// Keys of the fuzzy table: bucket, id, kind (0..16).
fn fuzzy_key(i: u32) -> Vec<u8> {
    let mut k = vec![(i % 16) as u8];
    k.extend_from_slice(&i.to_be_bytes());
    k.push((i / 16 % 16) as u8);
    k
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let rows = arg("--rows", 100_000);
    let runs = arg("--runs", 5);
    let hbase = HBase::start();
    let native = HBaseClient::connect(&hbase.zk_address()).await.unwrap();
    let thrift = HBaseClient::connect(&hbase.thrift).await.unwrap();
    let table = format!("ledger_native_{}", std::process::id());
    native
        .admin()
        .create_table(&TableSpec::new(&table, &["d"]))
        .await
        .unwrap();
    native
        .table(&table)
        .write_rows(Ledger::distinct_rows(rows))
        .await
        .unwrap();
    let (ns, ts) = (native.table(&table), thrift.table(&table));
    let plan = Ledger::scan().plan().unwrap();
    let ranges: Vec<(Vec<u8>, Vec<u8>)> = plan
        .ranges()
        .map(|r| {
            let k = rowkey::store::KeyRange::from(r);
            (k.start, k.stop.unwrap_or_default())
        })
        .collect();
    let java = java_ranges(&hbase, &table, &ranges, rows, runs);

    // The fuzzy table, on the native client alone.
    let raw = Client::connect(&hbase.zk_address()).await.unwrap();
    let fuzzy_table = format!("fuzzy_native_{}", std::process::id());
    raw.admin()
        .create_table(&fuzzy_table, &["d"], &[])
        .await
        .unwrap();
    let mutations: Vec<RowMutation> = (0..rows as u32)
        .map(|i| RowMutation::put(fuzzy_key(i)).set(b"d", b"v", &[7; 60]))
        .collect();
    for chunk in mutations.chunks(5000) {
        raw.mutate(&fuzzy_table, chunk.to_vec()).await.unwrap();
    }
    let kept = (0..rows as u32).filter(|&i| fuzzy_key(i)[5] == 3).count();
    let pattern = (vec![0, 0, 0, 0, 0, 3], vec![1, 1, 1, 1, 1, 0]);
    let server = || async {
        raw.scan(
            &fuzzy_table,
            Scan::all().filter(Filter::Fuzzy(vec![pattern.clone()])),
        )
        .try_fold(0, |n, _| async move { Ok(n + 1) })
        .await
        .unwrap()
    };
    let client_side = || async {
        raw.scan(&fuzzy_table, Scan::all())
            .try_filter(|r| std::future::ready(r.row.get(5) == Some(&3)))
            .try_fold(0, |n, _| async move { Ok(n + 1) })
            .await
            .unwrap()
    };

    let count = |s: rowkey::store::RowStream| {
        s.fold(0, |n, r| async move {
            r.unwrap();
            n + 1
        })
    };
    // Untimed: a round of every way.
    count(Box::pin(ns.query(&plan))).await;
    count(Box::pin(ts.query(&plan))).await;
    server().await;
    client_side().await;
    let mut t: [Vec<Duration>; 7] = Default::default();
    for _ in 0..runs {
        t[0].push(timed(rows, count(Box::pin(ns.query(&plan)))).await);
        t[1].push(timed(rows, count(Box::pin(ts.query(&plan)))).await);
        t[2].push(timed(rows, count(ns.read_plan(&plan))).await);
        t[3].push(timed(rows, walk(&ns, &plan)).await);
        t[4].push(timed(rows, walk(&ts, &plan)).await);
        t[5].push(timed(kept, server()).await);
        t[6].push(timed(kept, client_side()).await);
    }
    println!("{rows} ledger rows, 120 buckets; {runs} runs, medians\n");
    println!("| way | median | range | vs Java | vs native query |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    let (j, q) = (median(&java), median(&t[0]));
    println!(
        "{}",
        table_row("Java: 120 Scans one after another", &java, &[j, q])
    );
    for (i, way) in [
        "native: query",
        "Thrift 1: query",
        "native: read_plan",
        "native: page walk, pages of 1,000",
        "Thrift 1: page walk, pages of 1,000",
    ]
    .iter()
    .enumerate()
    {
        println!("{}", table_row(way, &t[i], &[j, q]));
    }
    println!("\n| fuzzy scan, {kept} of {rows} rows kept | median | range | vs on the server |");
    println!("| --- | ---: | ---: | ---: |");
    let s = median(&t[5]);
    println!("{}", table_row("FuzzyRowFilter on the server", &t[5], &[s]));
    println!(
        "{}",
        table_row("every row read, matched on the client", &t[6], &[s])
    );
    println!(
        "\nper run: native query / Java {}; Thrift query / native query {}; native walk / native query {}",
        per_run(&t[0], &java),
        per_run(&t[1], &t[0]),
        per_run(&t[3], &t[0])
    );
    let _ = native.admin().delete_table(&table).await;
    let _ = raw.admin().delete_table(&fuzzy_table).await;
}
