//! The native transport checked through HBase's own Java client: rows
//! written natively read back through it exactly; rows it writes read
//! back natively; a pre-split table has exactly the regions asked for,
//! where its Java `RegionLocator` sees them; `FuzzyRowFilter` as this
//! client sends it keeps what Java's keeps.

use crate::cluster::{client, fresh_table, spread};
use futures::TryStreamExt;
use rowkey::store::{Cell, KeyRange, ReadRequest, Row, Store};
use rowkey_fixtures::hbase::{cluster, JavaClient};

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
