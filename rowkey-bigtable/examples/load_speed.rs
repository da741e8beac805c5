//! Bulk loads on the emulator: 50,000 IoT samples (salted readings, 8
//! buckets) with one index (by metric), loaded through
//! `IndexedStore::put_records`, against `write_rows` of the same 50,000
//! main rows alone; and `write_rows` against the floor of raw bigtable_rs
//! `mutate_rows` calls of the same rows. Every way writes into fresh
//! tables (deleted after, untimed), and ratios are of medians taken in one
//! run.
//!
//! Run: `cargo run --release -p rowkey-bigtable --example load_speed`
//! (`-- --records N --runs R` to change the size and the repetitions;
//! `--per-record` also times `put_record` 64 at a time, once).

use bigtable_rs::google::bigtable::v2::mutate_rows_request::Entry;
use bigtable_rs::google::bigtable::v2::mutation::{Mutation as Op, SetCell};
use bigtable_rs::google::bigtable::v2::{MutateRowsRequest, Mutation};
use futures::{StreamExt, TryStreamExt};
use rowkey::store::{IndexedStore, PutRecordsOptions, Row, Store};
use rowkey::{IndexOf, RowKey};
use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::bench::{arg, median, per_run, table_row};
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::layouts::{Reading, Sample, SampleByMetric};
use std::time::{Duration, Instant};

/// The rows as raw `MutateRows` entries (a `SetCell` per cell, the
/// server's timestamp), as `BigtableStore` sends them.
fn entries(rows: Vec<Row>) -> Vec<Entry> {
    rows.into_iter()
        .map(|row| Entry {
            row_key: row.key,
            mutations: row
                .cells
                .into_iter()
                .map(|c| Mutation {
                    mutation: Some(Op::SetCell(SetCell {
                        family_name: c.family,
                        column_qualifier: c.qualifier,
                        timestamp_micros: -1,
                        value: c.value,
                    })),
                })
                .collect(),
            idempotency: None,
        })
        .collect()
}

/// Raw bigtable_rs `mutate_rows` of `rows`, `per_request` entries a
/// request, `in_flight` requests at once; every entry's status checked.
async fn raw(store: &BigtableStore, rows: Vec<Row>, per_request: usize, in_flight: usize) {
    let table = store.table_name().to_string();
    let batches: Vec<Vec<Entry>> = entries(rows)
        .chunks(per_request)
        .map(<[Entry]>::to_vec)
        .collect();
    futures::stream::iter(batches)
        .map(|entries| {
            let (mut client, table) = (store.client(), table.clone());
            async move {
                let request = MutateRowsRequest {
                    table_name: table,
                    entries,
                    ..MutateRowsRequest::default()
                };
                let mut replies = client.mutate_rows(request).await.expect("mutate_rows");
                while let Some(reply) = replies.message().await.expect("a reply") {
                    for e in reply.entries {
                        let code = e.status.map_or(0, |s| s.code);
                        assert_eq!(code, 0, "entry {} failed", e.index);
                    }
                }
            }
        })
        .buffer_unordered(in_flight)
        .collect::<()>()
        .await;
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (n, runs) = (arg("--records", 50_000), arg("--runs", 5));
    let emu = Emulator::start();
    let admin = BigtableAdmin::connect_emulator(&emu.host, "p", "i")?;
    let splits = Reading::split_keys();
    let samples = Sample::rows(n);
    let main_rows = Sample::main_rows(&samples);
    let bytes: usize = main_rows.iter().map(Row::size).sum();
    let index_rows: Vec<Row> = samples
        .iter()
        .zip(&main_rows)
        .map(|(s, m)| {
            let key = SampleByMetric::index_key(s).to_vec()?;
            Ok(Row::new(
                key,
                vec![rowkey::store::Cell::new("i", "k", &m.key)],
            ))
        })
        .collect::<Result<_, rowkey::EncodeError>>()?;

    // The ways compared run next to each other in each run: write_rows
    // just after the raw floor, put_records just after write_rows.
    let ways: [&str; 8] = [
        "floor: raw bigtable_rs mutate_rows, one request of every row",
        "floor: raw bigtable_rs mutate_rows, requests of 1,000 rows, 4 in flight",
        "write_rows of the main rows (requests of 1,000 rows, 4 in flight: the default)",
        "put_records, defaults (batches of 1,000 records, 4 in flight)",
        "write_rows of the main rows, then of the index rows",
        "put_records, 1 in flight",
        "put_records, 8 in flight",
        "put_records, 16 in flight",
    ];
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); ways.len()];
    let mut table = 0;
    for _ in 0..runs {
        for (i, times) in times.iter_mut().enumerate() {
            table += 1;
            let (main_name, index_name) = (format!("samples{table}"), format!("by_metric{table}"));
            admin
                .create_table(&TableSpec::new(&main_name, &["d"]).splits(&splits))
                .await?;
            admin
                .create_table(&TableSpec::new(&index_name, &["i"]))
                .await?;
            let main = BigtableStore::connect_emulator(&emu.host, "p", "i", &main_name).await?;
            let index = BigtableStore::connect_emulator(&emu.host, "p", "i", &index_name).await?;
            let store = IndexedStore::new(main.clone(), index.clone());
            let (rows, more) = (main_rows.clone(), index_rows.clone());
            let put = |in_flight: usize| {
                let options = PutRecordsOptions::default().in_flight(in_flight);
                store.put_records_with::<SampleByMetric, _>(
                    samples.iter().cloned(),
                    options,
                    |_| {},
                )
            };
            let start = Instant::now();
            match i {
                0 => raw(&main, rows, n.max(1), 1).await,
                1 => raw(&main, rows, 1_000, 4).await,
                2 => main.write_rows(rows).await?,
                3 => assert_eq!(put(4).await?.records as usize, n),
                4 => {
                    main.write_rows(rows).await?;
                    index.write_rows(more).await?;
                }
                5 => assert_eq!(put(1).await?.records as usize, n),
                6 => assert_eq!(put(8).await?.records as usize, n),
                _ => assert_eq!(put(16).await?.records as usize, n),
            }
            times.push(start.elapsed());
            admin.delete_table(&main_name).await?;
            admin.delete_table(&index_name).await?;
        }
    }

    if std::env::args().any(|a| a == "--per-record") {
        admin
            .create_table(&TableSpec::new("once", &["d"]).splits(&splits))
            .await?;
        admin
            .create_table(&TableSpec::new("once_by_metric", &["i"]))
            .await?;
        let store = IndexedStore::new(
            BigtableStore::connect_emulator(&emu.host, "p", "i", "once").await?,
            BigtableStore::connect_emulator(&emu.host, "p", "i", "once_by_metric").await?,
        );
        let start = Instant::now();
        futures::stream::iter(&samples)
            .map(|s| store.put_record::<SampleByMetric, _>(s))
            .buffer_unordered(64)
            .try_collect::<()>()
            .await?;
        println!(
            "put_record, 64 at a time (once): {:.1} ms",
            start.elapsed().as_secs_f64() * 1e3
        );
    }

    let medians: Vec<Duration> = times.iter().map(|t| median(t)).collect();
    let (floor, plain) = (medians[1], medians[2]);
    println!(
        "\n{n} samples ({} KiB of main rows), one index, median of {runs} runs (fresh tables each):",
        bytes / 1024
    );
    println!("| way | median | min..max | / write_rows | / raw (1,000 a request, 4 in flight) |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for (way, t) in ways.iter().zip(&times) {
        println!("{}", table_row(way, t, &[plain, floor]));
    }
    // Each run's own ratios (of ways run one after the other): the spread
    // within one process, and their median.
    let ratios = |a: usize, b: usize| per_run(&times[a], &times[b]);
    println!();
    println!(
        "per run, put_records (defaults) / write_rows: {}",
        ratios(3, 2)
    );
    println!(
        "per run, write_rows / raw (1,000 a request, 4 in flight): {}",
        ratios(2, 1)
    );
    println!("per run, write_rows / raw (one request): {}", ratios(2, 0));
    Ok(())
}
