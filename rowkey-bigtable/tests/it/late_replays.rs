//! Writes under a late replay: a proxy holds one request until the client
//! has seen its call fail (the connection cut after sending), retried and
//! gone on, then delivers it. A retried put carries the timestamps it was
//! first sent with, so the late copy writes the same version and cannot
//! beat a later put; a row delete has no timestamp, so one whose outcome
//! is unknown is not sent again and says so.

use futures::TryStreamExt;
use rowkey::store::{Cell, Columns, ReadRequest, RetryPolicy, Row, Store, StoreExt};
use rowkey_bigtable::{BigtableAdmin, BigtableStore, Mutation, RowMutation, TableSpec};
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::proxy::FaultProxy;
use std::time::Duration;

async fn through_holding_proxy(emu: &Emulator) -> (FaultProxy, BigtableStore) {
    BigtableAdmin::connect_emulator(&emu.host, "p", "i")
        .unwrap()
        .create_table(&TableSpec::new("t", &["d"]))
        .await
        .unwrap();
    let proxy = FaultProxy::start(&emu.host);
    let store = BigtableStore::connect_emulator(&proxy.addr, "p", "i", "t")
        .await
        .unwrap()
        .with_retry(
            RetryPolicy::default()
                .attempts(5)
                .backoff_between(Duration::from_millis(10), Duration::from_millis(100))
                .idle_timeout(Duration::from_secs(5)),
        );
    // The connection is made and settled: what is held next is a request.
    store.write_rows(vec![row("warm", "up")]).await.unwrap();
    (proxy, store)
}

fn row(key: &str, value: &str) -> Row {
    Row::new(key, vec![Cell::new("d", "v", value)])
}

async fn value(store: &BigtableStore, key: &str) -> Option<Vec<u8>> {
    let row = store.read_row(key.as_bytes()).await.unwrap()?;
    row.value("d", "v").map(<[u8]>::to_vec)
}

/// The issue's put: k=v1 held and retried (Ok), k=v2 (Ok), then the held
/// v1 delivered. With server timestamps, v1 landed last and won.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_copy_of_a_put_does_not_beat_a_later_put() {
    let emu = Emulator::start();
    let (proxy, store) = through_holding_proxy(&emu).await;
    proxy.hold_next_request_then_cut_client(b"");
    store.write_rows(vec![row("k", "v1")]).await.unwrap();
    assert!(proxy.holding(), "the first send of k=v1 is held");
    store.write_rows(vec![row("k", "v2")]).await.unwrap();
    assert!(
        proxy.release_held(),
        "the emulator answered the held request"
    );
    assert_eq!(value(&store, "k").await.as_deref(), Some(&b"v2"[..]));
    // A late copy of a write that clears a column does not remove the
    // cell a later write set there: its clear ends at its own stamp.
    store
        .write_rows(vec![Row::new("c", vec![Cell::new("d", "w", "old")])])
        .await
        .unwrap();
    proxy.hold_next_request_then_cut_client(b"");
    let cleared = row("c", "a").clearing(Columns::new([("d", "w")]));
    store.write_rows(vec![cleared]).await.unwrap();
    assert!(proxy.holding());
    store
        .write_rows(vec![Row::new("c", vec![Cell::new("d", "w", "new")])])
        .await
        .unwrap();
    assert!(proxy.release_held());
    let c = store.read_row(b"c").await.unwrap().unwrap();
    assert_eq!(
        c.cells,
        vec![Cell::new("d", "v", "a"), Cell::new("d", "w", "new")]
    );
}

/// A retried `write_rows` and its late first copy write one version of
/// each cell (server timestamps wrote two).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_write_leaves_one_version_per_cell() {
    let emu = Emulator::start();
    let (proxy, store) = through_holding_proxy(&emu).await;
    proxy.hold_next_request_then_cut_client(b"");
    let two = Row::new(
        "r",
        vec![Cell::new("d", "a", "1"), Cell::new("d", "b", "2")],
    );
    store.write_rows(vec![two]).await.unwrap();
    assert!(proxy.holding());
    assert!(proxy.release_held());
    let rows: Vec<_> = store
        .read_versions(ReadRequest::row(b"r"))
        .try_collect()
        .await
        .unwrap();
    let versions: Vec<(&[u8], &[u8])> = rows[0]
        .cells
        .iter()
        .map(|c| (c.qualifier.as_slice(), c.value.as_slice()))
        .collect();
    assert_eq!(versions, [(&b"a"[..], &b"1"[..]), (&b"b"[..], &b"2"[..])]);
    let stamps: Vec<i64> = rows[0].cells.iter().map(|c| c.timestamp_micros).collect();
    assert_eq!(stamps[0], stamps[1], "one stamp for the write");
    assert_eq!(stamps[0] % 1000, 0, "whole milliseconds");
}

/// The issue's delete: held, it cannot be bounded in time, so it is not
/// sent again and the error says its outcome is unknown (never `Ok`);
/// and the same for writes at the server's time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delete_whose_outcome_is_unknown_is_not_sent_again() {
    let emu = Emulator::start();
    let (proxy, store) = through_holding_proxy(&emu).await;
    store.write_rows(vec![row("j", "v0")]).await.unwrap();
    let connections = proxy.connections();
    proxy.hold_next_request_then_cut_client(b"");
    let e = store.delete_rows(vec![b"j".to_vec()]).await.unwrap_err();
    assert!(e.is_outcome_unknown(), "{e}");
    assert!(!e.is_transient(), "{e}");
    let text = e.to_string();
    assert!(text.contains("whether it was applied is unknown"), "{text}");
    assert!(text.contains("row j"), "{text}");
    assert!(proxy.holding());
    assert_eq!(proxy.connections(), connections, "no second send");
    // The held delete is still in flight: it lands when delivered.
    assert_eq!(value(&store, "j").await.as_deref(), Some(&b"v0"[..]));
    assert!(proxy.release_held());
    assert_eq!(value(&store, "j").await, None);

    // A cell at the server's time: one `MutateRow`, and one row of a
    // `MutateRows`.
    let at_server_time = || RowMutation::new("s", vec![Mutation::set_cell("d", "v", "x")]);
    proxy.hold_next_request_then_cut_client(b"");
    let e = store.mutate_row(at_server_time()).await.unwrap_err();
    assert!(e.is_outcome_unknown(), "{e}");
    assert!(proxy.release_held());
    proxy.hold_next_request_then_cut_client(b"");
    let e = store.mutate_rows(vec![at_server_time()]).await.unwrap_err();
    let failed = &e.failed()[0];
    assert!(failed.error.is_outcome_unknown(), "{}", failed.error);
    assert!(
        e.to_string().contains("whether it was applied is unknown"),
        "{e}"
    );
    assert!(proxy.release_held());
}
