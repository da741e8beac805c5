//! IN-list plans ordered after their lists, on the Bigtable emulator:
//! the seed ledger (6,000 rows, 120 grouped buckets; months and users
//! listed, rows merged by the day and time after them) and sensor
//! readings (6,000 rows; one device, its metrics listed, newest first
//! across the metrics, `latest(n)`). `BigtableStore`'s `query` and `page`
//! return exactly the brute force's rows, forwards and reversed, with
//! limits, in small reads and pages.

use futures::TryStreamExt;
use rowkey::scan::{Cursor, ScanPlan};
use rowkey::store::{Cell, QueryOptions, Row, Store, StoreExt};
use rowkey::RowKey;
use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::brute::merged_keys;
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::layouts::{Ledger, Reading, Rng};
use std::cmp::Reverse;
use std::collections::BTreeSet;

async fn table_with(emu: &Emulator, name: &str, keys: &BTreeSet<Vec<u8>>) -> BigtableStore {
    BigtableAdmin::connect_emulator(&emu.host, "p", "i")
        .unwrap()
        .create_table(&TableSpec::new(name, &["d"]))
        .await
        .unwrap();
    let store = BigtableStore::connect_emulator(&emu.host, "p", "i", name)
        .await
        .unwrap();
    let rows: Vec<Row> = keys
        .iter()
        .map(|k| Row::new(k.clone(), vec![Cell::new("d", "v", "x")]))
        .collect();
    store.write_rows(rows).await.unwrap();
    store
}

async fn query<const N: usize>(
    store: &BigtableStore,
    plan: &ScanPlan<N>,
    options: QueryOptions,
) -> Vec<Vec<u8>> {
    store
        .query_with(plan, options)
        .map_ok(|r| r.key)
        .try_collect()
        .await
        .unwrap()
}

async fn pages<const N: usize>(
    store: &BigtableStore,
    plan: &ScanPlan<N>,
    size: usize,
) -> Vec<Vec<u8>> {
    let (mut out, mut resume): (Vec<Vec<u8>>, Option<Cursor>) = (Vec::new(), None);
    for _ in 0..10_000 {
        let p = store.page(plan, resume.as_ref(), size).await.unwrap();
        out.extend(p.rows.into_iter().map(|r| r.key));
        match p.next {
            Some(c) => resume = Some(c),
            None => return out,
        }
    }
    panic!("paging does not advance")
}

/// `plan` (in key order) ordered after its IN-lists returns `expected`
/// forwards and reversed, with limits, in small reads and in pages.
async fn check<const N: usize>(store: &BigtableStore, plan: &ScanPlan<N>, expected: &[Vec<u8>]) {
    assert!(
        expected.len() >= 100,
        "{} rows: too few to show",
        expected.len()
    );
    let ordered = plan.clone().ordered_after_in_lists().unwrap();
    let reversed = ordered.clone().reversed();
    let back: Vec<Vec<u8>> = expected.iter().rev().cloned().collect();
    let small = QueryOptions::default().page_rows(7).buffer_rows(40);
    for options in [QueryOptions::default(), small] {
        assert_eq!(query(store, &ordered, options).await, expected);
        assert_eq!(query(store, &reversed, options).await, back);
    }
    for limit in [1, 10, 99] {
        let got = query(store, &ordered.clone().with_limit(limit), small).await;
        assert_eq!(got, expected[..limit]);
        let got = query(store, &reversed.clone().with_limit(limit), small).await;
        assert_eq!(got, back[..limit]);
    }
    assert_eq!(pages(store, &ordered, 23).await, expected);
    assert_eq!(pages(store, &reversed, 37).await, back);
    // The same rows as in key order, which differ in order.
    let mut key_order = query(store, plan, QueryOptions::default()).await;
    assert_ne!(key_order, expected);
    key_order.sort();
    let mut sorted = expected.to_vec();
    sorted.sort();
    assert_eq!(key_order, sorted);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_lists_merged_by_later_fields_equal_brute_force() {
    let emu = Emulator::start();

    // The seed ledger: bucket(3) + yyyy-MM + user(10) + -dd hh:mm:ss.
    let rows = Ledger::rows(6_000);
    let keys: BTreeSet<Vec<u8>> = rows.iter().map(|r| r.to_vec().unwrap()).collect();
    let store = table_with(&emu, "ledger", &keys).await;
    let months = ["2021-10", "2021-11", "2021-12"].map(String::from);
    let users: Vec<String> = (0..20).map(|u| format!("user{}", u * 3)).collect();
    let names: Vec<&str> = users.iter().map(String::as_str).collect();
    let plan = Ledger::scan()
        .month
        .is_in(months.clone())
        .user
        .is_in(names)
        .plan()
        .unwrap();
    let keep = |k: &[u8]| {
        let r = Ledger::decode(k).unwrap();
        months.contains(&r.month) && users.contains(&r.user)
    };
    // The day and time, as stored (after 3 + 7 + 10 bytes).
    let when = |k: &[u8]| k[20..].to_vec();
    let expected = merged_keys(&keys, keep, when, 3, false, None);
    assert_eq!(
        plan.clone()
            .ordered_after_in_lists()
            .unwrap()
            .merge_offset(),
        20
    );
    check(&store, &plan, &expected).await;

    // Readings: one device, three metrics, newest first across them.
    let mut rng = Rng(11);
    let rows: Vec<Reading> = (0..6_000)
        .map(|_| Reading {
            device: rng.below(3) as u32,
            metric: rng.below(8) as u16,
            // Few distinct times: ties across metrics.
            at_ms: 1_600_000_000_000 + rng.below(500) as i64,
        })
        .collect();
    let keys: BTreeSet<Vec<u8>> = rows.iter().map(|r| r.to_vec().unwrap()).collect();
    let store = table_with(&emu, "readings", &keys).await;
    let metrics = [5u16, 0, 2];
    let since = 1_600_000_000_100;
    let scan = || Reading::scan().device.eq(1).metric.is_in(metrics);
    let plan = scan().at_ms.since(since).unwrap();
    let keep = |k: &[u8]| {
        let r = Reading::decode(k).unwrap();
        r.device == 1 && metrics.contains(&r.metric) && r.at_ms >= since
    };
    let newest = |k: &[u8]| Reverse(Reading::decode(k).unwrap().at_ms);
    check(
        &store,
        &plan,
        &merged_keys(&keys, keep, newest, 1, false, None),
    )
    .await;
    let latest = query(
        &store,
        &scan().at_ms.latest(25).unwrap(),
        QueryOptions::default(),
    )
    .await;
    let keep = |k: &[u8]| {
        let r = Reading::decode(k).unwrap();
        r.device == 1 && metrics.contains(&r.metric)
    };
    assert_eq!(latest, merged_keys(&keys, keep, newest, 1, false, Some(25)));
}
