//! The all-bucket ledger query on the emulator: 120 buckets, 100,000
//! rows, read five ways in one run, against the floor of a raw bigtable_rs
//! `read_rows` of the same `RowSet` (no decoding, no merging).
//!
//! Run: `cargo run --release -p rowkey-bigtable --example query_speed`
//! (`-- --rows N --runs R` to change the size and the repetitions).
//!
//! Beside each median wall time it prints the median CPU time the client
//! process and the emulator spent on that way (from `/proc/<pid>/stat`,
//! in clock ticks of 10 ms): both share the machine's cores, so client
//! CPU slows the emulator directly. For the queries it prints the reads
//! (`Store::read_rows` calls, one request each) and the rows their ranges
//! held, which the emulator gathers whatever a request's `rows_limit`.
//!
//! `QUERY_SPEED_PROBE=1` first measures the emulator's cost of a request
//! (see `probe`); `QUERY_SPEED_ALL=1` prints every run's time, sorted;
//! `--only I` runs way I alone (for a profiler attached after loading).

use bigtable_rs::google::bigtable::v2::row_filter::Filter;
use bigtable_rs::google::bigtable::v2::{ReadRowsRequest, RowFilter, RowSet};
use futures::StreamExt;
use rowkey::store::{QueryOptions, RowStream, Store, StoreExt};
use rowkey::RowKey;
use rowkey_bigtable::adapters::{ToRowRange, ToRowSet};
use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::bench::{arg, cpu};
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::layouts::Ledger;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A store that counts the reads it is asked for (a query's pages).
#[derive(Clone)]
struct Counted {
    store: BigtableStore,
    reads: Arc<AtomicUsize>,
    /// The table's keys, sorted, and the rows the reads' ranges hold: what
    /// the emulator gathers for them, whatever their `rows_limit`.
    keys: Arc<Vec<Vec<u8>>>,
    gathered: Arc<AtomicUsize>,
}

impl Store for Counted {
    fn key_limit(&self) -> rowkey::store::KeyLimit {
        self.store.key_limit()
    }
    fn write_rows(
        &self,
        rows: Vec<rowkey::store::Row>,
    ) -> impl std::future::Future<Output = Result<(), rowkey::store::StoreError>> + Send {
        self.store.write_rows(rows)
    }
    fn delete_rows(
        &self,
        keys: Vec<Vec<u8>>,
    ) -> impl std::future::Future<Output = Result<(), rowkey::store::StoreError>> + Send {
        self.store.delete_rows(keys)
    }
    fn read_rows(&self, request: rowkey::store::ReadRequest) -> RowStream {
        self.reads.fetch_add(1, Ordering::Relaxed);
        let held: usize = request
            .ranges()
            .iter()
            .map(|r| {
                let from = self.keys.partition_point(|k| *k < r.start);
                let to = r
                    .stop
                    .as_ref()
                    .map_or(self.keys.len(), |s| self.keys.partition_point(|k| k < s));
                to.saturating_sub(from)
            })
            .sum();
        self.gathered.fetch_add(held, Ordering::Relaxed);
        self.store.read_rows(request)
    }
}

/// The emulator's cost of a request, apart from the rows it sends:
/// requests of the whole plan's `RowSet` and of one bucket, each asking
/// for one row (`rows_limit` 1), and the whole `RowSet` read (the
/// floor). Medians of 5; emulator CPU from `/proc`.
async fn probe<F, Fut>(
    emu_pid: &str,
    plan: &rowkey::scan::ScanPlan<{ Ledger::MAX_LEN + 1 }>,
    raw: &F,
) where
    F: Fn(Option<RowSet>, i64) -> Fut,
    Fut: std::future::Future<Output = Result<usize, bigtable_rs::bigtable::Error>>,
{
    let bucket = plan.ranges().next().expect("a range");
    let one_bucket = RowSet {
        row_keys: vec![],
        row_ranges: vec![bucket.to_row_range()],
    };
    let cases: [(&str, Option<RowSet>, i64, usize); 3] = [
        ("the whole RowSet (120 ranges), rows_limit 1", None, 1, 1),
        (
            "one bucket's range, rows_limit 1, 120 requests",
            Some(one_bucket),
            1,
            120,
        ),
        ("the whole RowSet, every row (the floor)", None, 0, 1),
    ];
    for (what, rows, limit, requests) in cases {
        let mut walls = Vec::new();
        let mut emus = Vec::new();
        for _ in 0..5 {
            let before = cpu(emu_pid);
            let start = Instant::now();
            for _ in 0..requests {
                // Made again if h2 closes it (see the floor).
                for attempt in 0.. {
                    match raw(rows.clone(), limit).await {
                        Ok(_) => break,
                        Err(e) if attempt == 10 => panic!("a raw read: {e}"),
                        Err(_) => {}
                    }
                }
            }
            walls.push(start.elapsed());
            emus.push(cpu(emu_pid).saturating_sub(before));
        }
        walls.sort();
        emus.sort();
        println!(
            "probe: {what}: {:.1} ms, emulator CPU {} ms",
            walls[2].as_secs_f64() * 1e3,
            emus[2].as_millis()
        );
    }
}

/// Rows of a stream, each key decoded as a `Ledger` (the typed part).
async fn typed(mut rows: RowStream) -> usize {
    let mut n = 0;
    while let Some(row) = rows.next().await {
        let row = row.expect("a row");
        let ledger: Ledger = row.key_as().expect("a ledger key");
        std::hint::black_box(ledger);
        n += 1;
    }
    n
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (n, runs) = (arg("--rows", 100_000), arg("--runs", 5));
    let only = Some(arg("--only", usize::MAX)).filter(|&o| o != usize::MAX);
    let emu = Emulator::start();
    let emu_pid = emu.pid().to_string();
    BigtableAdmin::connect_emulator(&emu.host, "p", "i")?
        .create_table(&TableSpec::new("ledger", &["d"]).splits(&Ledger::split_keys()))
        .await?;
    let store = BigtableStore::connect_emulator(&emu.host, "p", "i", "ledger").await?;
    let rows = Ledger::distinct_rows(n);
    let counted = Counted {
        store: store.clone(),
        reads: Arc::new(AtomicUsize::new(0)),
        keys: Arc::new(rows.iter().map(|r| r.key.clone()).collect()),
        gathered: Arc::new(AtomicUsize::new(0)),
    };
    let loaded = Instant::now();
    store.write_rows(rows).await?;
    println!("{n} ledger rows loaded in {:.2?}", loaded.elapsed());

    let plan = Ledger::scan().plan()?;
    let row_set = plan.to_row_set().expect("the plan has ranges");
    // One raw request of `rows` (the whole plan when `None`), at most
    // `limit` rows (0: all): how many rows came back.
    let raw = |rows: Option<RowSet>, limit: i64| {
        let mut client = store.client();
        let request = ReadRowsRequest {
            table_name: store.table_name().to_string(),
            rows: Some(rows.unwrap_or_else(|| row_set.clone())),
            filter: Some(RowFilter {
                filter: Some(Filter::CellsPerColumnLimitFilter(1)),
            }),
            rows_limit: limit,
            ..ReadRowsRequest::default()
        };
        async move { client.read_rows(request).await.map(|rows| rows.len()) }
    };
    // The floor. Its one stream is read as fast as bigtable_rs collects
    // it; on a starved machine h2 may still close the connection
    // (ENHANCE_YOUR_CALM: too many small DATA frames unread), and the run
    // is made again (counted and printed).
    let mut floor_retries = 0;
    if std::env::var_os("QUERY_SPEED_PROBE").is_some() {
        probe(&emu_pid, &plan, &raw).await;
    }
    let ways: [&str; 6] = [
        "floor: raw bigtable_rs read_rows of the RowSet",
        "read_plan: one multi-range request, typed",
        "query, sequential (1 read in flight), typed",
        "query, concurrent (32 in flight, 10,000 rows: the default), typed",
        "query, concurrent (8 in flight), typed",
        "query, concurrent (32 in flight, 60,000 rows), typed",
    ];
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); ways.len()];
    // (client, emulator) CPU time of each run of each way.
    let mut cpus: Vec<Vec<(Duration, Duration)>> = vec![Vec::new(); ways.len()];
    // The reads (`Store::read_rows` calls) of a query's last run, and the
    // rows their ranges held.
    let mut reads = vec![(0, 0); ways.len()];
    for _ in 0..runs {
        for (i, times) in times.iter_mut().enumerate() {
            // `--only I`: run way I alone (for a profiler).
            if only.is_some_and(|o| i != o) {
                times.push(Duration::ZERO);
                cpus[i].push(Default::default());
                continue;
            }
            if std::env::var_os("QUERY_SPEED_TRACE").is_some() {
                eprintln!("{}", ways[i]);
            }
            let cpu_before = (cpu("self"), cpu(&emu_pid));
            let reads_before = counted.reads.load(Ordering::Relaxed);
            let gathered_before = counted.gathered.load(Ordering::Relaxed);
            let start = Instant::now();
            let got = match i {
                0 => loop {
                    match raw(None, 0).await {
                        Ok(got) => break got,
                        Err(e) if floor_retries < 10 => {
                            eprintln!("the floor failed ({e}): run again");
                            floor_retries += 1;
                        }
                        Err(e) => return Err(e.into()),
                    }
                },
                1 => typed(store.read_plan(&plan)).await,
                2 => {
                    typed(Box::pin(
                        counted.query_with(&plan, QueryOptions::default().concurrency(1)),
                    ))
                    .await
                }
                3 => typed(Box::pin(counted.query(&plan))).await,
                4 => {
                    typed(Box::pin(
                        counted.query_with(&plan, QueryOptions::default().concurrency(8)),
                    ))
                    .await
                }
                _ => {
                    let wide = QueryOptions::default().buffer_rows(60_000);
                    typed(Box::pin(counted.query_with(&plan, wide))).await
                }
            };
            assert_eq!(got, n, "{}", ways[i]);
            reads[i] = (
                counted.reads.load(Ordering::Relaxed) - reads_before,
                counted.gathered.load(Ordering::Relaxed) - gathered_before,
            );
            times.push(start.elapsed());
            cpus[i].push((
                cpu("self").saturating_sub(cpu_before.0),
                cpu(&emu_pid).saturating_sub(cpu_before.1),
            ));
        }
    }
    let median = |t: &mut Vec<Duration>| {
        t.sort();
        t[t.len() / 2]
    };
    let floor_time = median(&mut times[0].clone());
    println!("\n{n} rows, 120 buckets, median of {runs} runs (release build):");
    println!(
        "| way | median | / floor | client CPU | emulator CPU | query reads | rows gathered |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (((way, t), c), reads) in ways.iter().zip(times.iter_mut()).zip(&cpus).zip(&reads) {
        let m = median(t);
        let client = median(&mut c.iter().map(|c| c.0).collect());
        let server = median(&mut c.iter().map(|c| c.1).collect());
        println!(
            "| {way} | {:.1} ms | {:.2}x | {} ms | {} ms | {} | {} |",
            m.as_secs_f64() * 1e3,
            m.as_secs_f64() / floor_time.as_secs_f64(),
            client.as_millis(),
            server.as_millis(),
            if reads.0 == 0 {
                "-".into()
            } else {
                reads.0.to_string()
            },
            if reads.0 == 0 {
                "-".into()
            } else {
                reads.1.to_string()
            },
        );
    }
    if floor_retries > 0 {
        println!("floor runs closed by h2 and made again: {floor_retries}");
    }
    if std::env::var_os("QUERY_SPEED_ALL").is_some() {
        for (way, t) in ways.iter().zip(&times) {
            let ms: Vec<String> = t
                .iter()
                .map(|t| format!("{:.0}", t.as_secs_f64() * 1e3))
                .collect();
            println!("{way}: {}", ms.join(" "));
        }
    }
    Ok(())
}
