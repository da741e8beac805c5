//! Late copies of retried writes, natively: a write or delete whose
//! `Multi` the network holds past the client's idle timeout is retried on
//! a new connection and succeeds; the held copy reaches the region server
//! later, after newer writes to the same rows. Every write is stamped once
//! on the client, so a late copy carries its first stamp and can never
//! undo what came after it. A random sequence of puts and deletes, some
//! held and delivered at random later points, is checked against the
//! model of the writes in the order they were made. Increments are not
//! idempotent: they carry a nonce, and a late copy of one that was
//! retried must not count twice.

use crate::harness::{key, patient, proxied_table, Model};
use futures::TryStreamExt;
use rowkey::store::{
    counter_value, Cell, KeyRange, ModifyRule, ReadModifyWrite, ReadRequest, Row, Store,
};
use rowkey_fixtures::layouts::Rng;
use rowkey_fixtures::proxy::FaultProxy;
use rowkey_hbase::HBaseStore;
use std::sync::Arc;
use std::time::Duration;

/// How many of a native connection's first bytes are its handshake: the
/// preamble (`HBas`, version, auth) and the length-prefixed connection
/// header. A late copy sent on a new connection needs them first.
pub fn handshake(opening: &[u8]) -> usize {
    match opening {
        [b'H', b'B', b'a', b's', _, _, a, b, c, d, ..] => {
            10 + u32::from_be_bytes([*a, *b, *c, *d]) as usize
        }
        _ => 0,
    }
}

/// A table of `rows` rows in one region, through a client retrying as
/// `policy` says, and the proxy of the one region server every write
/// goes to.
pub async fn one_region_with(
    rows: u32,
    policy: rowkey::store::RetryPolicy,
) -> (HBaseStore, Model, Arc<FaultProxy>) {
    let (store, model, proxies) = proxied_table(rows, &[], policy, Vec::new).await;
    let native = rowkey_hbase::hbase_native::Client::connect(
        &rowkey_fixtures::hbase::cluster().zk_address(),
    )
    .await
    .unwrap();
    let regions = native.admin().regions(store.table_name()).await.unwrap();
    assert_eq!(regions.len(), 1);
    let proxy = proxies.lock().unwrap()[&regions[0].server].clone();
    (store, model, proxy)
}

async fn one_region(rows: u32) -> (HBaseStore, Model, Arc<FaultProxy>) {
    one_region_with(rows, patient().idle_timeout(Duration::from_secs(1))).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn late_copies_of_retried_writes_never_undo_newer_ones() {
    const ROWS: u32 = 2;
    let (store, mut model, proxy) = one_region(ROWS).await;

    let mut rng = Rng(38);
    let (mut holds, mut delivered) = (0, 0);
    for step in 0..24u32 {
        let row = key(rng.below(u64::from(ROWS)) as u32);
        let hold = rng.below(2) == 0;
        if hold {
            proxy.hold_next_request(b"Multi");
            holds += 1;
        }
        if rng.below(3) == 0 {
            store.delete_rows(vec![row.clone()]).await.unwrap();
            model.remove(&row);
        } else {
            let value = format!("s{step}").into_bytes();
            store
                .write_rows(vec![Row::new(
                    row.clone(),
                    vec![Cell::new("d", "v", &value)],
                )])
                .await
                .unwrap();
            model.insert(row, value);
        }
        if rng.below(4) == 0 {
            delivered += proxy.deliver_held_after_opening(handshake);
        }
    }
    delivered += proxy.deliver_held_after_opening(handshake);
    assert_eq!(delivered, holds, "every held write was delivered late");
    assert!(holds >= 8, "{holds} writes held");

    let got: Model = store
        .read_rows(ReadRequest::new([KeyRange::new(Vec::new(), None)]))
        .map_ok(|r| {
            (
                r.key.clone(),
                r.value("d", "v").unwrap_or_default().to_vec(),
            )
        })
        .try_collect()
        .await
        .unwrap();
    let shown = |m: &Model| -> Vec<(String, String)> {
        m.iter()
            .map(|(k, v)| {
                (
                    String::from_utf8_lossy(k).into(),
                    String::from_utf8_lossy(v).into(),
                )
            })
            .collect()
    };
    // With stamps set by the server instead, a late `s20` undid `s21`.
    assert_eq!(
        shown(&got),
        shown(&model),
        "the table after late copies of {holds} writes"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_copy_of_a_retried_increment_counts_once() {
    let (store, _, proxy) = one_region(1).await;
    let add = |by: i64| ReadModifyWrite::new(key(0), vec![ModifyRule::increment("d", "n", by)]);
    let counter = |row: Row| row.value("d", "n").and_then(counter_value);
    assert_eq!(
        counter(store.read_modify_write(add(1)).await.unwrap()),
        Some(1)
    );
    for round in 0..3 {
        // Held past the timeout, retried with its nonce, then the held
        // copy delivered after a newer increment.
        proxy.hold_next_request(b"Mutate");
        store.read_modify_write(add(10)).await.unwrap();
        store.read_modify_write(add(100)).await.unwrap();
        assert_eq!(
            proxy.deliver_held_after_opening(handshake),
            1,
            "round {round}"
        );
    }
    // Without nonces each late copy counted again: 361.
    assert_eq!(
        counter(store.read_modify_write(add(0)).await.unwrap()),
        Some(331)
    );
}
