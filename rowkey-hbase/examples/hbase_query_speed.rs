//! The all-bucket ledger query on a real HBase (2.6.1 standalone, its
//! Thrift 1 server): 120 salt buckets, 100,000 rows, every bucket read
//! through `HBaseStore` (`query` and `read_plan`, each key decoded as a
//! `Ledger`), against the floor of raw hbase-thrift scanners over the
//! same 120 ranges: `scannerOpenWithScan` (start row, stop row, caching
//! 1,000 and nothing else), `scannerGetList(id, 1000)` until a short
//! page, `scannerClose`; rows collected, nothing decoded, no merge.
//!
//! Three floors, each the fair one for some way: the 120 ranges on one
//! connection, one after the other (the floor for `query`); the
//! 120 ranges on one thread per connection of the store's pool (8 by
//! default), sharing them out (what a concurrent `query` can use at
//! most); and the ranges `read_plan` asks for (one request, whose
//! touching ranges are joined: 12 scanners, not 120) on one connection,
//! `read_plan`'s own floor. Every way runs once per run, one after the
//! other, on connections opened before the runs; the figures are medians
//! of the runs, and each run's own ratios to the floors (their median and
//! spread) are printed after.
//!
//! Run: `cargo run --release -p rowkey-hbase --example hbase_query_speed`
//! (`-- --rows N --runs R` to change the size and the repetitions;
//! `--warmup W` untimed rounds first, 1 by default, none with `--runs 1`:
//! the JVM compiles its hot paths during the first). It starts a server
//! of its own (about 15 s; Java 17 and Maven, see `rowkey_fixtures::hbase`),
//! or uses the Thrift 1 server at `HBASE_THRIFT` (`host:port`) when that
//! is set, in a table of its own that it deletes at the end.
//!
//! Beside each median wall time it prints the median CPU time the client
//! process and the server's JVM spent on that way (`/proc/<pid>/stat`,
//! clock ticks of 10 ms; the server's only when this process started it,
//! or `HBASE_PID` names it): they share the machine's cores. For the
//! queries it prints the reads (`Store::read_rows` calls: each opens a
//! scanner, reads its page and closes it) and the rows each asked for, on
//! average (its limit).
//!
//! `--probe` first measures what a scanner costs the server apart from
//! its rows: the 120 ranges read on one connection in pages of 1,000, in
//! pages of 83 rows (a query's first pages) on one scanner per range,
//! with the scanner's caching at 83 and at 1,000, and on a new scanner per
//! page (as each read of a query opens one), and 1,200 one-row scanners.
//! `--only I` runs way I alone (for a profiler); `HBASE_QUERY_ALL=1`
//! prints every run's time.

use futures::StreamExt;
use rowkey::store::admin::TableSpec;
use rowkey::store::{QueryOptions, ReadRequest, RowStream, Store, StoreExt};
use rowkey_fixtures::bench::{arg, cpu, median, per_run};
use rowkey_fixtures::layouts::Ledger;
use rowkey_hbase::hbase_thrift::hbase::{HbaseSyncClient, THbaseSyncClient, TRowResult, TScan};
use rowkey_hbase::{ClientOptions, HBaseClient, HBaseStore, ToTScan};
use std::collections::BTreeMap;
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use thrift::protocol::{TBinaryInputProtocol, TBinaryOutputProtocol};
use thrift::transport::{TBufferedReadTransport, TBufferedWriteTransport};

/// The store's pool size (`ClientOptions::default().connections`), and
/// so the threads of the concurrent floor.
const CONNECTIONS: usize = 8;

/// Rows a scanner page asks for: the store's default page.
const PAGE: i32 = 1000;

type Raw = HbaseSyncClient<
    TBinaryInputProtocol<TBufferedReadTransport<TcpStream>>,
    TBinaryOutputProtocol<TBufferedWriteTransport<TcpStream>>,
>;

/// hbase-thrift's client on a new socket, as the store builds one
/// (buffered transport, binary protocol, `TCP_NODELAY`).
fn raw_client(address: &str) -> Raw {
    let socket = TcpStream::connect(address).expect("connect to the Thrift server");
    socket.set_nodelay(true).expect("TCP_NODELAY");
    let read = socket.try_clone().expect("a second handle on the socket");
    HbaseSyncClient::new(
        TBinaryInputProtocol::new(TBufferedReadTransport::new(read), true),
        TBinaryOutputProtocol::new(TBufferedWriteTransport::new(socket), true),
    )
}

/// The scan of one range: its start and stop rows and the caching, every
/// other field `None` (`TScan::default()` sets `timestamp: Some(0)`,
/// which returns nothing).
fn scan_of(range: &TScan) -> TScan {
    TScan {
        start_row: range.start_row.clone(),
        stop_row: range.stop_row.clone(),
        timestamp: None,
        columns: None,
        caching: Some(PAGE),
        filter_string: None,
        batch_size: None,
        sort_columns: None,
        reversed: None,
        cache_blocks: None,
    }
}

/// Every row of one range on `client`, appended to `out`.
fn raw_range(client: &mut Raw, table: &[u8], range: &TScan, out: &mut Vec<TRowResult>) {
    let id = client
        .scanner_open_with_scan(table.to_vec(), scan_of(range), BTreeMap::new())
        .expect("scannerOpenWithScan");
    loop {
        let page = client.scanner_get_list(id, PAGE).expect("scannerGetList");
        let short = page.len() < PAGE as usize;
        out.extend(page);
        if short {
            break;
        }
    }
    client.scanner_close(id).expect("scannerClose");
}

/// The floor on one connection: the ranges one after the other.
fn raw_sequential(client: &mut Raw, table: &[u8], ranges: &[TScan]) -> usize {
    let mut rows = Vec::new();
    for range in ranges {
        raw_range(client, table, range, &mut rows);
    }
    rows.len()
}

/// The floor on several connections, a thread each, taking the next
/// range not yet taken (as the store's pool takes jobs).
fn raw_concurrent(clients: &mut [Raw], table: &[u8], ranges: &[TScan]) -> usize {
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let threads: Vec<_> = clients
            .iter_mut()
            .map(|client| {
                let next = &next;
                s.spawn(move || {
                    let mut rows = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(range) = ranges.get(i) else { break };
                        raw_range(client, table, range, &mut rows);
                    }
                    rows
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("a floor thread").len())
            .sum()
    })
}

/// How a probe reads each range: in pages of `page` rows, each page on
/// a scanner of its own (opened after the last row of the page before,
/// as each read of a query does) or all on one scanner.
///
/// A negative `page` is a page of `-page` rows on a scanner whose caching
/// is the floor's 1,000 (the server's client fetches ahead).
fn raw_paged(client: &mut Raw, table: &[u8], ranges: &[TScan], page: i32, reopen: bool) -> usize {
    let mut n = 0;
    let (page, caching) = if page < 0 {
        (-page, PAGE)
    } else {
        (page, page)
    };
    for range in ranges {
        let mut scan = scan_of(range);
        scan.caching = Some(caching);
        let mut id = client
            .scanner_open_with_scan(table.to_vec(), scan.clone(), BTreeMap::new())
            .expect("scannerOpenWithScan");
        loop {
            let rows = client.scanner_get_list(id, page).expect("scannerGetList");
            n += rows.len();
            let last = rows.last().and_then(|r| r.row.clone());
            if rows.len() < page as usize {
                break;
            }
            if reopen {
                client.scanner_close(id).expect("scannerClose");
                let mut after = last.expect("a row");
                after.push(0);
                scan.start_row = Some(after);
                id = client
                    .scanner_open_with_scan(table.to_vec(), scan.clone(), BTreeMap::new())
                    .expect("scannerOpenWithScan");
            }
        }
        client.scanner_close(id).expect("scannerClose");
    }
    n
}

/// `--probe`: what a scanner costs the server, apart from its rows. Each
/// way reads the 120 ranges on one connection, one after the other
/// (medians of 5, server CPU from `/proc`).
fn probe(client: &mut Raw, table: &[u8], ranges: &[TScan], server_cpu: &dyn Fn() -> Duration) {
    let cases: [(&str, i32, bool); 6] = [
        ("pages of 1,000 (the floor)", PAGE, false),
        ("pages of 83 rows, one scanner per range", 83, false),
        (
            "pages of 83 rows, one scanner per range, caching 1,000",
            -83,
            false,
        ),
        ("pages of 83 rows, a new scanner per page", 83, true),
        ("pages of 250 rows, a new scanner per page", 250, true),
        (
            "pages of 1 row, a new scanner per page, 10 rows a range",
            1,
            true,
        ),
    ];
    // Rounds of every case, the first untimed (the JVM compiles its hot
    // paths during it).
    let mut walls = vec![Vec::new(); cases.len()];
    let mut servers = vec![Vec::new(); cases.len()];
    let mut rows = vec![0; cases.len()];
    for round in 0..6 {
        for (i, &(_, page, reopen)) in cases.iter().enumerate() {
            let before = server_cpu();
            let start = Instant::now();
            rows[i] = if page == 1 {
                // 10 scanners a range: the fixed cost of one.
                let mut n = 0;
                for range in ranges {
                    for _ in 0..10 {
                        n += raw_paged_once(client, table, range);
                    }
                }
                n
            } else {
                raw_paged(client, table, ranges, page, reopen)
            };
            if round > 0 {
                walls[i].push(start.elapsed());
                servers[i].push(server_cpu().saturating_sub(before));
            }
        }
    }
    for (i, (what, ..)) in cases.iter().enumerate() {
        walls[i].sort();
        servers[i].sort();
        println!(
            "probe: {what}: {} rows, {:.1} ms, server CPU {} ms",
            rows[i],
            walls[i][2].as_secs_f64() * 1e3,
            servers[i][2].as_millis()
        );
    }
}

/// One scanner of `range` that reads one row: open, one page of 1, close.
fn raw_paged_once(client: &mut Raw, table: &[u8], range: &TScan) -> usize {
    let mut scan = scan_of(range);
    scan.caching = Some(1);
    let id = client
        .scanner_open_with_scan(table.to_vec(), scan, BTreeMap::new())
        .expect("scannerOpenWithScan");
    let n = client
        .scanner_get_list(id, 1)
        .expect("scannerGetList")
        .len();
    client.scanner_close(id).expect("scannerClose");
    n
}

/// A store that counts the reads it is asked for (a query's pages).
#[derive(Clone)]
struct Counted {
    store: HBaseStore,
    reads: Arc<AtomicUsize>,
    /// The rows the reads asked for (their limits; 0 for none).
    asked: Arc<AtomicUsize>,
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
        let asked = request.limit().map_or(0, |l| l as usize);
        self.asked.fetch_add(asked, Ordering::Relaxed);
        self.store.read_rows(request)
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
    let (n, runs) = (arg("--rows", 100_000), arg("--runs", 5).max(1));
    // A round to warm the server up, unless the run is a smoke test.
    let warmup = arg("--warmup", usize::from(runs > 1));
    let only = Some(arg("--only", usize::MAX)).filter(|&o| o != usize::MAX);
    // The server: HBASE_THRIFT's, or one of our own (kept until the end).
    let (address, own, server_pid) = match std::env::var("HBASE_THRIFT") {
        Ok(address) => (address, None, std::env::var("HBASE_PID").ok()),
        Err(_) => {
            let hbase = rowkey_fixtures::hbase::HBase::start();
            println!("HBase started in {:.1?}", hbase.startup);
            let pid = hbase.pid().to_string();
            (hbase.thrift.clone(), Some(hbase), Some(pid))
        }
    };
    let server_cpu = || server_pid.as_deref().map_or(Duration::ZERO, cpu);

    let client =
        HBaseClient::connect_with(&address, ClientOptions::default().connections(CONNECTIONS))
            .await?;
    let table = format!("ledger_speed_{}", std::process::id());
    client
        .admin()
        .create_table(&TableSpec::new(&table, &["d"]))
        .await?;
    let store = client.table(&table);
    let counted = Counted {
        store: store.clone(),
        reads: Arc::new(AtomicUsize::new(0)),
        asked: Arc::new(AtomicUsize::new(0)),
    };
    let loaded = Instant::now();
    store.write_rows(Ledger::distinct_rows(n)).await?;
    println!("{n} ledger rows loaded in {:.2?}", loaded.elapsed());

    let plan = Ledger::scan().plan()?;
    let ranges: Vec<TScan> = plan.ranges().filter_map(|r| r.to_tscan()).collect();
    // What `read_plan` asks for: the plan's ranges in one request, which
    // joins touching ranges (the 120 buckets of an all-bucket plan touch:
    // one range, the whole table).
    let joined: Vec<TScan> = ReadRequest::plan(&plan)
        .ranges()
        .iter()
        .filter_map(ToTScan::to_tscan)
        .collect();
    println!(
        "the plan: {} ranges; read_plan's request: {} range(s)",
        ranges.len(),
        joined.len()
    );
    let mut one = raw_client(&address);
    let mut many: Vec<Raw> = (0..CONNECTIONS).map(|_| raw_client(&address)).collect();
    let name = table.as_bytes();
    if std::env::args().any(|a| a == "--probe") {
        probe(&mut one, name, &ranges, &server_cpu);
    }

    let ways: [&str; 7] = [
        "floor: raw scanners of the 120 ranges, 1 connection, one after another",
        "floor: raw scanners of the 120 ranges, 8 connections (a thread each)",
        "floor: raw scanners of read_plan's ranges (touching ranges joined), 1 connection",
        "read_plan: one scanner at a time, typed",
        "query, defaults (32 reads in flight, 10,000-row budget, 8 connections), typed",
        "query, sequential (1 read in flight), typed",
        "query, 32 in flight, 60,000-row budget, typed",
    ];
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); ways.len()];
    // (client, server) CPU time of each run of each way.
    let mut cpus: Vec<Vec<(Duration, Duration)>> = vec![Vec::new(); ways.len()];
    // The reads of a way's last run.
    let mut reads = vec![(0, 0); ways.len()];
    for round in 0..warmup + runs {
        for i in 0..ways.len() {
            if only.is_some_and(|o| i != o) {
                continue;
            }
            let before = (cpu("self"), server_cpu());
            let reads_before = (
                counted.reads.load(Ordering::Relaxed),
                counted.asked.load(Ordering::Relaxed),
            );
            let start = Instant::now();
            let got = match i {
                0 => tokio::task::block_in_place(|| raw_sequential(&mut one, name, &ranges)),
                1 => tokio::task::block_in_place(|| raw_concurrent(&mut many, name, &ranges)),
                2 => tokio::task::block_in_place(|| raw_sequential(&mut one, name, &joined)),
                3 => typed(counted.read_plan(&plan)).await,
                4 => typed(Box::pin(counted.query(&plan))).await,
                5 => {
                    let one = QueryOptions::default().concurrency(1);
                    typed(Box::pin(counted.query_with(&plan, one))).await
                }
                _ => {
                    let wide = QueryOptions::default().buffer_rows(60_000);
                    typed(Box::pin(counted.query_with(&plan, wide))).await
                }
            };
            let elapsed = start.elapsed();
            assert_eq!(got, n, "{}", ways[i]);
            if round < warmup {
                continue;
            }
            times[i].push(elapsed);
            cpus[i].push((
                cpu("self").saturating_sub(before.0),
                server_cpu().saturating_sub(before.1),
            ));
            reads[i] = (
                counted.reads.load(Ordering::Relaxed) - reads_before.0,
                counted.asked.load(Ordering::Relaxed) - reads_before.1,
            );
        }
    }
    client.admin().delete_table(&table).await?;
    drop(own);

    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let medians: Vec<Duration> = times.iter().map(|t| median(t)).collect();
    let ratio = |a: Duration, b: Duration| {
        if b.is_zero() {
            f64::NAN
        } else {
            a.as_secs_f64() / b.as_secs_f64()
        }
    };
    println!(
        "\n{n} rows, 120 buckets, median of {runs} runs after {warmup} untimed (load average {}):",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "| way | median | min..max | / floor (120 ranges, 1 connection) | / floor (120 ranges, 8 connections) | / floor (joined ranges) | client CPU | server CPU | reads (mean rows asked) |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (i, way) in ways.iter().enumerate() {
        if times[i].is_empty() {
            continue;
        }
        let (lo, hi) = (
            times[i].iter().min().copied().unwrap_or_default(),
            times[i].iter().max().copied().unwrap_or_default(),
        );
        let client_cpu = median(&cpus[i].iter().map(|c| c.0).collect::<Vec<_>>());
        let server = median(&cpus[i].iter().map(|c| c.1).collect::<Vec<_>>());
        println!(
            "| {way} | {:.1} ms | {:.0}..{:.0} ms | {:.2}x | {:.2}x | {:.2}x | {} ms | {} | {} |",
            ms(medians[i]),
            ms(lo),
            ms(hi),
            ratio(medians[i], medians[0]),
            ratio(medians[i], medians[1]),
            ratio(medians[i], medians[2]),
            client_cpu.as_millis(),
            if server_pid.is_some() {
                format!("{} ms", server.as_millis())
            } else {
                "-".into()
            },
            if i >= 4 {
                format!(
                    "{} ({} rows each)",
                    reads[i].0,
                    reads[i].1 / reads[i].0.max(1)
                )
            } else if i == 3 {
                reads[i].0.to_string()
            } else {
                "-".into()
            },
        );
    }
    // Each run's own ratios (ways run one after the other in a run).
    let per_run_of = |a: usize, b: usize| per_run(&times[a], &times[b]);
    println!();
    // Each way against its fair floor: read_plan against raw scanners of
    // the same (joined) ranges; a query against raw scanners of the 120
    // ranges, on one connection (the goal) and on as many as the
    // query uses.
    println!(
        "per run, read_plan / floor (joined ranges): {}",
        per_run_of(3, 2)
    );
    for (i, short) in [
        (4, "query (defaults)"),
        (5, "query (sequential)"),
        (6, "query (60,000 rows)"),
    ] {
        println!(
            "per run, {short} / floor (120 ranges, 1 connection): {}",
            per_run_of(i, 0)
        );
        println!(
            "per run, {short} / floor (120 ranges, 8 connections): {}",
            per_run_of(i, 1)
        );
    }
    if std::env::var_os("HBASE_QUERY_ALL").is_some() {
        for (way, t) in ways.iter().zip(&times) {
            let each: Vec<String> = t.iter().map(|t| format!("{:.0}", ms(*t))).collect();
            println!("{way}: {}", each.join(" "));
        }
    }
    Ok(())
}
