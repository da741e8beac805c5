//! A bulk load through two indexes on the emulator: 50,000 IoT samples
//! (salted readings, 8 buckets) with an index by metric (a row for every
//! sample) and a sparse index of alarms (a row for the quarter of samples
//! over `Sample::ALARM`), loaded through `IndexedTable::put_records`,
//! against `write_rows` of the same rows of the three tables: one table
//! after the other, and the main table then both index tables together.
//! Every way writes into fresh tables (created and deleted untimed); the
//! ways alternate within each run, and ratios are of medians of one run.
//!
//! Run: `cargo run --release -p rowkey-bigtable --example two_index_load`
//! (`-- --records N --runs R` to change the size and the repetitions).

use rowkey::store::{Cell, IndexedTable, Record, Row, Store};
use rowkey::{RowKey, SparseIndexOf};
use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::bench::{arg, median, table_row};
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::layouts::{Reading, Sample, SampleAlarm, SampleByMetric};
use std::time::{Duration, Instant};

/// The index rows of `samples` for the index keyed by `X`.
fn index_rows<X: SparseIndexOf<Sample>>(samples: &[Sample]) -> Vec<Row> {
    samples
        .iter()
        .filter_map(|s| {
            let main = s.key().to_vec().expect("a main key");
            let key = X::sparse_index_key(s)?.to_vec().expect("an index key");
            Some(Row::new(key, vec![Cell::new("i", "k", main)]))
        })
        .collect()
}

const WAYS: [&str; 3] = [
    "`write_rows`: the main rows, then the by-metric rows, then the alarm rows",
    "`write_rows`: the main rows, then both index tables' rows together",
    "**`IndexedTable::put_records`, two indexes (defaults: 1,000 records a batch, 4 in flight)**",
];

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (n, runs) = (arg("--records", 50_000), arg("--runs", 5));
    let emu = Emulator::start();
    let admin = BigtableAdmin::connect_emulator(&emu.host, "p", "i")?;
    let splits = Reading::split_keys();
    let samples = Sample::rows(n);
    let main_rows = Sample::main_rows(&samples);
    let (by_metric, alarms) = (
        index_rows::<SampleByMetric>(&samples),
        index_rows::<SampleAlarm>(&samples),
    );

    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); WAYS.len()];
    let mut table = 0;
    for run in 0..runs {
        for k in 0..WAYS.len() {
            // Alternate the order of the ways from run to run.
            let way = (k + run) % WAYS.len();
            table += 1;
            let names = [
                format!("samples{table}"),
                format!("by_metric{table}"),
                format!("alarms{table}"),
            ];
            admin
                .create_table(&TableSpec::new(&names[0], &["d"]).splits(&splits))
                .await?;
            for name in &names[1..] {
                admin.create_table(&TableSpec::new(name, &["i"])).await?;
            }
            let mut stores = Vec::new();
            for name in &names {
                stores.push(BigtableStore::connect_emulator(&emu.host, "p", "i", name).await?);
            }
            let [main, metric, alarm]: [BigtableStore; 3] =
                stores.try_into().map_err(|_| "three tables")?;
            let store = IndexedTable::new(main.clone())
                .with_index::<SampleByMetric>(metric.clone())
                .with_index::<SampleAlarm>(alarm.clone());
            let (rows, m, a) = (main_rows.clone(), by_metric.clone(), alarms.clone());
            let start = Instant::now();
            match way {
                0 => {
                    main.write_rows(rows).await?;
                    metric.write_rows(m).await?;
                    alarm.write_rows(a).await?;
                }
                1 => {
                    main.write_rows(rows).await?;
                    let (x, y) = tokio::join!(metric.write_rows(m), alarm.write_rows(a));
                    x.and(y)?;
                }
                _ => {
                    let done = store.put_records(samples.iter().cloned()).await?;
                    assert_eq!(done.records as usize, n);
                }
            }
            times[way].push(start.elapsed());
            for name in &names {
                admin.delete_table(name).await?;
            }
        }
    }

    let medians: Vec<Duration> = times.iter().map(|t| median(t)).collect();
    println!(
        "\n{n} samples: {} main rows, {} by-metric rows, {} alarm rows; median of {runs} runs (fresh tables each):",
        main_rows.len(),
        by_metric.len(),
        alarms.len()
    );
    println!("| way | median | min..max | / one table after the other | / index tables together |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for (way, t) in WAYS.iter().zip(&times) {
        println!("{}", table_row(way, t, &medians[..2]));
    }
    Ok(())
}
