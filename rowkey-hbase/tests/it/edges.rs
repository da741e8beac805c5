//! Reads whose pages end exactly at a range's end, and a differential
//! test of `read_rows` against `MemStore` that finds that class of
//! defect: random multi-range requests (point rows, ranges ending just
//! past a stored row, forwards and backwards, limits, fuzzy keys) at page
//! sizes 1-5 and the default.

use crate::server::{client, fresh_table};
use rowkey::store::{Cell, KeyRange, ReadRequest, Row, Store};
use rowkey_fixtures::layouts::Rng;
use rowkey_fixtures::read_diff;
use rowkey_hbase::HBaseStore;

fn row(key: &[u8]) -> Row {
    Row::new(key, vec![Cell::new("d", "v", "x")])
}

async fn keys(store: &HBaseStore, request: ReadRequest) -> Vec<Vec<u8>> {
    read_diff::read_keys(store, request).await.unwrap()
}

fn to(key: &[u8]) -> Option<Vec<u8>> {
    Some(key.to_vec())
}

/// Each shape lost rows before the read loop dropped a range's scanner
/// with the range: the next range read the old scanner, found it at its
/// end, and was dropped unread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_ends_at_a_range_s_end_loses_no_range() {
    let client = client().await;
    let table = fresh_table(&client, &["d"]).await;
    let store = client.table(&table);
    let mut rows: Vec<Row> = (0..1000)
        .map(|i| row(format!("b{i:03}").as_bytes()))
        .collect();
    rows.extend((0..5).map(|i| row(format!("c{i:03}").as_bytes())));
    rows.extend([row(b"a0"), row(b"d")]);
    store.write_rows(rows).await.unwrap();

    // Point rows, as an index join sends them, a row a page.
    let points = ReadRequest::new([
        KeyRange::row(b"a0"),
        KeyRange::row(b"b000"),
        KeyRange::row(b"d"),
    ]);
    let got = keys(&store.clone().with_read_page_rows(1), points).await;
    assert_eq!(got, [&b"a0"[..], b"b000", b"d"], "point rows a row a page");

    // A whole page of 1,000 ends at the first range's end.
    let two = ReadRequest::new([
        KeyRange::new("b", to(b"b999\0")),
        KeyRange::new("c", to(b"d")),
    ]);
    let got = keys(&store, two).await;
    assert_eq!(got.len(), 1005, "forwards at the default page");
    assert_eq!(got.last().map(Vec::as_slice), Some(&b"c004"[..]));

    // Backwards with a limit: the first range is a row, read first.
    let back = ReadRequest::new([
        KeyRange::new("a0", to(b"a0\0")),
        KeyRange::new("b000", to(b"b002")),
    ])
    .reversed()
    .with_limit(3);
    let got = keys(&store, back).await;
    assert_eq!(got, [&b"b001"[..], b"b000", b"a0"], "backwards, limit 3");
}

/// `read_rows` on the real server equals `MemStore` on the same rows, for
/// random requests at page sizes 1-5 and the default.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_rows_matches_memstore_at_every_page_size() {
    let client = client().await;
    let table = fresh_table(&client, &["d"]).await;
    let mut rng = Rng(0x38_ED6E);
    let keys = read_diff::keys(&mut rng, 60);
    let store = client.table(&table);
    store
        .write_rows(
            keys.iter()
                .map(|k| rowkey_fixtures::conformance::support::row_of(k))
                .collect(),
        )
        .await
        .unwrap();
    let mem = read_diff::mirror(&keys).await;
    let mut total = (0, 0);
    for page in [1, 2, 3, 4, 5, 1000] {
        let paged = store.clone().with_read_page_rows(page);
        let what = format!("HBase, page {page}");
        let rows = read_diff::check(&paged, &mem, &keys, &mut rng, 350, &what).await;
        total = (total.0 + 350, total.1 + rows);
    }
    eprintln!(
        "read_rows differential: {} requests, {} rows, all equal to MemStore",
        total.0, total.1
    );
}
