//! Typed scans (`Key::scan()`) on Phoenix keys against Phoenix's own
//! `SELECT .. WHERE .. ORDER BY` of the same predicate on the primary
//! key, row for row and in order: a salted table written natively (its
//! buckets merged in key order), and a table Phoenix filled whose text
//! key columns are NULL-able, ascending and descending (read through
//! both transports: natively and through HBase's Thrift 1 server).

use super::queries::few_hosts;
use super::records::{selected, DDL, SELECT};
use super::{phoenix, with_sql};
use futures::TryStreamExt;
use rowkey::scan::ScanPlan;
use rowkey::store::{Record, StoreExt};
use rowkey::EncodeError;
use rowkey_fixtures::layouts::{PhoenixMetric, PhoenixMetricRow, PhoenixNullable, Rng};
use std::ops::Bound::{Excluded, Included, Unbounded};

async fn client() -> rowkey_hbase::HBaseClient {
    rowkey_hbase::HBaseClient::connect(&phoenix().hbase.zk_address())
        .await
        .unwrap()
}

/// The rows of `plan`, natively, in the order `query` merges them.
async fn keys<const N: usize>(
    store: &rowkey_hbase::HBaseStore,
    plan: &ScanPlan<N>,
) -> Vec<Vec<u8>> {
    store
        .query(plan)
        .map_ok(|row| row.key)
        .try_collect()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_scans_of_a_salted_table_return_what_phoenix_selects_in_order() {
    with_sql(|sql| sql.must(&DDL.replace("REC_M", "SCAN_M")));
    let store = client().await.table("SCAN_M");
    let rows = few_hosts(52);
    store.put_records(&rows).await.unwrap();
    let one = rows[rows.len() / 2].key();
    let s = PhoenixMetric::scan();
    let queries: Vec<(String, Result<ScanPlan<_>, EncodeError>)> = vec![
        (
            "HOST = 'h2' AND METRIC BETWEEN -1 AND 1".into(),
            s.host.eq("h2").metric.range(-1..=1),
        ),
        ("HOST LIKE 'h1%'".into(), s.host.starts_with("h1")),
        (
            "HOST > 'h1' AND HOST <= 'h3'".into(),
            s.host.range((Excluded("h1"), Included("h3"))),
        ),
        (
            "HOST = 'h0' AND METRIC = 0 AND AT >= 0 AND AT < 1000000000000".into(),
            s.host.eq("h0").metric.eq(0).at.range(0..1_000_000_000_000),
        ),
        (
            "HOST = 'h4' AND METRIC IN (-2, 1)".into(),
            s.host.eq("h4").metric.is_in([-2, 1]).plan(),
        ),
        (
            "HOST = 'h3' AND AT > 0".into(),
            s.host
                .eq("h3")
                .metric
                .any()
                .at
                .range((Excluded(0), Unbounded)),
        ),
        (
            "HOST IN ('h0', 'h2') AND METRIC < 0".into(),
            s.host.is_in(["h0", "h2"]).metric.until(0),
        ),
        (
            format!(
                "HOST = '{}' AND METRIC = {} AND AT = {}",
                one.host, one.metric, one.at
            ),
            s.host
                .eq(&one.host)
                .metric
                .eq(one.metric)
                .at
                .eq(one.at)
                .plan(),
        ),
        ("HOST = 'nobody'".into(), s.host.eq("nobody").plan()),
    ];
    let select = SELECT.replace("REC_M", "SCAN_M");
    for (condition, plan) in queries {
        let plan = plan.unwrap();
        let sql = format!("{select} WHERE {condition} ORDER BY HOST, METRIC, AT DESC");
        let theirs: Vec<PhoenixMetricRow> = with_sql(|sql_| sql_.query(&sql).unwrap())
            .iter()
            .map(|r| selected(r))
            .collect();
        let ours: Vec<PhoenixMetricRow> = store
            .query(&plan)
            .map_ok(|row| PhoenixMetricRow::from_row(&row).unwrap())
            .try_collect()
            .await
            .unwrap();
        assert_eq!(ours, theirs, "{condition}");
        assert_eq!(ours.is_empty(), condition.contains("nobody"), "{condition}");
    }
}

const NULLABLE_DDL: &str = "CREATE TABLE SCAN_N (A VARCHAR(16), B VARCHAR(16), \
    C INTEGER NOT NULL, D VARCHAR(16), V INTEGER \
    CONSTRAINT PK PRIMARY KEY (A, B DESC, C, D))";

/// NULL-able key columns' order in Phoenix's keys: a NULL first, whether
/// the column is ascending or descending.
const NULLABLE_ORDER: &str = "ORDER BY A NULLS FIRST, B DESC NULLS FIRST, C, D NULLS FIRST";

fn nullable_text(rng: &mut Rng) -> Option<&'static str> {
    [None, Some("a"), Some("ab"), Some("b"), Some("ba")][rng.below(5) as usize]
}

fn sql_text(v: Option<&str>) -> String {
    v.map_or("NULL".into(), |v| format!("'{v}'"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_scans_over_null_able_key_columns_return_what_phoenix_selects_in_order() {
    with_sql(|sql| {
        sql.must(NULLABLE_DDL);
        let mut rng = Rng(53);
        for i in 0..200 {
            let (a, b, d) = (
                nullable_text(&mut rng),
                nullable_text(&mut rng),
                nullable_text(&mut rng),
            );
            let c = rng.below(3) as i32 - 1;
            sql.must(&format!(
                "UPSERT INTO SCAN_N VALUES ({}, {}, {c}, {}, {i})",
                sql_text(a),
                sql_text(b),
                sql_text(d)
            ));
        }
    });
    let store = client().await.table("SCAN_N");
    // The store's other transport: HBase's Thrift 1 server.
    let thrift = rowkey_hbase::HBaseClient::connect(&phoenix().hbase.thrift)
        .await
        .unwrap()
        .table("SCAN_N");
    let s = PhoenixNullable::scan();
    let queries: Vec<(&str, Result<ScanPlan<_>, EncodeError>)> = vec![
        ("A IS NULL", s.a.eq(None).plan()),
        ("A IS NOT NULL", s.a.range(..)),
        ("A = 'a' AND B IS NULL", s.a.eq(Some("a")).b.eq(None).plan()),
        (
            "A = 'ab' AND B > 'a'",
            s.a.eq(Some("ab")).b.range((Excluded(Some("a")), Unbounded)),
        ),
        (
            "A = 'b' AND B <= 'ab'",
            s.a.eq(Some("b")).b.range((Unbounded, Included(Some("ab")))),
        ),
        ("A >= 'ab' AND A < 'b'", s.a.range(Some("ab")..Some("b"))),
        ("A LIKE 'a%'", s.a.starts_with("a")),
        ("A IS NULL AND B LIKE 'b%'", s.a.eq(None).b.starts_with("b")),
        (
            "A IS NULL AND B IS NULL AND C BETWEEN 0 AND 1",
            s.a.eq(None).b.eq(None).c.range(0..=1),
        ),
        (
            "A = 'a' AND B = 'b' AND C = 0 AND D IS NULL",
            s.a.eq(Some("a")).b.eq(Some("b")).c.eq(0).d.eq(None).plan(),
        ),
        (
            "A = 'ba' AND B = 'a' AND C = -1 AND D >= 'b'",
            s.a.eq(Some("ba"))
                .b
                .eq(Some("a"))
                .c
                .eq(-1)
                .d
                .since(Some("b")),
        ),
        (
            "(A IS NULL OR A = 'b') AND B = 'a'",
            s.a.is_in([None, Some("b")]).b.eq(Some("a")).plan(),
        ),
        (
            "A = 'a' AND B = 'a' AND D > 'a'",
            s.a.eq(Some("a"))
                .b
                .eq(Some("a"))
                .c
                .any()
                .d
                .range((Excluded(Some("a")), Unbounded)),
        ),
    ];
    let mut matched = 0;
    for (condition, plan) in queries {
        let plan = plan.unwrap();
        let sql = format!("SELECT A, B, C, D FROM SCAN_N WHERE {condition} {NULLABLE_ORDER}");
        let theirs: Vec<PhoenixNullable> = with_sql(|sql_| sql_.query(&sql).unwrap())
            .into_iter()
            .map(|r| PhoenixNullable {
                a: r[0].clone(),
                b: r[1].clone(),
                c: r[2].as_deref().unwrap().parse().unwrap(),
                d: r[3].clone(),
            })
            .collect();
        let ours: Vec<PhoenixNullable> = keys(&store, &plan)
            .await
            .iter()
            .map(|k| PhoenixNullable::decode(k).unwrap())
            .collect();
        assert_eq!(ours, theirs, "{condition}");
        let over_thrift: Vec<PhoenixNullable> = keys(&thrift, &plan)
            .await
            .iter()
            .map(|k| PhoenixNullable::decode(k).unwrap())
            .collect();
        assert_eq!(over_thrift, theirs, "{condition}, over Thrift 1");
        matched += usize::from(!ours.is_empty());
    }
    // The rows are few and the values fewer: nearly every query finds some.
    assert!(matched >= 10, "{matched} queries found rows");
}
