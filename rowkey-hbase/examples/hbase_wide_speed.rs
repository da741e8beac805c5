//! Wide rows on a standalone HBase 2.6.1, natively, against the raw
//! `hbase-native` client reading the same cells, in one run:
//!
//! - a row of 3,600 points (OpenTSDB's one-second row: a 2-byte
//!   qualifier, an 8-byte value) read as typed points with `read_cells`,
//!   against the raw client's `get` of the row (cells as bytes);
//! - seconds 600 to 1,200 of each of 24 hourly rows, as one cell query
//!   (`query_cells`, oldest first), against the raw client's scan of the
//!   24 rows with the same `ColumnRangeFilter`;
//! - 16 salt buckets of one metric (64 series, 6 hours, 60 points a row:
//!   23,040 cells) merged by time with `query_cells`, against a plain
//!   key-order read of the same rows (`read_rows` of the plan's ranges,
//!   cells left as bytes).
//!
//! The ways take turns, a read each, `--reads` reads a run (after one
//! untimed run), each round starting one way later; the figures are
//! medians of `--runs` runs.
//!
//! Run: `cargo run --release -p rowkey-hbase --example hbase_wide_speed`
//! (`-- --runs R --reads N`).

use futures::TryStreamExt;
use rowkey::store::admin::TableSpec;
use rowkey::store::{
    CellOrder, CellQueryExt, KeyRange, ReadRequest, Store, WideColumn, WideStoreExt,
};
use rowkey::RowKey;
use rowkey_fixtures::bench::{arg, median, table_row};
use rowkey_fixtures::hbase::HBase;
use rowkey_hbase::hbase_native::{Client, Filter, Scan};
use rowkey_hbase::{HBaseClient, HBaseStore};
use std::time::{Duration, Instant};

/// One series' hour.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct SeriesHour {
    series: u32,
    hour: u32,
}

/// One metric's hour of one series, salted by series into 16 buckets.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Bucketed {
    metric: u8,
    hour: u32,
    #[salt(buckets = 16, binary)]
    series: u16,
}

/// A point's second in its hour.
#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
struct Second {
    s: u16,
}

const POINTS: WideColumn<Second, f64> = WideColumn::new("t");

fn hour_of(k: &SeriesHour) -> u32 {
    k.hour
}
fn time_of(k: &SeriesHour, q: &Second) -> u64 {
    u64::from(k.hour) * 3600 + u64::from(q.s)
}
fn bucket_hour(k: &Bucketed) -> u32 {
    k.hour
}
fn bucket_time(k: &Bucketed, q: &Second) -> u64 {
    u64::from(k.hour) * 3600 + u64::from(q.s)
}

async fn table(client: &HBaseClient, name: &str) -> HBaseStore {
    let _ = client.admin().delete_table(name).await;
    client
        .admin()
        .create_table(&TableSpec::new(name, &["t"]))
        .await
        .unwrap();
    client.table(name)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let runs = arg("--runs", 5);
    let reads = arg("--reads", 50);
    let hbase = HBase::start();
    let client = HBaseClient::connect(&hbase.zk_address()).await.unwrap();
    let raw = Client::connect(&hbase.zk_address()).await.unwrap();

    // One row of 3,600 points; 24 hourly rows of the same.
    let wide = table(&client, "wide_speed").await;
    for hour in 0..24u32 {
        let row = SeriesHour { series: 1, hour };
        let points = (0..3600u16).map(|s| (Second { s }, f64::from(s) * 0.5));
        wide.put_cells(&row, &POINTS, points).await.unwrap();
    }
    // 16 buckets: 64 series, 6 hours, 60 points a row.
    let buckets = table(&client, "wide_buckets").await;
    for series in 0..64u16 {
        for hour in 0..6u32 {
            let row = Bucketed {
                metric: 1,
                hour,
                series,
            };
            let points = (0..60u16).map(|i| {
                (
                    Second {
                        s: i * 60 + series % 60,
                    },
                    1.0,
                )
            });
            buckets.put_cells(&row, &POINTS, points).await.unwrap();
        }
    }
    let row_key = SeriesHour { series: 1, hour: 5 }.to_vec().unwrap();
    let day = SeriesHour::scan().series.eq(1).plan().unwrap();
    let slice = POINTS
        .between(&Second { s: 600 }, &Second { s: 1200 })
        .unwrap();
    let metric = Bucketed::scan().metric.eq(1).plan().unwrap();
    let (lo, hi) = (
        Second { s: 600 }.to_vec().unwrap(),
        Second { s: 1200 }.to_vec().unwrap(),
    );

    let mut times: [Vec<Duration>; 7] = Default::default();
    for run in 0..=runs {
        let typed_row = || async {
            let cells: Vec<(Second, f64)> = wide
                .read_cells(&SeriesHour { series: 1, hour: 5 }, &POINTS, POINTS.all())
                .try_collect()
                .await
                .unwrap();
            assert_eq!(cells.len(), 3600);
            cells.len()
        };
        let raw_row = || async {
            let rows = raw
                .get(
                    "wide_speed",
                    vec![row_key.clone()],
                    vec![(b"t".to_vec(), None)],
                )
                .await
                .unwrap();
            let n = rows[0].as_ref().map_or(0, |r| r.cells.len());
            assert_eq!(n, 3600);
            n
        };
        let store_row = || async {
            let rows: Vec<_> = wide
                .read_rows(ReadRequest::row(&row_key))
                .try_collect()
                .await
                .unwrap();
            let n = rows[0].cells.len();
            assert_eq!(n, 3600);
            n
        };
        let typed_slice = || async {
            let cells: Vec<_> = wide
                .query_cells(
                    &day,
                    &POINTS,
                    slice.clone(),
                    CellOrder::oldest_first(hour_of, time_of),
                )
                .try_collect()
                .await
                .unwrap();
            assert_eq!(cells.len(), 24 * 600);
            cells.len()
        };
        let raw_slice = || async {
            let range = day.single().unwrap();
            let scan = Scan::range(
                range.start().to_vec(),
                range.stop().unwrap_or_default().to_vec(),
            )
            .family(b"t")
            .filter(Filter::ColumnRanges(vec![(lo.clone(), Some(hi.clone()))]));
            let n: usize = raw
                .scan("wide_speed", scan)
                .try_fold(0, |n, r| async move { Ok(n + r.cells.len()) })
                .await
                .unwrap();
            assert_eq!(n, 24 * 600);
            n
        };
        let merged = || async {
            let order = CellOrder::oldest_first(bucket_hour, bucket_time);
            let cells: Vec<_> = buckets
                .query_cells(&metric, &POINTS, POINTS.all(), order)
                .try_collect()
                .await
                .unwrap();
            assert_eq!(cells.len(), 64 * 6 * 60);
            cells.len()
        };
        let key_order = || async {
            let request = ReadRequest::new(metric.ranges().map(KeyRange::from));
            let n: usize = buckets
                .read_rows(request)
                .try_fold(0, |n, r| async move { Ok(n + r.cells.len()) })
                .await
                .unwrap();
            assert_eq!(n, 64 * 6 * 60);
            n
        };
        // The ways take turns, a read each, so that what else the machine
        // does falls on all of them alike; the turn starts one way later
        // each round, so no way always follows the same one (a way after
        // a large read pays for the allocator tidying that read's frees).
        let mut took = [Duration::ZERO; 7];
        for round in 0..reads {
            for turn in 0..7 {
                let i = (round + turn) % 7;
                let t = Instant::now();
                match i {
                    0 => std::hint::black_box(typed_row().await),
                    1 => std::hint::black_box(raw_row().await),
                    2 => std::hint::black_box(typed_slice().await),
                    3 => std::hint::black_box(raw_slice().await),
                    4 => std::hint::black_box(merged().await),
                    5 => std::hint::black_box(key_order().await),
                    _ => std::hint::black_box(store_row().await),
                };
                took[i] += t.elapsed();
            }
        }
        if run == 0 {
            continue; // untimed
        }
        for (i, t) in took.into_iter().enumerate() {
            times[i].push(t / reads as u32);
        }
        eprintln!("run {run}: {took:?}");
    }
    println!("a read each, medians of {runs} runs of {reads} reads; ratios against the raw way\n");
    println!("| way | median | range | vs raw |");
    println!("| --- | ---: | ---: | ---: |");
    let rows = [
        ("3,600-cell row: typed points, read_cells", 0, 1),
        ("3,600-cell row: hbase-native get, raw cells", 1, 1),
        ("3,600-cell row: the store's read_rows, raw cells", 6, 1),
        ("seconds 600..1,200 of 24 hourly rows: query_cells", 2, 3),
        (
            "seconds 600..1,200 of 24 hourly rows: hbase-native scan, ColumnRangeFilter",
            3,
            3,
        ),
        ("16 buckets merged by time: query_cells", 4, 5),
        ("16 buckets in key order: read_rows, raw cells", 5, 5),
    ];
    for (way, i, against) in rows {
        println!("{}", table_row(way, &times[i], &[median(&times[against])]));
    }
}
