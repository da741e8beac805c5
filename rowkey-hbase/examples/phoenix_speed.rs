//! Apache Phoenix 5.2.1 tables of 1,000,000 rows, natively with `rowkey`
//! against Phoenix's own JDBC client (the thick client, in its own JVM),
//! on the same HBase 2.6.1, in one run:
//!
//! - **writes**: `put_records` of `#[record(phoenix)]` rows
//!   (`rowkey_fixtures::layouts::PhoenixMetricRow`), 10,000 a call,
//!   against `UPSERT` through one prepared statement, committed every
//!   1,000 rows (Phoenix's batching), each into a table of its own;
//! - **reads**: the whole table read natively as typed records
//!   (`read_rows`, `from_row`), against `SELECT *` with each value read
//!   by its typed getter (`getString`, `getInt`, `getLong`, `getDouble`,
//!   `getDate`).
//!
//! Both tables hold the same rows (`testing/phoenix`'s `PhoenixBench`
//! generator, written here too), so each way's read of each table gives
//! one checksum, which the run checks: what was written natively is what
//! Phoenix reads, and the other way round. JDBC's times are measured in
//! its JVM after it connected, as ours are after ours did. The reads take
//! turns, each round starting with the other way; the figures are medians
//! of `--runs` rounds.
//!
//! Run: `cargo run --release -p rowkey-hbase --example phoenix_speed`
//! (`-- --rows N --runs R`).

use futures::TryStreamExt;
use rowkey::store::{KeyRange, ReadRequest, Record, Store, StoreExt};
use rowkey_fixtures::bench::{arg, median, per_run, table_row};
use rowkey_fixtures::hbase::{phoenix, PhoenixSql};
use rowkey_fixtures::layouts::PhoenixMetricRow;
use rowkey_hbase::{HBaseClient, HBaseStore};
use std::time::{Duration, Instant};

const DDL: &str = "(HOST VARCHAR NOT NULL, METRIC INTEGER NOT NULL, AT BIGINT NOT NULL, \
    V DOUBLE, NOTE VARCHAR(20), SEEN DATE \
    CONSTRAINT PK PRIMARY KEY (HOST, METRIC, AT DESC)) SALT_BUCKETS=16";

/// Row `i`, as `PhoenixBench.java` makes it.
fn row(i: u64) -> PhoenixMetricRow {
    PhoenixMetricRow {
        host: format!("host-{}", i % 1000),
        metric: ((i / 1000) % 100) as i32,
        at: 1_700_000_000_000 + i as i64,
        v: (!i.is_multiple_of(3)).then_some(i as f64 * 0.25),
        note: (!i.is_multiple_of(5)).then(|| format!("note-{}", i % 97)),
        seen: Some(1_600_000_000_000 + i as i64),
    }
}

/// A row's share of the checksum, as `PhoenixBench.checksum`.
fn checksum(r: &PhoenixMetricRow) -> i64 {
    (r.host.len() as i64)
        .wrapping_add(i64::from(r.metric))
        .wrapping_add(r.at % 1_000_003)
        .wrapping_add(r.v.map_or(7, |v| (v * 4.0) as i64))
        .wrapping_add(r.note.as_ref().map_or(11, |n| n.len() as i64))
        .wrapping_add(r.seen.map_or(13, |s| s % 1_009))
}

/// `bench-upsert` or `bench-select`'s answer: its time, rows and checksum.
fn jdbc(sql: &mut PhoenixSql, command: &str) -> (Duration, u64, i64) {
    let rows = sql
        .query(command)
        .unwrap_or_else(|e| panic!("{command}: {e}"));
    let field = |i: usize| rows[0][i].clone().expect("a number");
    (
        Duration::from_millis(field(0).parse().unwrap()),
        field(1).parse().unwrap(),
        field(2).parse().unwrap(),
    )
}

/// The whole table read natively as typed records: time, rows, checksum.
async fn native_read(store: &HBaseStore) -> (Duration, u64, i64) {
    let began = Instant::now();
    let (rows, sum) = store
        .read_rows(ReadRequest::new([KeyRange::new(Vec::new(), None)]))
        .try_fold((0u64, 0i64), |(n, sum), row| async move {
            let r = PhoenixMetricRow::from_row(&row).expect("a Phoenix row");
            Ok((n + 1, sum.wrapping_add(checksum(&r))))
        })
        .await
        .unwrap();
    (began.elapsed(), rows, sum)
}

#[tokio::main]
async fn main() {
    let rows = arg("--rows", 1_000_000) as u64;
    let runs = arg("--runs", 3);
    let p = phoenix();
    let client = HBaseClient::connect(&p.hbase.zk_address()).await.unwrap();
    {
        let mut sql = p.sql();
        for t in ["BENCH_NATIVE", "BENCH_JDBC"] {
            let _ = sql.execute(&format!("DROP TABLE {t}"));
            sql.must(&format!("CREATE TABLE {t} {DDL}"));
        }
    }
    let native = client.table("BENCH_NATIVE");
    let want: i64 = (0..rows)
        .map(|i| checksum(&row(i)))
        .fold(0, i64::wrapping_add);

    // Writes: each way once, into its own table, in chunks.
    let chunk = 100_000u64.min(rows);
    let (mut ours, mut theirs) = (Duration::ZERO, Duration::ZERO);
    for from in (0..rows).step_by(chunk as usize) {
        let to = (from + chunk).min(rows);
        let records: Vec<PhoenixMetricRow> = (from..to).map(row).collect();
        let began = Instant::now();
        for part in records.chunks(10_000) {
            native.put_records(part).await.unwrap();
        }
        ours += began.elapsed();
        let (t, n, _) = jdbc(
            &mut p.sql(),
            &format!("bench-upsert BENCH_JDBC {from} {to} 1000"),
        );
        assert_eq!(n, to - from);
        theirs += t;
    }
    println!("{rows} rows, SALT_BUCKETS=16; medians of {runs} runs.\n");
    println!("| way | time | rows/s | against UPSERT batches |");
    println!("| --- | --- | --- | --- |");
    let rate = |d: Duration| format!("{:.0}", rows as f64 / d.as_secs_f64());
    println!(
        "| put_records (native) | {:.2} s | {} | {:.2}x |",
        ours.as_secs_f64(),
        rate(ours),
        ours.as_secs_f64() / theirs.as_secs_f64()
    );
    println!(
        "| UPSERT, commit every 1,000 (JDBC) | {:.2} s | {} | 1.00x |\n",
        theirs.as_secs_f64(),
        rate(theirs)
    );

    // Reads: each way over each table, every round; the checksums agree.
    let jdbc_table = client.table("BENCH_JDBC");
    let mut times: [Vec<Duration>; 2] = Default::default();
    for run in 0..=runs {
        for turn in 0..2 {
            let way = (run + turn) % 2;
            let (t, n, sum) = if way == 0 {
                native_read(&jdbc_table).await
            } else {
                jdbc(&mut p.sql(), "bench-select BENCH_JDBC")
            };
            assert_eq!((n, sum), (rows, want), "way {way}");
            if run > 0 {
                times[way].push(t);
            }
        }
    }
    // The other table, once each: written natively, read by Phoenix; and
    // the reverse above.
    assert_eq!(native_read(&native).await.1, rows);
    let (_, n, sum) = jdbc(&mut p.sql(), "bench-select BENCH_NATIVE");
    assert_eq!(
        (n, sum),
        (rows, want),
        "Phoenix's read of the native writes"
    );

    let floor = [median(&times[1])];
    println!("| read | median | range | against `SELECT *` |");
    println!("| --- | --- | --- | --- |");
    println!(
        "{}",
        table_row("typed records, natively", &times[0], &floor)
    );
    println!("{}", table_row("`SELECT *` (JDBC)", &times[1], &floor));
    println!("\nper round: {}", per_run(&times[0], &times[1]));
}
