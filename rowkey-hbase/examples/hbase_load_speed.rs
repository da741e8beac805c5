//! Bulk loads on a real HBase (2.6.1 standalone, its Thrift 1 server),
//! two comparisons, each of medians taken in one run:
//!
//! - `write_rows` of 100,000 ledger rows of about 100 bytes (a 32-byte
//!   key, one 61-byte cell `d:amount`) against the floor of raw
//!   hbase-thrift `mutateRows` calls of the same batches of 1,000 rows
//!   (every `Mutation` field set: a put, with the write-ahead log, as the
//!   store sends it): on one connection, one call after the other, and on
//!   4 connections with 4 calls in flight (the store's default
//!   `WriteOptions::in_flight`).
//! - `IndexedStore::put_records` of 100,000 IoT samples with one index (by
//!   metric; the Bigtable benchmark's `Sample` and `SampleByMetric`)
//!   against `write_rows` of the same samples' main rows alone, and
//!   against `write_rows` of the main rows then of the index rows.
//!
//! Every way writes into fresh tables (created before and deleted after,
//! untimed); each run times every way once, one after the other.
//!
//! Run: `cargo run --release -p rowkey-hbase --example hbase_load_speed`
//! (`-- --rows N --runs R` to change the size and the repetitions;
//! `--warmup W` untimed rounds first, 1 by default, none with `--runs 1`).
//! It starts a server of its own, or uses the Thrift 1 server at
//! `HBASE_THRIFT` when set (see `hbase_query_speed`).

use rowkey::store::admin::TableSpec;
use rowkey::store::{Cell, IndexedStore, PutRecordsOptions, Row, Store};
use rowkey::{IndexOf, RowKey};
use rowkey_fixtures::bench::{arg, median, per_run};
use rowkey_fixtures::layouts::{Ledger, Sample, SampleByMetric};
use rowkey_hbase::hbase_thrift::hbase::{
    BatchMutation, HbaseSyncClient, Mutation, THbaseSyncClient,
};
use rowkey_hbase::{ClientOptions, HBaseAdmin, HBaseClient};
use std::collections::BTreeMap;
use std::net::TcpStream;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use thrift::protocol::{TBinaryInputProtocol, TBinaryOutputProtocol};
use thrift::transport::{TBufferedReadTransport, TBufferedWriteTransport};

/// Rows per `mutateRows` call: the store's default `batch_rows`.
const BATCH: usize = 1000;

/// Calls in flight of the concurrent floor: the store's default.
const IN_FLIGHT: usize = 4;

type Raw = HbaseSyncClient<
    TBinaryInputProtocol<TBufferedReadTransport<TcpStream>>,
    TBinaryOutputProtocol<TBufferedWriteTransport<TcpStream>>,
>;

/// hbase-thrift's client on a new socket, as the store builds one.
fn raw_client(address: &str) -> Raw {
    let socket = TcpStream::connect(address).expect("connect to the Thrift server");
    socket.set_nodelay(true).expect("TCP_NODELAY");
    let read = socket.try_clone().expect("a second handle on the socket");
    HbaseSyncClient::new(
        TBinaryInputProtocol::new(TBufferedReadTransport::new(read), true),
        TBinaryOutputProtocol::new(TBufferedWriteTransport::new(socket), true),
    )
}

/// A batch of rows as `mutateRows` takes it: a put per cell, every field
/// spelled out (`Mutation::default()` would skip the write-ahead log).
fn batch(rows: &[Row]) -> Vec<BatchMutation> {
    rows.iter()
        .map(|row| BatchMutation {
            row: Some(row.key.clone()),
            mutations: Some(
                row.cells
                    .iter()
                    .map(|c| {
                        let mut column = Vec::with_capacity(c.family.len() + 1 + c.qualifier.len());
                        column.extend_from_slice(c.family.as_bytes());
                        column.push(b':');
                        column.extend_from_slice(&c.qualifier);
                        Mutation {
                            is_delete: Some(false),
                            column: Some(column),
                            value: Some(c.value.clone()),
                            write_to_w_a_l: Some(true),
                        }
                    })
                    .collect(),
            ),
        })
        .collect()
}

/// The floor: `rows` in `mutateRows` calls of `BATCH` rows, on as many
/// connections as `clients` holds (a thread each, taking the next batch
/// not yet taken).
fn raw_load(clients: &mut [Raw], table: &str, rows: &[Row]) {
    let batches = Mutex::new(rows.chunks(BATCH));
    std::thread::scope(|s| {
        for client in clients.iter_mut() {
            let batches = &batches;
            s.spawn(move || loop {
                let Some(rows) = batches.lock().expect("the batches").next() else {
                    break;
                };
                client
                    .mutate_rows(table.as_bytes().to_vec(), batch(rows), BTreeMap::new())
                    .expect("mutateRows");
            });
        }
    });
}

/// `n` ledger rows of about 100 bytes: distinct 32-byte keys, one cell
/// `d:amount` of 61 bytes.
fn hundred_byte_rows(n: usize) -> Vec<Row> {
    Ledger::distinct_rows(n)
        .into_iter()
        .map(|r| {
            let value = format!("{:0>61}", r.key.len());
            Row::new(r.key, vec![Cell::new("d", "amount", value)])
        })
        .collect()
}

/// Creates a fresh table of one family.
async fn create(
    admin: &HBaseAdmin,
    name: &str,
    family: &str,
) -> Result<(), rowkey::store::StoreError> {
    admin.create_table(&TableSpec::new(name, &[family])).await
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (n, runs) = (arg("--rows", 100_000), arg("--runs", 5).max(1));
    // A round to warm the server up, unless the run is a smoke test.
    let warmup = arg("--warmup", usize::from(runs > 1));
    let (address, own) = match std::env::var("HBASE_THRIFT") {
        Ok(address) => (address, None),
        Err(_) => {
            let hbase = rowkey_fixtures::hbase::HBase::start();
            println!("HBase started in {:.1?}", hbase.startup);
            (hbase.thrift.clone(), Some(hbase))
        }
    };
    // The store's defaults: 8 connections, 4 calls in flight.
    let client = HBaseClient::connect_with(&address, ClientOptions::default()).await?;
    let admin = client.admin();

    let rows = hundred_byte_rows(n);
    let row_bytes: usize = rows.iter().map(Row::size).sum();
    let samples = Sample::rows(n);
    let main_rows = Sample::main_rows(&samples);
    let index_rows: Vec<Row> = samples
        .iter()
        .zip(&main_rows)
        .map(|(s, m)| {
            let key = SampleByMetric::index_key(s).to_vec()?;
            Ok(Row::new(key, vec![Cell::new("i", "k", &m.key)]))
        })
        .collect::<Result<_, rowkey::EncodeError>>()?;
    let sample_bytes: usize = main_rows.iter().map(Row::size).sum();

    let mut one = vec![raw_client(&address)];
    let mut four: Vec<Raw> = (0..IN_FLIGHT).map(|_| raw_client(&address)).collect();

    // The ways compared run next to each other in each run.
    let ways: [&str; 7] = [
        "floor: raw mutateRows, calls of 1,000 rows, 1 connection",
        "floor: raw mutateRows, calls of 1,000 rows, 4 connections (4 in flight)",
        "write_rows, ~100-byte rows (calls of 1,000 rows, 4 in flight: the default)",
        "write_rows, ~100-byte rows, 1 in flight",
        "write_rows of the samples' main rows (the default)",
        "put_records of the samples, defaults (batches of 1,000 records, 4 in flight)",
        "write_rows of the samples' main rows, then of the index rows",
    ];
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); ways.len()];
    let prefix = format!("load{}", std::process::id());
    let mut table = 0;
    for round in 0..warmup + runs {
        for (i, times) in times.iter_mut().enumerate() {
            table += 1;
            let (main_name, index_name) = (
                format!("{prefix}_{table}"),
                format!("{prefix}_{table}_by_metric"),
            );
            create(&admin, &main_name, "d").await?;
            let indexed = i >= 5;
            if indexed {
                create(&admin, &index_name, "i").await?;
            }
            let main = client.table(&main_name);
            let index = client.table(&index_name);
            let store = IndexedStore::new(main.clone(), index.clone());
            let start = Instant::now();
            match i {
                0 => tokio::task::block_in_place(|| raw_load(&mut one, &main_name, &rows)),
                1 => tokio::task::block_in_place(|| raw_load(&mut four, &main_name, &rows)),
                2 => main.write_rows(rows.clone()).await?,
                3 => {
                    let one = rowkey_hbase::WriteOptions::default().in_flight(1);
                    main.clone()
                        .with_write_options(one)
                        .write_rows(rows.clone())
                        .await?
                }
                4 => main.write_rows(main_rows.clone()).await?,
                5 => {
                    let done = store
                        .put_records_with::<SampleByMetric, _>(
                            samples.iter().cloned(),
                            PutRecordsOptions::default(),
                            |_| {},
                        )
                        .await?;
                    assert_eq!(done.records as usize, n);
                }
                _ => {
                    main.write_rows(main_rows.clone()).await?;
                    index.write_rows(index_rows.clone()).await?;
                }
            }
            let elapsed = start.elapsed();
            if round >= warmup {
                times.push(elapsed);
            }
            admin.delete_table(&main_name).await?;
            if indexed {
                admin.delete_table(&index_name).await?;
            }
        }
    }
    drop(own);

    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let medians: Vec<Duration> = times.iter().map(|t| median(t)).collect();
    let ratio = |a: usize, b: usize| medians[a].as_secs_f64() / medians[b].as_secs_f64();
    println!(
        "\n{n} rows of ~{} bytes ({} KiB); {n} samples ({} KiB of main rows), one index; \
         median of {runs} runs after {warmup} untimed, fresh tables each (load average {}):",
        row_bytes / n.max(1),
        row_bytes / 1024,
        sample_bytes / 1024,
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!("| way | median | min..max | ratio |");
    println!("| --- | ---: | ---: | ---: |");
    let against = [
        "",
        "",
        "/ floor (1 connection)",
        "/ floor (1 connection)",
        "",
        "/ write_rows of the main rows",
        "/ write_rows of the main rows",
    ];
    for (i, way) in ways.iter().enumerate() {
        let (lo, hi) = (
            times[i].iter().min().copied().unwrap_or_default(),
            times[i].iter().max().copied().unwrap_or_default(),
        );
        let r = match i {
            1 => format!("{:.2}x / floor (1 connection)", ratio(1, 0)),
            2 => format!(
                "{:.2}x {}, {:.2}x / floor (4 connections)",
                ratio(2, 0),
                against[2],
                ratio(2, 1)
            ),
            3 => format!("{:.2}x {}", ratio(3, 0), against[3]),
            5 | 6 => format!("{:.2}x {}", ratio(i, 4), against[i]),
            _ => "-".into(),
        };
        println!(
            "| {way} | {:.1} ms | {:.0}..{:.0} ms | {r} |",
            ms(medians[i]),
            ms(lo),
            ms(hi),
        );
    }
    // Each run's own ratios (of ways run one after the other).
    let per_run_of = |a: usize, b: usize| per_run(&times[a], &times[b]);
    println!();
    println!(
        "per run, write_rows / floor (1 connection): {}",
        per_run_of(2, 0)
    );
    println!(
        "per run, write_rows / floor (4 connections): {}",
        per_run_of(2, 1)
    );
    println!(
        "per run, write_rows (1 in flight) / floor (1 connection): {}",
        per_run_of(3, 0)
    );
    println!(
        "per run, put_records / write_rows of the main rows: {}",
        per_run_of(5, 4)
    );
    println!(
        "per run, write_rows main then index / write_rows of the main rows: {}",
        per_run_of(6, 4)
    );
    Ok(())
}
