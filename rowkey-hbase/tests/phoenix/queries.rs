//! A Phoenix table read by its leading key columns, natively, through the
//! key's layout (`Layout::prefix_ranges`: one range a salt bucket, since
//! Phoenix salts by the whole key; what the CLI's `scan` of a Phoenix
//! layout reads), against Phoenix's own `SELECT .. WHERE` of the same
//! rows: equalities on the first columns, and `IN`-lists as a range per
//! value.

use super::records::{record, selected, sorted, DDL, SELECT};
use super::{phoenix, with_sql};
use futures::TryStreamExt;
use rowkey::layout::dynamic::Value;
use rowkey::store::{KeyRange, ReadRequest, Record, Store, StoreExt};
use rowkey::RowKey;
use rowkey_fixtures::layouts::{PhoenixMetric, PhoenixMetricRow, Rng};

/// The rows whose first key columns hold one of `prefixes`, read natively.
async fn read(store: &rowkey_hbase::HBaseStore, prefixes: &[Vec<Value>]) -> Vec<PhoenixMetricRow> {
    let mut ranges = Vec::new();
    for p in prefixes {
        for (start, stop) in PhoenixMetric::layout().prefix_ranges(p).unwrap() {
            ranges.push(KeyRange::new(start, stop));
        }
    }
    let rows: Vec<PhoenixMetricRow> = store
        .read_rows(ReadRequest::new(ranges))
        .map_ok(|row| PhoenixMetricRow::from_row(&row).unwrap())
        .try_collect()
        .await
        .unwrap();
    sorted(rows)
}

/// 600 random rows (fewer after duplicate keys), sorted by key, of five
/// hosts (`h0`..`h4`) and four metrics (-2..=1), so that each query
/// finds rows.
pub(super) fn few_hosts(seed: u64) -> Vec<PhoenixMetricRow> {
    let mut rng = Rng(seed);
    let rows = (0..600)
        .map(|_| {
            let mut r = record(&mut rng, "h");
            r.metric = (r.metric.rem_euclid(4)) - 2;
            r
        })
        .collect();
    sorted(rows)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leading_columns_and_in_lists_read_what_phoenix_selects() {
    with_sql(|sql| sql.must(&DDL.replace("REC_M", "QRY_M")));
    let client = rowkey_hbase::HBaseClient::connect(&phoenix().hbase.zk_address())
        .await
        .unwrap();
    let store = client.table("QRY_M");
    store.put_records(&few_hosts(51)).await.unwrap();
    let select = SELECT.replace("REC_M", "QRY_M");
    let text = |s: &str| Value::Text(s.to_owned());
    let int = |i: i32| Value::Int(i.into());
    let queries: Vec<(String, Vec<Vec<Value>>)> = vec![
        ("HOST = 'h1'".into(), vec![vec![text("h1")]]),
        (
            "HOST = 'h3' AND METRIC = -2".into(),
            vec![vec![text("h3"), int(-2)]],
        ),
        (
            "HOST IN ('h0', 'h2', 'h4')".into(),
            ["h0", "h2", "h4"].iter().map(|h| vec![text(h)]).collect(),
        ),
        (
            "HOST = 'h2' AND METRIC IN (-1, 1)".into(),
            [-1, 1].iter().map(|m| vec![text("h2"), int(*m)]).collect(),
        ),
        ("HOST = 'nobody'".into(), vec![vec![text("nobody")]]),
    ];
    for (condition, prefixes) in queries {
        let theirs = with_sql(|sql| sql.query(&format!("{select} WHERE {condition}")).unwrap());
        let theirs = sorted(theirs.iter().map(|r| selected(r)).collect());
        let ours = read(&store, &prefixes).await;
        assert_eq!(ours, theirs, "{condition}");
        assert!(
            ours.is_empty() == condition.contains("nobody"),
            "{condition}: {}",
            ours.len()
        );
        // Every key of ours is one of the prefixes' (no row of another).
        for r in &ours {
            let key = r.key();
            assert!(prefixes.iter().any(|p| {
                p.first() == Some(&text(&key.host))
                    && p.get(1).is_none_or(|m| *m == int(key.metric))
            }));
        }
    }
}
