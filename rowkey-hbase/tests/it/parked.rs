//! Scanners parked between pages: a read that stops at its limit leaves
//! its scanner for the next page of the same read; pages read that way
//! are the rows a fresh scanner would give, forwards and backwards, and a
//! write of the client in between is seen (it drops the parked scanners).

use crate::server::{client, fresh_table};
use futures::TryStreamExt;
use rowkey::store::{Cell, KeyRange, ReadRequest, Row, Store};
use rowkey_hbase::HBaseStore;

async fn keys(store: &HBaseStore, request: ReadRequest) -> Vec<Vec<u8>> {
    store
        .read_rows(request)
        .map_ok(|r| r.key)
        .try_collect()
        .await
        .unwrap()
}

fn row(i: u32) -> Row {
    Row::new(i.to_be_bytes().to_vec(), vec![Cell::new("d", "v", "x")])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_that_go_on_with_a_parked_scanner_see_the_client_s_writes() {
    let client = client().await;
    let table = fresh_table(&client, &["d"]).await;
    let store = client.table(&table);
    store
        .write_rows((0..400).step_by(2).map(row).collect())
        .await
        .unwrap();
    for reversed in [false, true] {
        let mut all = ReadRequest::new([KeyRange::new([], None)]);
        if reversed {
            all = all.reversed();
        }
        // Pages of 30, each resuming after the last: the whole table, in order.
        let mut pages = Vec::new();
        let mut request = all.clone();
        loop {
            let page = keys(&store, request.clone().with_limit(30)).await;
            let Some(last) = page.last().cloned() else {
                break;
            };
            pages.extend(page);
            request = all.after(&last);
        }
        let mut want: Vec<Vec<u8>> = (0..400u32)
            .step_by(2)
            .map(|i| i.to_be_bytes().to_vec())
            .collect();
        if reversed {
            want.reverse();
        }
        assert_eq!(pages, want, "reversed: {reversed}");
    }
    // A write between two pages is seen by the second.
    let first = keys(
        &store,
        ReadRequest::new([KeyRange::new([], None)]).with_limit(10),
    )
    .await;
    assert_eq!(first.last().unwrap(), &18u32.to_be_bytes().to_vec());
    store.write_rows(vec![row(21)]).await.unwrap();
    let rest = ReadRequest::new([KeyRange::new([], None)]).after(first.last().unwrap());
    let second = keys(&store, rest.with_limit(3)).await;
    let want: Vec<Vec<u8>> = [20u32, 21, 22]
        .iter()
        .map(|i| i.to_be_bytes().to_vec())
        .collect();
    assert_eq!(second, want);
    // And a delete.
    let third_from = ReadRequest::new([KeyRange::new([], None)]).after(&22u32.to_be_bytes());
    let _ = keys(
        &store,
        ReadRequest::new([KeyRange::new([], None)]).with_limit(12),
    )
    .await;
    store
        .delete_rows(vec![24u32.to_be_bytes().to_vec()])
        .await
        .unwrap();
    let third = keys(&store, third_from.with_limit(2)).await;
    let want: Vec<Vec<u8>> = [26u32, 28]
        .iter()
        .map(|i| i.to_be_bytes().to_vec())
        .collect();
    assert_eq!(third, want);
}
