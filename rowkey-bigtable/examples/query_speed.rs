//! The all-bucket ledger query on the emulator: 120 buckets, 100,000
//! rows, read five ways in one run, against the floor of a raw bigtable_rs
//! `read_rows` of the same `RowSet` (no decoding, no merging).
//!
//! Run: `cargo run --release -p rowkey-bigtable --example query_speed`
//! (`-- --rows N --runs R` to change the size and the repetitions).

use bigtable_rs::google::bigtable::v2::row_filter::Filter;
use bigtable_rs::google::bigtable::v2::{ReadRowsRequest, RowFilter};
use futures::StreamExt;
use rowkey::store::{QueryOptions, RowStream, Store, StoreExt};
use rowkey::RowKey;
use rowkey_bigtable::adapters::ToRowSet;
use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::layouts::Ledger;
use std::time::{Duration, Instant};

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
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
    let emu = Emulator::start();
    BigtableAdmin::connect_emulator(&emu.host, "p", "i")?
        .create_table(&TableSpec::new("ledger", &["d"]).splits(&Ledger::split_keys()))
        .await?;
    let store = BigtableStore::connect_emulator(&emu.host, "p", "i", "ledger").await?;
    let rows = Ledger::distinct_rows(n);
    let loaded = Instant::now();
    store.write_rows(rows).await?;
    println!("{n} ledger rows loaded in {:.2?}", loaded.elapsed());

    let plan = Ledger::scan().plan()?;
    let row_set = plan.to_row_set().expect("the plan has ranges");
    let floor = |store: &BigtableStore| {
        let mut client = store.client();
        let request = ReadRowsRequest {
            table_name: store.table_name().to_string(),
            rows: Some(row_set.clone()),
            filter: Some(RowFilter {
                filter: Some(Filter::CellsPerColumnLimitFilter(1)),
            }),
            ..ReadRowsRequest::default()
        };
        async move { client.read_rows(request).await.expect("raw read").len() }
    };
    let ways: [&str; 6] = [
        "floor: raw bigtable_rs read_rows of the RowSet",
        "read_plan: one multi-range request, typed",
        "query, sequential (1 read in flight), typed",
        "query, concurrent (32 in flight, 10,000 rows: the default), typed",
        "query, concurrent (8 in flight), typed",
        "query, concurrent (32 in flight, 60,000 rows), typed",
    ];
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); ways.len()];
    for _ in 0..runs {
        for (i, times) in times.iter_mut().enumerate() {
            if std::env::var_os("QUERY_SPEED_TRACE").is_some() {
                eprintln!("{}", ways[i]);
            }
            let start = Instant::now();
            let got = match i {
                0 => floor(&store).await,
                1 => typed(store.read_plan(&plan)).await,
                2 => {
                    typed(Box::pin(
                        store.query_with(&plan, QueryOptions::default().concurrency(1)),
                    ))
                    .await
                }
                3 => typed(Box::pin(store.query(&plan))).await,
                4 => {
                    typed(Box::pin(
                        store.query_with(&plan, QueryOptions::default().concurrency(8)),
                    ))
                    .await
                }
                _ => {
                    let wide = QueryOptions::default().buffer_rows(60_000);
                    typed(Box::pin(store.query_with(&plan, wide))).await
                }
            };
            assert_eq!(got, n, "{}", ways[i]);
            times.push(start.elapsed());
        }
    }
    let median = |t: &mut Vec<Duration>| {
        t.sort();
        t[t.len() / 2]
    };
    let floor_time = median(&mut times[0].clone());
    println!("\n{n} rows, 120 buckets, median of {runs} runs (release build):");
    println!("| way | median | / floor |");
    println!("| --- | ---: | ---: |");
    for (way, t) in ways.iter().zip(times.iter_mut()) {
        let m = median(t);
        println!(
            "| {way} | {:.1} ms | {:.2}x |",
            m.as_secs_f64() * 1e3,
            m.as_secs_f64() / floor_time.as_secs_f64()
        );
    }
    Ok(())
}
