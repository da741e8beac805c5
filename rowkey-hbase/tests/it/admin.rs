//! Table admin and what a missing table, family or server looks like, on
//! a real HBase: tables created with their families (and found again),
//! a spec with split keys refused with the shell command that makes it,
//! tables deleted; precise errors for a missing table or family, a key
//! over HBase's limit, and a server of another kind (framed, compact,
//! Thrift 2, not Thrift at all) or none, each in bounded time.

use crate::server::{address, client, fresh_table};
use futures::TryStreamExt;
use rowkey::split::SplitKeys;
use rowkey::store::admin::{TableMismatch, TableSpec, TableStatus};
use rowkey::store::{Cell, KeyRange, ReadRequest, Row, Store, StoreError, StoreExt};
use rowkey_fixtures::hbase::shared;
use rowkey_hbase::{ClientOptions, HBaseClient};
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_are_created_found_and_deleted() {
    let client = client().await;
    let admin = client.admin();
    let name = format!("admin_{}", std::process::id());
    let spec = TableSpec::new(&name, &["d", "i"]);
    assert_eq!(
        admin.create_table_if_missing(&spec).await.unwrap(),
        TableStatus::Created
    );
    assert_eq!(
        admin.create_table_if_missing(&spec).await.unwrap(),
        TableStatus::Existed
    );
    assert_eq!(admin.families(&name).await.unwrap(), ["d", "i"]);
    // Other families: an error naming them.
    let e = admin
        .create_table_if_missing(&TableSpec::new(&name, &["d", "x"]))
        .await
        .unwrap_err();
    let mismatch = e
        .backend_source()
        .and_then(|s| s.downcast_ref::<TableMismatch>())
        .unwrap_or_else(|| panic!("{e:?}"));
    assert_eq!(mismatch.missing_families, ["x"]);
    assert_eq!(mismatch.extra_families, ["i"]);
    // Creating it again outright: an error, not a second table.
    assert!(admin.create_table(&spec).await.is_err());
    // Written, then deleted with its rows.
    let store = client.table(&name);
    store
        .write_rows(vec![Row::new("k", vec![Cell::new("d", "v", "x")])])
        .await
        .unwrap();
    admin.delete_table(&name).await.unwrap();
    assert!(!admin.table_names().await.unwrap().contains(&name));
    let e = admin.delete_table(&name).await.unwrap_err();
    assert!(
        matches!(&e, StoreError::NoSuchTable { table, .. } if *table == name),
        "{e:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spec_with_split_keys_is_refused_with_the_shell_command() {
    let admin = client().await.admin();
    let splits = SplitKeys::new([b"m".to_vec(), b"\x00\xFF".to_vec()]);
    let name = format!("presplit_{}", std::process::id());
    let e = admin
        .create_table(&TableSpec::new(&name, &["d"]).splits(&splits))
        .await
        .unwrap_err();
    let why = e.backend_source().unwrap().to_string();
    assert!(why.contains("takes no split keys"), "{why}");
    assert!(why.contains(&splits.hbase_shell(&name, "d")), "{why}");
    assert!(
        !admin.table_names().await.unwrap().contains(&name),
        "nothing created"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_table_or_family_is_a_precise_error() {
    let client = client().await;
    let missing = client.table("no_such_table_here");
    let e = missing
        .write_rows(vec![Row::new("k", vec![Cell::new("d", "v", "x")])])
        .await
        .unwrap_err();
    assert!(
        matches!(&e, StoreError::NoSuchTable { table, op: "write rows" } if table == "no_such_table_here"),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .contains("table \"no_such_table_here\" does not exist"),
        "{e}"
    );
    let e = missing
        .read_rows(ReadRequest::new([KeyRange::new([], None)]))
        .try_collect::<Vec<_>>()
        .await
        .unwrap_err();
    assert!(
        matches!(
            &e,
            StoreError::NoSuchTable {
                op: "read rows",
                ..
            }
        ),
        "{e:?}"
    );
    let e = missing.delete_rows(vec![b"k".to_vec()]).await.unwrap_err();
    assert!(
        matches!(
            &e,
            StoreError::NoSuchTable {
                op: "delete rows",
                ..
            }
        ),
        "{e:?}"
    );

    let table = fresh_table(&client, &["d"]).await;
    let store = client.table(&table);
    let e = store
        .write_rows(vec![Row::new("k", vec![Cell::new("nope", "v", "x")])])
        .await
        .unwrap_err();
    assert!(
        matches!(&e, StoreError::NoSuchFamily { family, .. } if family == "nope"),
        "{e:?}"
    );
    assert!(!e.is_transient());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_up_to_hbase_s_limit_are_stored_and_longer_ones_refused_before_sending() {
    let client = client().await;
    let table = fresh_table(&client, &["d"]).await;
    let store = client.table(&table);
    // 32,767 bytes less the table's name and 16: HBase locates a row's
    // region by a scan of hbase:meta from "TABLE,ROW,99999999999999".
    let max = 32_767 - 16 - table.len();
    assert_eq!(store.key_limit().max, max);
    let longest = vec![0xFFu8; max];
    store
        .write_rows(vec![Row::new(
            longest.clone(),
            vec![Cell::new("d", "v", "x")],
        )])
        .await
        .unwrap();
    assert_eq!(
        store.read_row(&longest).await.unwrap().unwrap().key,
        longest
    );
    let back: Vec<Row> = store
        .read_rows(ReadRequest::new([KeyRange::new(vec![0xFF; 40_000], None)]).reversed())
        .try_collect()
        .await
        .unwrap();
    assert!(back.is_empty(), "nothing sorts after 40,000 0xFF bytes");
    let e = store
        .write_rows(vec![Row::new(
            vec![1u8; max + 1],
            vec![Cell::new("d", "v", "x")],
        )])
        .await
        .unwrap_err();
    assert!(
        matches!(e, StoreError::KeyTooLong { len, max: m, store: "HBase", .. } if len == max + 1 && m == max),
        "{e:?}"
    );
}

/// `connect` to `address` fails within a bounded time; its error and the
/// error's source, as text.
async fn refused(address: &str) -> (StoreError, String, Duration) {
    let started = Instant::now();
    let options = ClientOptions::default().connect_timeout(Duration::from_secs(3));
    let result = tokio::time::timeout(
        Duration::from_secs(90),
        HBaseClient::connect_with(address, options),
    )
    .await
    .unwrap_or_else(|_| panic!("connecting to {address} hung"));
    let e = result.expect_err("not HBase's Thrift 1 server");
    let why = e
        .backend_source()
        .map(|s| s.to_string())
        .unwrap_or_default();
    eprintln!(
        "{address}: after {:.1} s: {e}: {why}",
        started.elapsed().as_secs_f32()
    );
    (e, why, started.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_of_another_kind_is_a_clear_error_never_a_hang() {
    let hbase = shared();
    let expected = "HBase's Thrift 1 server";
    for (kind, address) in [
        ("framed", hbase.framed.clone().unwrap()),
        ("compact", hbase.compact.clone().unwrap()),
        ("thrift2", hbase.thrift2.clone().unwrap()),
        // A server that speaks no Thrift at all: HBase's ZooKeeper.
        ("zookeeper", format!("127.0.0.1:{}", hbase.zk_port)),
    ] {
        let (e, why, took) = refused(&address).await;
        assert!(
            matches!(e, StoreError::Backend { op: "connect", .. }),
            "{kind}: {e:?}"
        );
        assert!(why.contains(expected), "{kind}: {why}");
        assert!(took < Duration::from_secs(75), "{kind}: {took:?}");
        if kind == "thrift2" {
            // It answers: it does not know the call. Not retried.
            assert!(!e.is_transient(), "{kind}: {e:?}");
            assert!(why.contains("getTableNames"), "{kind}: {why}");
        }
    }
    // Nothing listening: refused at once, after the retries.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let (e, why, _) = refused(&format!("127.0.0.1:{port}")).await;
    assert!(e.is_transient(), "{e:?}");
    assert!(why.contains("cannot connect"), "{why}");
    // The right one, for contrast.
    HBaseClient::connect(&address()).await.unwrap();
}
