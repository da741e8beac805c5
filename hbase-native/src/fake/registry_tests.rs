//! Finding the cluster: a ZooKeeper that is not one, or is not HBase's;
//! an `hbase:meta` whose regions do not cover the table, or are not
//! HBase's.

use super::*;

/// `connect` against a ZooKeeper answering `zk`: its error, in bounded time.
async fn connect_fails(zk: Zk) -> Error {
    let fake = Fake::with(zk, Meta::Whole, Mode::Honest).await;
    let (got, took) = timed(
        &format!("{zk:?}"),
        Client::connect_with(&fake.address(), options()),
    )
    .await;
    assert!(took < TIMEOUT + Duration::from_secs(1), "{zk:?}: {took:?}");
    got.expect_err("no meta server named")
}

/// Mode 14: a ZooKeeper that answers what ZooKeeper does not (an HTTP
/// answer, a reply of 1 GiB, a refused session, a short reply), or a
/// znode that is not HBase's, is `Error::ZooKeeper`, saying so, at once.
#[tokio::test(flavor = "multi_thread")]
async fn a_zookeeper_that_answers_wrong_is_a_zookeeper_error() {
    for (zk, why) in [
        (Zk::Garbage, "a reply of 1213486160 bytes"),
        (
            Zk::Claim {
                claim: 1 << 30,
                sent: 10,
            },
            "a reply of 1073741824 bytes",
        ),
        (Zk::Claim { claim: -7, sent: 0 }, "a reply of -7 bytes"),
        (Zk::Refused, "did not answer as ZooKeeper does"),
        (Zk::ShortData, "shorter than its data"),
        (Zk::NoNode, "/hbase/meta-region-server does not exist"),
        (Zk::NotHBase, "does not start with HBase's magic byte"),
        (Zk::BadPayload, "/hbase/meta-region-server is not HBase's"),
    ] {
        let e = connect_fails(zk).await;
        assert!(matches!(e, Error::ZooKeeper { .. }), "{zk:?}: {e}");
        says(&e, why);
    }
}

/// Mode 14: a ZooKeeper that closes, claims 16 MiB and sends 10 bytes,
/// pings forever instead of answering, or is not there, is a connection
/// failure (a ZooKeeper restarting looks the same), within the connect
/// timeout. (16 MiB is `zookeeper.rs`'s cap on a reply, whose buffer
/// grows as the bytes come.)
#[tokio::test(flavor = "multi_thread")]
async fn a_zookeeper_that_closes_or_stalls_is_a_connection_error() {
    for (zk, why) in [
        (Zk::Closes, "it closed the connection"),
        (
            Zk::Claim {
                claim: 16 << 20,
                sent: 10,
            },
            "no answer within 0.5 s",
        ),
        (Zk::Pings, "no answer within 0.5 s"),
    ] {
        let e = connect_fails(zk).await;
        assert!(matches!(e, Error::Connection { .. }), "{zk:?}: {e}");
        says(&e, why);
    }
    // Nobody at the address.
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        listener.local_addr().unwrap().port()
    };
    let (got, _) = timed(
        "no ZooKeeper",
        Client::connect_with(&format!("zk://127.0.0.1:{port}"), options()),
    )
    .await;
    let e = got.unwrap_err();
    assert!(matches!(e, Error::Connection { .. }), "{e}");
    says(&e, "no ZooKeeper server could be reached");
}

/// The first error of a get of row `x` against `meta` (after retries if
/// it is retried), and how many scans of `hbase:meta` it took.
async fn get_fails(meta: Meta) -> (Error, usize) {
    let fake = Fake::with(Zk::Honest, meta.clone(), Mode::Honest).await;
    let client = fake.client().await;
    let (got, _) = timed(
        &format!("{meta:?}"),
        client.get(TABLE, vec![b"x".to_vec()], vec![]),
    )
    .await;
    assert_eq!(fake.stats.calls("Multi"), 0, "{meta:?}: no region to ask");
    (got.expect_err("no region"), fake.stats.meta_scans())
}

/// Mode 15: `hbase:meta` listing regions that leave a gap, overlap, end
/// early, or lie on no server: the regions are in transition, looked up
/// again each try until the tries run out.
#[tokio::test(flavor = "multi_thread")]
async fn regions_that_do_not_cover_the_table_are_in_transition() {
    for meta in [
        Meta::Regions(vec![(b"b", b"")]),
        Meta::Regions(vec![(b"", b"m")]),
        Meta::Regions(vec![(b"", b"c"), (b"d", b"")]),
        Meta::Regions(vec![(b"", b"m"), (b"c", b"")]),
        Meta::NoServer,
    ] {
        let (e, scans) = get_fails(meta.clone()).await;
        assert!(
            matches!(exhausted(&e), Error::RegionsInTransition { .. }),
            "{meta:?}: {e}"
        );
        assert_eq!(scans, ATTEMPTS as usize, "{meta:?}: looked up each try");
    }
}

/// Mode 15: a `regioninfo` without its `PBUF` magic, or not a protobuf,
/// is a protocol error, not retried; no rows at all is no such table.
#[tokio::test(flavor = "multi_thread")]
async fn regioninfo_that_is_not_hbase_s_is_a_protocol_error() {
    for (meta, why) in [
        (Meta::NoMagic, "without its PBUF magic"),
        (Meta::BadRegionInfo, "info:regioninfo"),
    ] {
        let (e, scans) = get_fails(meta.clone()).await;
        assert!(matches!(e, Error::Protocol { .. }), "{meta:?}: {e}");
        says(&e, why);
        assert_eq!(scans, 1);
    }
    let (e, _) = get_fails(Meta::Empty).await;
    assert!(matches!(e, Error::TableNotFound { .. }), "{e}");
}

/// A master down (no `/hbase/master`, though HBase's state is there) is
/// said as such, not as a wrong znode parent, and is retried: a master
/// starting or failing over is outlasted.
#[tokio::test(flavor = "multi_thread")]
async fn a_master_down_is_said_as_such_and_retried() {
    let fake = Fake::with(Zk::NoMaster, Meta::Whole, Mode::Honest).await;
    let client = Client::connect_with(&fake.address(), options())
        .await
        .expect("meta is found without a master");
    let (got, _) = timed("no master", client.admin().table_names()).await;
    let e = got.expect_err("no master to ask");
    assert!(
        matches!(e, Error::RetriesExhausted { attempts: 3, .. }),
        "retried: {e}"
    );
    says(&e, "no master is active");
    assert!(!e.to_string().contains("znode parent"), "{e}");
}
