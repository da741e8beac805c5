//! The native transport checked through HBase's own Java client: rows
//! written natively read back through it exactly; rows it writes read
//! back natively; a pre-split table has exactly the regions asked for,
//! where its Java `RegionLocator` sees them; `FuzzyRowFilter` as this
//! client sends it keeps what Java's keeps; plans read in one multi-range
//! request (`MultiRowRangeFilter`, with `FuzzyRowFilter` beside it) keep
//! exactly what `plan.contains` keeps, and what Java's filters keep.

use crate::cluster;
use crate::cluster::{client, fresh_table, spread};
use futures::TryStreamExt;
use rowkey::scan::ScanPlan;
use rowkey::store::admin::TableSpec;
use rowkey::store::{Cell, KeyRange, ReadRequest, Row, Store, StoreExt};
use rowkey::RowKey;
use rowkey_fixtures::hbase::JavaClient;

fn hex(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "-".into();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_one_client_writes_the_other_reads_exactly() {
    let client = client().await;
    let name = fresh_table(&client, &["d"]).await;
    let store = client.table(&name);
    // Keys over every region, of every byte, values with every byte.
    let rows: Vec<Row> = (0u16..600)
        .map(|i| {
            let key = vec![(i % 256) as u8, (i / 256) as u8, 0xff, 0];
            let value: Vec<u8> = (0..=255u8).map(|b| b.wrapping_add(i as u8)).collect();
            Row::new(key, vec![Cell::new("d", [i as u8, 0], value)])
        })
        .collect();
    store.write_rows(rows.clone()).await.unwrap();
    let mut java = JavaClient::start(cluster());
    let mut want: Vec<Vec<u8>> = rows.iter().map(|r| r.key.clone()).collect();
    want.sort();
    let keys: Vec<Vec<u8>> = java.keys(&name).into_iter().map(|(k, _)| k).collect();
    assert_eq!(keys, want);
    for row in rows.iter().step_by(37) {
        let cell = &row.cells[0];
        let got = java
            .cell(&name, &row.key, "d", &cell.qualifier, "hex")
            .unwrap();
        assert_eq!(got, hex(&cell.value), "row {:02x?}", row.key);
    }

    // And the other way.
    java.put(&name, b"\x80java", "d", b"q", b"from java");
    let got: Vec<Row> = store
        .read_rows(ReadRequest::row(b"\x80java"))
        .try_collect()
        .await
        .unwrap();
    assert_eq!(got[0].value("d", "q"), Some(&b"from java"[..]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pre_split_table_has_exactly_the_regions_asked_for() {
    let client = client().await;
    let name = fresh_table(&client, &["d"]).await;
    let regions = cluster().command(&format!("regions {name}")).unwrap();
    let starts: Vec<String> = regions
        .split(',')
        .map(|r| r.split_once('@').unwrap().0.to_owned())
        .collect();
    let mut want = vec!["-".to_owned()];
    want.extend(spread().iter().map(|k| hex(k)));
    assert_eq!(starts, want);
    // Spread over the servers, not all on one.
    let servers: std::collections::BTreeSet<&str> = regions
        .split(',')
        .map(|r| r.split_once('@').unwrap().1)
        .collect();
    assert!(servers.len() > 1, "{regions}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fuzzy_filters_keep_what_javas_keep() {
    let client = client().await;
    let name = fresh_table(&client, &["d"]).await;
    let store = client.table(&name);
    let rows: Vec<Row> = (0u32..2000)
        .map(|i| {
            let key = [(i % 7) as u8 * 0x25, (i % 13) as u8, (i / 13) as u8, b'x'].to_vec();
            Row::new(key, vec![Cell::new("d", "q", "v")])
        })
        .collect();
    store.write_rows(rows).await.unwrap();
    let mut java = JavaClient::start(cluster());
    for (pattern, mask) in [
        (vec![0x4a, 0, 0, b'x'], vec![0, 1, 1, 0]),
        (vec![0, 5, 0], vec![1, 0, 1]),
        (vec![0, 0, 9, b'x'], vec![1, 1, 0, 0]),
    ] {
        let mut fuzzy = rowkey_core::scan::FuzzyKey::<8>::new();
        for (b, m) in pattern.iter().zip(&mask) {
            if *m == 0 {
                fuzzy.push_fixed(&[*b]).unwrap();
            } else {
                fuzzy.push_free(1).unwrap();
            }
        }
        let request = ReadRequest::new([KeyRange::new(Vec::new(), None)]).with_fuzzy(fuzzy);
        let ours: Vec<Vec<u8>> = store
            .read_rows(request)
            .map_ok(|r| r.key)
            .try_collect()
            .await
            .unwrap();
        let javas = java.fuzzy(&name, b"", None, &[(pattern.clone(), mask.clone())]);
        assert_eq!(ours, javas, "pattern {pattern:02x?} mask {mask:?}");
        assert!(!ours.is_empty());
    }
}

/// A plan read natively as one request (`read_plan`: its ranges as a
/// `MultiRowRangeFilter`, its fuzzy key as a `FuzzyRowFilter`) against
/// the table read whole through Java and kept by `plan.contains`, and
/// against what Java's own filters keep of the plan's ranges.
async fn plan_keeps_what_java_and_contains_keep<const N: usize>(
    store: &impl Store,
    java: &mut JavaClient,
    table: &str,
    all: &[Vec<u8>],
    plan: &ScanPlan<N>,
) -> usize {
    let mut ours: Vec<Vec<u8>> = store
        .read_plan(plan)
        .map_ok(|r| r.key)
        .try_collect()
        .await
        .unwrap();
    ours.sort();
    let want: Vec<Vec<u8>> = all.iter().filter(|k| plan.contains(k)).cloned().collect();
    assert_eq!(ours, want, "native read_plan against plan.contains");
    let ranges: Vec<(Vec<u8>, Option<Vec<u8>>)> = plan
        .ranges()
        .map(|r| (r.start().to_vec(), r.stop().map(<[u8]>::to_vec)))
        .collect();
    // Java's filters: a `MultiRowRangeFilter` over the ranges, or its
    // `FuzzyRowFilter` over each range in turn.
    let javas: Vec<Vec<u8>> = match plan.fuzzy() {
        None => java.multi_ranges(table, &ranges),
        Some(fuzzy) => {
            let pair = [fuzzy.hbase_fuzzy_pair()];
            ranges
                .iter()
                .flat_map(|(start, stop)| java.fuzzy(table, start, stop.as_deref(), &pair))
                .collect()
        }
    };
    assert_eq!(javas, want, "Java's filters against plan.contains");
    want.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn multi_range_plans_keep_what_the_plan_contains() {
    use rowkey_fixtures::walk_in_list::{drivers, trips, CityTrip, CITY, DAY};
    let client = client().await;
    let name = format!("n{}_trips", std::process::id());
    client
        .admin()
        .create_table(&TableSpec::new(&name, &["d"]).splits(&CityTrip::split_keys()))
        .await
        .unwrap();
    let store = client.table(&name);
    let (rows, _) = trips();
    for batch in rows.chunks(5_000) {
        store.write_rows(batch.to_vec()).await.unwrap();
    }
    let mut java = JavaClient::start(cluster());
    let all: Vec<Vec<u8>> = java.keys(&name).into_iter().map(|(k, _)| k).collect();
    assert_eq!(all.len(), rows.len());
    let hour = 3_600_000;
    let every_third: Vec<String> = drivers(CITY).into_iter().step_by(3).collect();
    // An IN-list over every bucket: 134 ranges, one request.
    let in_list = CityTrip::scan()
        .city
        .eq(CITY)
        .driver
        .is_in(every_third.iter())
        .started
        .range(DAY + 3 * hour..DAY + 15 * hour)
        .unwrap();
    assert!(in_list.len() > 100);
    let kept =
        plan_keeps_what_java_and_contains_keep(&store, &mut java, &name, &all, &in_list).await;
    assert!(kept > 300, "{kept}");
    // A fuzzy plan beside the ranges: any city, one driver.
    let fuzzy = CityTrip::scan()
        .city
        .any()
        .driver
        .eq("drv-4-0017")
        .plan()
        .unwrap();
    assert!(fuzzy.fuzzy().is_some());
    let kept = plan_keeps_what_java_and_contains_keep(&store, &mut java, &name, &all, &fuzzy).await;
    assert!(kept > 3, "{kept}");
    client.admin().delete_table(&name).await.ok();
}
