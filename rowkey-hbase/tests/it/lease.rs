//! Scanners that outlive their lease, or that the Thrift server forgets.
//!
//! HBase expires a scanner that is not advanced within its lease
//! (`hbase.client.scanner.timeout.period`, 60 s by default), as happens to
//! a reader that stops to work between pages. Behind the Thrift 1 server
//! that is invisible: the server reads through HBase's Java client, which
//! reopens an expired region scanner after the last row it returned (a
//! raw hbase-thrift scanner paused past the lease reads on without an
//! error). What a Thrift client does see is a scanner id the Thrift server
//! no longer knows ("scanner ID is invalid": a restarted gateway, or one
//! behind a load balancer); the read must then go on strictly after the
//! last row it delivered. And a dropped stream leaves no scanner open.
//! A server of its own, with a lease of 3 s, so the
//! test waits seconds, not minutes, and may close every scanner.

use futures::StreamExt;
use rowkey::store::admin::TableSpec;
use rowkey::store::{Cell, KeyRange, ReadRequest, Row, Store};
use rowkey_fixtures::hbase::{HBase, Options};
use rowkey_hbase::HBaseClient;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_whose_scanner_expires_or_is_forgotten_resumes_after_its_last_row() {
    let lease_ms = 3_000;
    let hbase = HBase::try_start_with(&Options {
        settings: vec![(
            "hbase.client.scanner.timeout.period".into(),
            lease_ms.to_string(),
        )],
        ..Options::default()
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let client = HBaseClient::connect(&hbase.thrift).await.unwrap();
    client
        .admin()
        .create_table(&TableSpec::new("lease", &["d"]))
        .await
        .unwrap();
    let store = client.table("lease").with_read_page_rows(100);
    let keys: Vec<Vec<u8>> = (0..3_000u32).map(|i| i.to_be_bytes().to_vec()).collect();
    store
        .write_rows(
            keys.iter()
                .map(|k| Row::new(k.clone(), vec![Cell::new("d", "v", "x")]))
                .collect(),
        )
        .await
        .unwrap();
    // HBase renews an expired lease itself, behind Thrift.
    let after = raw_scanner_after_a_pause(&hbase.thrift, Duration::from_millis(lease_ms + 2_500));
    eprintln!("a raw scanner paused past its lease: {after}");
    assert_eq!(after, "no error (100 rows)");
    for reversed in [false, true] {
        let mut request = ReadRequest::new([KeyRange::new([], None)]);
        if reversed {
            request = request.reversed();
        }
        let mut rows = store.read_rows(request);
        let mut got = Vec::new();
        while let Some(row) = rows.next().await {
            got.push(row.unwrap().key);
            // Twice in the read, a pause longer than the lease.
            if got.len() == 150 || got.len() == 1_720 {
                tokio::time::sleep(Duration::from_millis(lease_ms + 2_500)).await;
            }
        }
        let mut want = keys.clone();
        if reversed {
            want.reverse();
        }
        assert_eq!(got.len(), want.len(), "reversed: {reversed}");
        assert!(
            got == want,
            "reversed: {reversed}: rows lost, repeated or out of order"
        );
    }
    // A dropped stream closes its scanner: none is left open on the server.
    for _ in 0..10 {
        let mut rows = store.read_rows(ReadRequest::new([KeyRange::new([], None)]));
        rows.next().await.unwrap().unwrap();
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(close_every_scanner(&hbase.thrift), 0, "scanners left open");
    // Every scanner the Thrift server has is closed under the reader.
    for reversed in [false, true] {
        let mut request = ReadRequest::new([KeyRange::new([], None)]);
        if reversed {
            request = request.reversed();
        }
        let mut rows = store.read_rows(request);
        let mut got = Vec::new();
        while let Some(row) = rows.next().await {
            got.push(row.unwrap().key);
            if got.len() == 150 || got.len() == 2_050 {
                let closed = close_every_scanner(&hbase.thrift);
                assert!(closed >= 1, "no scanner was open");
            }
        }
        let mut want = keys.clone();
        if reversed {
            want.reverse();
        }
        assert!(
            got == want,
            "reversed: {reversed}: rows lost, repeated or out of order"
        );
    }
}

/// Closes every scanner id the Thrift server may have given out (they
/// count up from 0); how many it had.
fn close_every_scanner(address: &str) -> usize {
    use rowkey_hbase::hbase_thrift::hbase::THbaseSyncClient;
    let mut client = raw_client(address);
    (0..500)
        .filter(|&id| client.scanner_close(id).is_ok())
        .count()
}

type RawClient = rowkey_hbase::hbase_thrift::hbase::HbaseSyncClient<
    thrift::protocol::TBinaryInputProtocol<
        thrift::transport::TBufferedReadTransport<std::net::TcpStream>,
    >,
    thrift::protocol::TBinaryOutputProtocol<
        thrift::transport::TBufferedWriteTransport<std::net::TcpStream>,
    >,
>;

/// hbase-thrift's own client, over the transport the server speaks.
fn raw_client(address: &str) -> RawClient {
    use thrift::protocol::{TBinaryInputProtocol, TBinaryOutputProtocol};
    use thrift::transport::{TBufferedReadTransport, TBufferedWriteTransport};
    let socket = std::net::TcpStream::connect(address).unwrap();
    rowkey_hbase::hbase_thrift::hbase::HbaseSyncClient::new(
        TBinaryInputProtocol::new(
            TBufferedReadTransport::new(socket.try_clone().unwrap()),
            true,
        ),
        TBinaryOutputProtocol::new(TBufferedWriteTransport::new(socket), true),
    )
}

/// Opens a scanner on `lease` with hbase-thrift itself, reads a page,
/// waits `pause` and reads again: the error HBase gives (as text), or
/// "no error".
fn raw_scanner_after_a_pause(address: &str, pause: Duration) -> String {
    use rowkey_hbase::hbase_thrift::hbase::{THbaseSyncClient, TScan};
    let mut client = raw_client(address);
    // Only the rows and the caching: TScan::default() would read nothing.
    let scan = TScan {
        start_row: Some(vec![]),
        stop_row: None,
        timestamp: None,
        columns: None,
        caching: Some(100),
        filter_string: None,
        batch_size: None,
        sort_columns: None,
        reversed: None,
        cache_blocks: None,
    };
    let id = client
        .scanner_open_with_scan(b"lease".to_vec(), scan, Default::default())
        .unwrap();
    assert_eq!(client.scanner_get_list(id, 100).unwrap().len(), 100);
    std::thread::sleep(pause);
    match client.scanner_get_list(id, 100) {
        Ok(rows) => format!("no error ({} rows)", rows.len()),
        Err(e) => e.to_string(),
    }
}
