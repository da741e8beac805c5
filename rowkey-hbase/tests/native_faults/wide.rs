//! Wide rows under faults: a row's cells read a page at a time, slices,
//! and cell queries merged across salt buckets by time, while regions
//! split between rows, move and merge and the balancer runs, each read
//! against the model; and a walk of cell pages whose every page is read
//! by a process of its own, from the token the one before printed.

use crate::harness::{client, command, patient};
use futures::TryStreamExt;
use rowkey::scan::CellCursor;
use rowkey::split::SplitKeys;
use rowkey::store::admin::TableSpec;
use rowkey::store::{CellOrder, CellQueryExt, CellSlice, Qualifier, WideColumn, WideStoreExt};
use rowkey::RowKey;
use rowkey_fixtures::conformance::wide::{Series, Tick};
use rowkey_fixtures::conformance::wide_merge::{Hourly, Second};
use rowkey_hbase::HBaseStore;
use std::collections::BTreeMap;

const TICKS: WideColumn<Tick, u64> = WideColumn::new("d").page_cells(97);
const POINTS: WideColumn<Second, u64> = WideColumn::new("d").page_cells(7);

fn hour_of(k: &Hourly) -> u32 {
    k.hour
}
fn time_of(k: &Hourly, q: &Second) -> u64 {
    u64::from(k.hour) * 3600 + u64::from(q.s)
}

/// (time, row key, qualifier) -> value: the model of the cell query.
type Points = BTreeMap<(u64, Vec<u8>, Vec<u8>), u64>;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A table of 8 wide rows of 2,000 cells (series 0..8) and a metric of
/// 16 series over 8 hours, 20 points a row, split between rows.
async fn wide_table(name: &str) -> (HBaseStore, BTreeMap<u32, Vec<(Tick, u64)>>, Points) {
    let client = client().await;
    let splits = SplitKeys::new([
        Series { id: 4 }.to_vec().unwrap(),
        Hourly {
            metric: 1,
            hour: 4,
            series: 0,
        }
        .to_vec()
        .unwrap(),
    ]);
    client
        .admin()
        .create_table(&TableSpec::new(name, &["d"]).splits(&splits))
        .await
        .unwrap();
    let store = client.table(name).with_retry(patient());
    let mut rows = BTreeMap::new();
    for id in 0..8u32 {
        let cells: Vec<(Tick, u64)> = (0..2000u16)
            .map(|s| {
                (
                    Tick { second: s * 3 },
                    u64::from(id) * 10_000 + u64::from(s),
                )
            })
            .collect();
        store
            .put_cells(&Series { id }, &TICKS, cells.clone())
            .await
            .unwrap();
        rows.insert(id, cells);
    }
    let mut points = Points::new();
    for series in 0..16u16 {
        for hour in 0..8u32 {
            let key = Hourly {
                metric: 1,
                hour,
                series,
            };
            let cells: Vec<(Second, u64)> = (0..20u16)
                .map(|i| {
                    (
                        Second {
                            s: i * 173 + series,
                        },
                        u64::from(hour) + u64::from(i),
                    )
                })
                .collect();
            store.put_cells(&key, &POINTS, cells.clone()).await.unwrap();
            for (q, v) in cells {
                let k = key.to_vec().unwrap();
                points.insert((time_of(&key, &q), k, q.to_qualifier().unwrap()), v);
            }
        }
    }
    (store, rows, points)
}

/// Every read against the model once.
async fn check_all(
    store: &HBaseStore,
    rows: &BTreeMap<u32, Vec<(Tick, u64)>>,
    points: &Points,
    what: &str,
) {
    for (&id, cells) in rows {
        let got: Vec<(Tick, u64)> = store
            .read_cells(&Series { id }, &TICKS, TICKS.all())
            .try_collect()
            .await
            .unwrap_or_else(|e| panic!("{what}: row {id}: {e}"));
        assert_eq!(&got, cells, "{what}: row {id}, 97 cells a page");
        let slice = TICKS
            .between(&Tick { second: 900 }, &Tick { second: 4500 })
            .unwrap()
            .per_row(700);
        let got: Vec<(Tick, u64)> = store
            .read_cells(&Series { id }, &TICKS, slice)
            .try_collect()
            .await
            .unwrap_or_else(|e| panic!("{what}: row {id}, a slice: {e}"));
        let want: Vec<(Tick, u64)> = cells
            .iter()
            .filter(|(t, _)| (900..4500).contains(&t.second))
            .take(700)
            .copied()
            .collect();
        assert_eq!(got, want, "{what}: row {id}, a slice");
    }
    let plan = Hourly::scan().metric.eq(1).plan().unwrap();
    let got: Vec<u64> = store
        .query_cells(
            &plan,
            &POINTS,
            CellSlice::family("d"),
            CellOrder::oldest_first(hour_of, time_of),
        )
        .map_ok(|c| time_of(&c.key, &c.qualifier))
        .try_collect()
        .await
        .unwrap_or_else(|e| panic!("{what}: the cell query: {e}"));
    let want: Vec<u64> = points.keys().map(|(t, _, _)| *t).collect();
    assert_eq!(got, want, "{what}: the cell query");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wide_reads_and_cell_queries_across_splits_moves_and_merges() {
    let name = format!("wide{}", std::process::id());
    let (store, rows, points) = wide_table(&name).await;
    let script = {
        let name = name.clone();
        tokio::spawn(async move {
            let mut done = Vec::new();
            for line in [
                format!("split {name} {}", hex(&Series { id: 2 }.to_vec().unwrap())),
                format!("move {name} {}", hex(&Series { id: 5 }.to_vec().unwrap())),
                format!(
                    "split {name} {}",
                    hex(&Hourly {
                        metric: 1,
                        hour: 6,
                        series: 0
                    }
                    .to_vec()
                    .unwrap())
                ),
                "balance".to_owned(),
                format!(
                    "move {name} {}",
                    hex(&Hourly {
                        metric: 1,
                        hour: 1,
                        series: 0
                    }
                    .to_vec()
                    .unwrap())
                ),
                format!("merge {name} {}", hex(&Series { id: 2 }.to_vec().unwrap())),
            ] {
                done.push(format!("{line}: {}", command(&line).await));
            }
            done
        })
    };
    let mut round = 0;
    loop {
        let finished = script.is_finished();
        check_all(&store, &rows, &points, &format!("round {round}")).await;
        round += 1;
        if finished {
            break;
        }
    }
    let done = script.await.unwrap();
    eprintln!("{round} rounds across: {done:#?}");
    assert!(round >= 2, "the reads overlapped the faults");
}

/// Set in a child process: the page it reads (see below).
const CHILD: &str = "ROWKEY_CELL_PAGE_CHILD";

/// Each page of a cell query read by a process of its own, from the
/// token the page before printed: the walk equals one read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_walk_of_cell_pages_resumes_in_new_processes() {
    if let Ok(spec) = std::env::var(CHILD) {
        return child_page(&spec).await;
    }
    let name = format!("walk{}", std::process::id());
    let (_, _, points) = wide_table(&name).await;
    let want: Vec<String> = points
        .iter()
        .rev()
        .map(|((t, row, q), v)| format!("{t} {} {} {v}", hex(row), hex(q)))
        .collect();
    let zk = crate::cluster().zk_address();
    let mut token = "-".to_owned();
    let mut walked = Vec::new();
    let mut pages = 0;
    loop {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "wide::a_walk_of_cell_pages_resumes_in_new_processes",
                "--exact",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env(CHILD, format!("{zk} {name} {token}"))
            .output()
            .expect("a child process");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "page {pages}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut next = None;
        // The test harness's own "test .. ... " may start a line.
        for line in stdout.lines() {
            if let Some(at) = line.find("CELL ") {
                walked.push(line[at + 5..].to_owned());
            } else if let Some(at) = line.find("NEXT ") {
                next = Some(line[at + 5..].to_owned());
            }
        }
        pages += 1;
        match next {
            Some(t) if t != "-" => token = t,
            _ => break,
        }
        assert!(pages < 100, "the walk ends");
    }
    assert!(pages >= 4, "several processes: {pages}");
    if walked != want {
        let at = walked.iter().zip(&want).take_while(|(a, b)| a == b).count();
        panic!(
            "{pages} pages, newest first: {} cells walked, {} wanted; first difference at {at}: \
             walked {:?}, wanted {:?}",
            walked.len(),
            want.len(),
            &walked[at.saturating_sub(2)..(at + 3).min(walked.len())],
            &want[at.saturating_sub(2)..(at + 3).min(want.len())],
        );
    }
}

/// One page of 700 cells, newest first, from `spec`'s token: prints each
/// cell and the next token.
async fn child_page(spec: &str) {
    let mut parts = spec.split(' ');
    let (zk, table, token) = (
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap(),
    );
    let client = rowkey_hbase::HBaseClient::connect_native(zk, crate::native_options())
        .await
        .unwrap();
    let store = client.table(table).with_retry(patient());
    let cursor: Option<CellCursor> = (token != "-").then(|| token.parse().expect("a token"));
    let plan = Hourly::scan().metric.eq(1).plan().unwrap().reversed();
    let page = store
        .page_cells(
            &plan,
            &POINTS,
            CellSlice::family("d"),
            CellOrder::newest_first(hour_of, time_of),
            cursor.as_ref(),
            700,
        )
        .await
        .unwrap();
    for c in &page.cells {
        println!(
            "CELL {} {} {} {}",
            time_of(&c.key, &c.qualifier),
            hex(&c.key.to_vec().unwrap()),
            hex(&c.qualifier.to_vec().unwrap()),
            c.value
        );
    }
    println!(
        "NEXT {}",
        page.next.map_or("-".to_owned(), |c| c.to_string())
    );
}
