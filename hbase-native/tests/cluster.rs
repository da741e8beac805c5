//! The client against a real HBase 2.6.1: a master and three region
//! servers in one JVM (`rowkey_fixtures::hbase::cluster`), tables
//! pre-split over them, every read checked against what was written.

use futures::TryStreamExt;
use hbase_native::{Client, Filter, RowMutation, Scan};
use rowkey_fixtures::hbase;
use std::collections::BTreeMap;

fn key(i: u32) -> Vec<u8> {
    format!("row{i:05}").into_bytes()
}

async fn client() -> Client {
    Client::connect(&hbase::cluster().zk_address())
        .await
        .expect("connect")
}

/// A table of `n` rows `row00000..`, split at `row01000`, `row02000`, ...
async fn table(client: &Client, name: &str, n: u32) -> BTreeMap<Vec<u8>, Vec<u8>> {
    let admin = client.admin();
    let _ = admin.delete_table(name).await;
    let splits: Vec<Vec<u8>> = (1..n / 1000 + 1).map(|i| key(i * 1000)).collect();
    admin
        .create_table(name, &["d"], &splits)
        .await
        .expect("create");
    let rows: BTreeMap<Vec<u8>, Vec<u8>> = (0..n)
        .map(|i| (key(i), format!("v{i}").into_bytes()))
        .collect();
    let mutations = rows
        .iter()
        .map(|(k, v)| RowMutation::put(k.clone()).set(b"d", b"q", v).at(1))
        .collect();
    client.mutate(name, mutations).await.expect("write");
    rows
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pre_split_table_reads_back_whole_forward_and_reversed() {
    let client = client().await;
    let rows = table(&client, "native_whole", 3500).await;
    let regions = client.admin().regions("native_whole").await.unwrap();
    assert_eq!(regions.len(), 4, "{regions:?}");
    let got: Vec<_> = client
        .scan("native_whole", Scan::all().caching(333))
        .try_collect()
        .await
        .unwrap();
    let keys: Vec<_> = got.iter().map(|r| r.row.clone()).collect();
    assert_eq!(keys, rows.keys().cloned().collect::<Vec<_>>());
    assert_eq!(got[7].cells[0].value, b"v7");

    let got: Vec<_> = client
        .scan("native_whole", Scan::all().reversed())
        .try_collect()
        .await
        .unwrap();
    let keys: Vec<_> = got.iter().map(|r| r.row.clone()).collect();
    assert_eq!(keys, rows.keys().rev().cloned().collect::<Vec<_>>());

    // A range across a region boundary, both ways, with a limit.
    let scan = Scan::range(key(900), key(2100));
    let got: Vec<_> = client
        .scan("native_whole", scan.clone())
        .try_collect()
        .await
        .unwrap();
    assert_eq!(got.len(), 1200);
    let got: Vec<_> = client
        .scan("native_whole", scan.clone().reversed().limit(150))
        .try_collect()
        .await
        .unwrap();
    let keys: Vec<_> = got.iter().map(|r| r.row.clone()).collect();
    assert_eq!(keys, (1950..2100).rev().map(key).collect::<Vec<_>>());
}

#[tokio::test(flavor = "multi_thread")]
async fn server_side_filters_keep_what_they_say() {
    let client = client().await;
    let rows = table(&client, "native_filters", 2500).await;
    // row0?5?7: fixed but for two bytes.
    let scan = Scan::all().filter(Filter::Fuzzy(vec![(
        b"row0?5?7".to_vec(),
        vec![0, 0, 0, 0, 1, 0, 1, 0],
    )]));
    let got: Vec<_> = client
        .scan("native_filters", scan)
        .try_collect()
        .await
        .unwrap();
    let want: Vec<_> = rows
        .keys()
        .filter(|k| k[..4] == *b"row0" && k[5] == b'5' && k[7] == b'7')
        .cloned()
        .collect();
    assert!(!want.is_empty());
    assert_eq!(got.iter().map(|r| r.row.clone()).collect::<Vec<_>>(), want);

    let ranges = vec![(key(10), key(20)), (key(1990), key(2010))];
    let scan = Scan::all().filter(Filter::RowRanges(ranges));
    let got: Vec<_> = client
        .scan("native_filters", scan)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(got.len(), 30);

    let reversed_fuzzy = Scan::all()
        .reversed()
        .filter(Filter::Fuzzy(vec![(b"r".to_vec(), vec![0])]));
    let e = client
        .scan("native_filters", reversed_fuzzy)
        .try_collect::<Vec<_>>()
        .await
        .unwrap_err();
    assert!(e.to_string().contains("HBASE-28634"), "{e}");
}

#[tokio::test(flavor = "multi_thread")]
async fn deletes_and_clears_apply_by_their_stamps() {
    let client = client().await;
    table(&client, "native_deletes", 1500).await;
    client
        .mutate(
            "native_deletes",
            vec![
                RowMutation::delete_row(key(5)).at(2),
                RowMutation::put(key(6))
                    .set(b"d", b"r", b"new")
                    .clear(b"d", b"q")
                    .at(2),
                // Older than the row's cells: hides nothing.
                RowMutation::delete_row(key(7)).at(0),
            ],
        )
        .await
        .unwrap();
    let got: Vec<_> = client
        .scan("native_deletes", Scan::range(key(4), key(8)))
        .try_collect()
        .await
        .unwrap();
    let keys: Vec<_> = got.iter().map(|r| r.row.clone()).collect();
    assert_eq!(keys, vec![key(4), key(6), key(7)]);
    assert_eq!(got[1].cells.len(), 1);
    assert_eq!(
        (
            got[1].cells[0].qualifier.as_slice(),
            got[1].cells[0].value.as_slice()
        ),
        (&b"r"[..], &b"new"[..])
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn wrong_input_is_a_clear_error() {
    let cluster = hbase::cluster();
    let e = Client::connect(&format!("zk://127.0.0.1:{}/not-hbase", cluster.zk_port))
        .await
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("/not-hbase/meta-region-server does not exist"),
        "{e}"
    );
    let e = Client::connect(&format!("zk://{}", cluster.thrift))
        .await
        .unwrap_err();
    not_zookeeper(&e);
    let client = client().await;
    let e = client
        .scan("no_such_table", Scan::all())
        .try_collect::<Vec<_>>()
        .await
        .unwrap_err();
    assert!(
        matches!(e, hbase_native::Error::TableNotFound { .. }),
        "{e}"
    );
    let e = client
        .mutate(
            "native_whole",
            vec![RowMutation::put(b"x".to_vec()).set(b"nope", b"q", b"v")],
        )
        .await;
    assert!(e
        .unwrap_err()
        .to_string()
        .contains("NoSuchColumnFamilyException"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_masters_registry_finds_the_cluster_too() {
    let cluster = hbase::cluster();
    let client = Client::connect(&format!("hbase://127.0.0.1:{}", cluster.master_port))
        .await
        .expect("connect through the master");
    let rows = table(&client, "native_registry", 1200).await;
    let got: Vec<_> = client
        .scan("native_registry", Scan::all())
        .try_collect()
        .await
        .unwrap();
    assert_eq!(got.len(), rows.len());
    assert!(client
        .admin()
        .table_names()
        .await
        .unwrap()
        .contains(&"native_registry".to_owned()));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_closed_port_is_an_error_in_bounded_time() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let began = std::time::Instant::now();
    let e = Client::connect(&format!("zk://127.0.0.1:{port}"))
        .await
        .unwrap_err();
    // Nothing listening: a connection failure, retried as one later on (a
    // ZooKeeper restarting), but not by connect.
    assert!(matches!(e, hbase_native::Error::Connection { .. }), "{e}");
    assert!(e.is_retryable(), "{e}");
    assert!(
        e.to_string()
            .contains("no ZooKeeper server could be reached")
            && e.to_string().contains("refused"),
        "{e}"
    );
    // A port that accepts and never answers: the connect timeout bounds it.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let options =
        hbase_native::Options::default().connect_timeout(std::time::Duration::from_millis(500));
    let e = Client::connect_with(&format!("zk://{}", silent.local_addr().unwrap()), options)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("no answer within 0.5 s"), "{e}");
    assert!(began.elapsed() < std::time::Duration::from_secs(10));
    // A master's RPC port given as ZooKeeper's.
    let e = Client::connect(&format!("zk://127.0.0.1:{}", hbase::cluster().master_port))
        .await
        .unwrap_err();
    not_zookeeper(&e);
}

/// A port that is not ZooKeeper's, given as ZooKeeper's: it answers
/// otherwise (an error of its own) or closes (a connection failure).
fn not_zookeeper(e: &hbase_native::Error) {
    assert!(
        matches!(
            e,
            hbase_native::Error::ZooKeeper { .. } | hbase_native::Error::Connection { .. }
        ) && e.to_string().contains("ZooKeeper"),
        "{e}"
    );
}

/// A filtered scan that finds nothing for longer than a call may wait:
/// the region server sends heartbeats (empty answers before the time is
/// up, at half the call timeout the request carries), and the scan goes
/// on to its one row instead of timing out.
#[tokio::test(flavor = "multi_thread")]
async fn heartbeats_keep_a_long_filtered_scan_alive() {
    let client = client().await;
    let admin = client.admin();
    let _ = admin.delete_table("native_heartbeats").await;
    admin
        .create_table("native_heartbeats", &["d"], &[])
        .await
        .unwrap();
    let n = 400_000u32;
    for chunk in (0..n).collect::<Vec<_>>().chunks(10_000) {
        let mutations = chunk
            .iter()
            .map(|&i| RowMutation::put(key(i)).set(b"d", b"q", &[b'x'; 64]).at(1))
            .collect();
        client.mutate("native_heartbeats", mutations).await.unwrap();
    }
    // Only the last row matches, and a regex cannot seek: the server
    // reads every row to find it.
    let last = key(n - 1);
    let scan = Scan::all().filter(Filter::KeyRegex(format!(
        "^{}$",
        String::from_utf8(last.clone()).unwrap()
    )));
    // How long the scan takes with time to spare, then with a call
    // timeout of a quarter of that (the request carries it; the server
    // sends a heartbeat at half of it).
    let began = std::time::Instant::now();
    let got: Vec<_> = client
        .scan("native_heartbeats", scan.clone())
        .try_collect()
        .await
        .unwrap();
    let whole = began.elapsed();
    assert_eq!(got.len(), 1);
    let timeout = (whole / 4).max(std::time::Duration::from_millis(40));
    let short = client.with_policy(hbase_native::CallPolicy::new(1, timeout, timeout, timeout));
    let began = std::time::Instant::now();
    let got: Vec<_> = short
        .scan("native_heartbeats", scan)
        .try_collect()
        .await
        .unwrap();
    let took = began.elapsed();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].row, last);
    eprintln!("the scan: {whole:?}; with a call timeout of {timeout:?}: {took:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn gets_answer_in_the_order_asked_across_regions() {
    let client = client().await;
    let rows = table(&client, "native_gets", 3200).await;
    let asked: Vec<Vec<u8>> = vec![
        key(3100),
        key(5),
        b"absent".to_vec(),
        key(1500),
        key(5),
        key(2999),
    ];
    let got = client
        .get("native_gets", asked.clone(), vec![])
        .await
        .unwrap();
    assert_eq!(got.len(), asked.len());
    for (k, g) in asked.iter().zip(&got) {
        match rows.get(k) {
            Some(v) => assert_eq!(
                g.as_ref().map(|r| r.cells[0].value.clone()),
                Some(v.clone()),
                "{k:?}"
            ),
            None => assert!(g.is_none()),
        }
    }
    let only: Vec<_> = client
        .get(
            "native_gets",
            vec![key(7)],
            vec![(b"d".to_vec(), Some(b"other".to_vec()))],
        )
        .await
        .unwrap();
    assert!(
        only[0].is_none(),
        "a row without the column asked for is none"
    );
}

/// Conditional mutations hold exactly when the cell is as the check says
/// (each compared with the rule, in the API's own terms), and counters
/// taken by many tasks at once count every increment once.
#[tokio::test(flavor = "multi_thread")]
async fn conditional_mutations_and_counters_are_one_step_each() {
    use hbase_native::{Check, Compare, Modify};
    let client = client().await;
    let admin = client.admin();
    let _ = admin.delete_table("native_atomic").await;
    admin
        .create_table("native_atomic", &["d"], &[b"m".to_vec()])
        .await
        .unwrap();
    let check = |compare: Compare| Check {
        family: b"d".to_vec(),
        qualifier: b"c".to_vec(),
        compare,
        as_of: None,
    };
    let read = |row: &'static [u8]| {
        let client = client.clone();
        async move {
            client
                .get("native_atomic", vec![row.to_vec()], vec![])
                .await
                .unwrap()
                .remove(0)
        }
    };
    let put = |row: &[u8], v: &[u8]| RowMutation::put(row.to_vec()).set(b"d", b"c", v);
    assert!(client
        .check_and_mutate("native_atomic", check(Compare::Absent), put(b"a", b"m"))
        .await
        .unwrap());
    assert!(!client
        .check_and_mutate("native_atomic", check(Compare::Absent), put(b"a", b"x"))
        .await
        .unwrap());
    // The cell holds "m": each comparison as the rule says.
    for (compare, holds) in [
        (Compare::Equal(b"m".to_vec()), true),
        (Compare::Equal(b"n".to_vec()), false),
        (Compare::Less(b"n".to_vec()), true),
        (Compare::Less(b"m".to_vec()), false),
        (Compare::Less(b"a".to_vec()), false),
        (Compare::Greater(b"a".to_vec()), true),
        (Compare::Greater(b"m".to_vec()), false),
        (Compare::Greater(b"z".to_vec()), false),
    ] {
        let mutation =
            RowMutation::put(b"a".to_vec()).set(b"d", b"seen", format!("{compare:?}").as_bytes());
        let got = client
            .check_and_mutate("native_atomic", check(compare.clone()), mutation)
            .await
            .unwrap();
        assert_eq!(got, holds, "{compare:?} of a cell holding m");
    }
    // A clear and a put as one step, on a row of the other region.
    client
        .mutate(
            "native_atomic",
            vec![put(b"z", b"1").set(b"d", b"gone", b"x")],
        )
        .await
        .unwrap();
    let both = put(b"z", b"2").clear(b"d", b"gone");
    assert!(client
        .check_and_mutate("native_atomic", check(Compare::Equal(b"1".to_vec())), both)
        .await
        .unwrap());
    let z = read(b"z").await.unwrap();
    assert_eq!(z.cells.len(), 1);
    assert_eq!(z.cells[0].value, b"2");
    let e = client
        .check_and_mutate(
            "native_atomic",
            check(Compare::Equal(vec![])),
            put(b"a", b"v"),
        )
        .await
        .unwrap_err();
    assert!(e.to_string().contains("absent or empty"), "{e}");

    // 8 tasks x 100 increments of one counter.
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move {
                let mut seen = Vec::new();
                for _ in 0..100 {
                    let row = client
                        .read_modify_write(
                            "native_atomic",
                            b"counter".to_vec(),
                            Modify::Increment(vec![(b"d".to_vec(), b"n".to_vec(), 1)]),
                        )
                        .await
                        .unwrap();
                    seen.push(i64::from_be_bytes(
                        row.cells[0].value.clone().try_into().unwrap(),
                    ));
                }
                seen
            })
        })
        .collect();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    all.sort();
    assert_eq!(
        all,
        (1..=800).collect::<Vec<i64>>(),
        "each count came back to exactly one task"
    );
    let appended = client
        .read_modify_write(
            "native_atomic",
            b"log".to_vec(),
            Modify::Append(vec![(b"d".to_vec(), b"l".to_vec(), b"ab".to_vec())]),
        )
        .await
        .unwrap();
    assert_eq!(appended.cells[0].value, b"ab");
    let appended = client
        .read_modify_write(
            "native_atomic",
            b"log".to_vec(),
            Modify::Append(vec![(b"d".to_vec(), b"l".to_vec(), b"cd".to_vec())]),
        )
        .await
        .unwrap();
    assert_eq!(appended.cells[0].value, b"abcd");
}
