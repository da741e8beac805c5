//! Reads, and what every call carries.

use super::writes::ok_entries;
use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retry_waits_the_delay_the_server_asks_for() {
    let mock = MockBigtable::start().await;
    mock.read_rows(vec![
        Step::Send(row("row-01", "f", "c", 1, "v1")),
        Step::Fail(retry_info(
            Code::Unavailable,
            "later",
            Duration::from_millis(800),
        )),
    ]);
    mock.read_rows(vec![Step::Send(row("row-05", "f", "c", 1, "v5"))]);
    let rows: Vec<_> = store(&mock)
        .await
        .read_rows(whole_table())
        .try_collect()
        .await
        .unwrap();
    assert_eq!(keys(&rows), ["row-01", "row-05"]);
    let calls = mock.calls();
    let waited = calls[1].at - calls[0].at;
    assert!(
        waited >= Duration::from_millis(800),
        "retried after {waited:?}"
    );
    // A code that is not retried is, when it carries RetryInfo.
    let mock = MockBigtable::start().await;
    mock.sample_row_keys(vec![Step::Fail(retry_info(
        Code::ResourceExhausted,
        "quota",
        Duration::from_millis(50),
    ))]);
    mock.sample_row_keys(vec![Step::Send(SampleRowKeysResponse {
        row_key: b"m".to_vec(),
        offset_bytes: 10,
    })]);
    let samples = store(&mock).await.sample_row_keys().await.unwrap();
    assert_eq!(
        (samples[0].key.as_slice(), samples[0].offset_bytes),
        (&b"m"[..], 10)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn routing_cookies_go_back_on_every_later_attempt() {
    let cookie = |c: &rowkey_fixtures::bigtable_mock::Call| {
        c.metadata
            .get("x-goog-cbt-cookie-test")
            .map(|v| v.to_str().unwrap().to_owned())
    };
    let mock = MockBigtable::start().await;
    mock.read_rows(vec![
        Step::Send(row("row-01", "f", "c", 1, "v")),
        Step::Fail(with_cookie(unavailable(), "x-goog-cbt-cookie-test", "one")),
    ]);
    mock.read_rows(vec![Step::Fail(unavailable())]);
    mock.read_rows(vec![Step::Fail(with_cookie(
        unavailable(),
        "x-goog-cbt-cookie-test",
        "two",
    ))]);
    mock.read_rows(vec![Step::Send(row("row-05", "f", "c", 1, "v"))]);
    let rows: Vec<_> = store(&mock)
        .await
        .read_rows(whole_table())
        .try_collect()
        .await
        .unwrap();
    assert_eq!(keys(&rows), ["row-01", "row-05"]);
    let seen: Vec<_> = mock.calls().iter().map(cookie).collect();
    assert_eq!(
        seen,
        [
            None,
            Some("one".into()),
            Some("one".into()),
            Some("two".into())
        ]
    );
    // Writes too; and a new operation starts without them.
    let mock = MockBigtable::start().await;
    mock.mutate_rows(vec![Step::Fail(with_cookie(
        unavailable(),
        "x-goog-cbt-cookie-test",
        "w",
    ))]);
    mock.mutate_rows(vec![Step::Send(ok_entries(&[0]))]);
    mock.mutate_rows(vec![Step::Send(ok_entries(&[0]))]);
    let s = store(&mock).await;
    s.mutate_rows(vec![RowMutation::new(
        "k",
        vec![Mutation::set_cell_at("f", "c", 1000, "v")],
    )])
    .await
    .unwrap();
    s.mutate_rows(vec![RowMutation::new("k", vec![Mutation::DeleteRow])])
        .await
        .unwrap();
    let seen: Vec<_> = mock.calls().iter().map(cookie).collect();
    assert_eq!(seen, [None, Some("w".into()), None]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operation_never_outlives_its_timeout() {
    let mock = MockBigtable::start().await;
    mock.read_rows(vec![
        Step::Sleep(Duration::from_secs(10)),
        Step::Send(row("row-01", "f", "c", 1, "v")),
    ]);
    let s = store(&mock)
        .await
        .with_operation_timeout(Duration::from_millis(600));
    let started = Instant::now();
    let e = s.read_row(b"row-01").await.unwrap_err();
    let took = started.elapsed();
    assert_eq!(code(&e), Some(Code::DeadlineExceeded), "{e:?}");
    assert!(!e.is_transient(), "{e:?}");
    assert!(
        took >= Duration::from_millis(600) && took < Duration::from_secs(3),
        "{took:?}"
    );
    // The server tells how long it may take.
    assert!(mock.calls()[0].metadata.get("grpc-timeout").is_some());
    // A retry the server asks for later than the time left is not made.
    let mock = MockBigtable::start().await;
    mock.mutate_row(vec![Step::Fail(retry_info(
        Code::Unavailable,
        "later",
        Duration::from_secs(5),
    ))]);
    let s = store(&mock)
        .await
        .with_operation_timeout(Duration::from_secs(1));
    let started = Instant::now();
    let row = RowMutation::new("k", vec![Mutation::set_cell_at("f", "c", 1000, "v")]);
    let e = s.mutate_row(row).await.unwrap_err();
    assert_eq!(code(&e), Some(Code::DeadlineExceeded), "{e:?}");
    assert!(started.elapsed() < Duration::from_millis(900));
    assert_eq!(mock.calls().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_resumes_after_the_last_scanned_row() {
    for reversed in [false, true] {
        let mock = MockBigtable::start().await;
        let (first, last) = if reversed {
            ("zbar", "abar")
        } else {
            ("abar", "zbar")
        };
        mock.read_rows(vec![
            Step::Send(row(first, "f", "c", 1, "v")),
            Step::Send(scanned("qfoo")),
            Step::Fail(unavailable()),
        ]);
        mock.read_rows(vec![Step::Send(row(last, "f", "c", 1, "v"))]);
        let request = if reversed {
            whole_table().reversed()
        } else {
            whole_table()
        };
        let rows: Vec<_> = store(&mock)
            .await
            .read_rows(request)
            .try_collect()
            .await
            .unwrap();
        assert_eq!(keys(&rows), [first, last]);
        let sent = reads(&mock);
        // The whole table: one range with no bounds, never an empty set.
        assert_eq!(
            sent[0].rows.as_ref().unwrap().row_ranges,
            [RowRange::default()]
        );
        let resumed = &sent[1].rows.as_ref().unwrap().row_ranges[0];
        if reversed {
            assert_eq!(resumed.end_key, Some(EndKey::EndKeyOpen(b"qfoo".to_vec())));
        } else {
            assert_eq!(
                resumed.start_key,
                Some(StartKey::StartKeyOpen(b"qfoo".to_vec()))
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retry_asks_only_for_the_rows_still_owed() {
    let mock = MockBigtable::start().await;
    mock.read_rows(vec![
        Step::Send(row("a", "f", "c", 1, "v")),
        Step::Send(row("b", "f", "c", 1, "v")),
        Step::Fail(Status::aborted("paused")),
    ]);
    // More than asked for: the read stops at its limit.
    mock.read_rows(vec![
        Step::Send(row("c", "f", "c", 1, "v")),
        Step::Send(row("d", "f", "c", 1, "v")),
    ]);
    let s = store(&mock).await;
    let rows: Vec<_> = s
        .read_rows(whole_table().with_limit(3))
        .try_collect()
        .await
        .unwrap();
    assert_eq!(keys(&rows), ["a", "b", "c"]);
    let sent = reads(&mock);
    assert_eq!((sent[0].rows_limit, sent[1].rows_limit), (3, 1));
    // An error after the last row asked for ends nothing: no retry.
    let mock = MockBigtable::start().await;
    mock.read_rows(vec![
        Step::Send(row("row-01", "f", "c", 1, "v")),
        Step::Fail(Status::deadline_exceeded("late")),
    ]);
    let rows: Vec<_> = store(&mock)
        .await
        .read_rows(whole_table().with_limit(1))
        .try_collect()
        .await
        .unwrap();
    assert_eq!(keys(&rows), ["row-01"]);
    assert_eq!(mock.calls().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_say_what_google_clients_say() {
    let mock = MockBigtable::start().await;
    mock.read_rows(vec![Step::Send(row("row-01", "A", "q", 99, "v"))]);
    let s = store(&mock).await.with_app_profile("test_profile");
    s.read_row(b"row-01").await.unwrap().unwrap();
    let call = &mock.calls()[0];
    let params = call
        .metadata
        .get("x-goog-request-params")
        .unwrap()
        .to_str()
        .unwrap();
    assert!(
        params.contains("projects%2Fp%2Finstances%2Fi%2Ftables%2Ft"),
        "{params}"
    );
    assert!(params.contains("app_profile_id=test_profile"), "{params}");
    // reverse_scans, last_scanned_row_responses, routing_cookie, retry_info.
    assert_eq!(
        call.metadata.get("bigtable-features").unwrap(),
        "CAEgATABOAE="
    );
    // A point read is a row key and a limit of one.
    let Received::ReadRows(read) = &call.request else {
        panic!("{call:?}")
    };
    assert_eq!(read.table_name, TABLE);
    assert_eq!(read.rows.as_ref().unwrap().row_keys, [b"row-01".to_vec()]);
    assert_eq!(read.rows_limit, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rows_out_of_order_are_refused_saying_so() {
    for (reversed, order) in [(false, "increasing"), (true, "decreasing")] {
        let mock = MockBigtable::start().await;
        let (a, b, c) = if reversed {
            ("row-03", "row-07", "row-01")
        } else {
            ("row-01", "row-07", "row-03")
        };
        mock.read_rows(vec![
            Step::Send(row(a, "f", "c", 1, "v")),
            Step::Send(row(b, "f", "c", 1, "v")),
            Step::Send(row(c, "f", "c", 1, "v")),
        ]);
        let request = if reversed {
            whole_table().reversed()
        } else {
            whole_table()
        };
        let got: Vec<_> = store(&mock).await.read_rows(request).collect().await;
        let e = got.last().unwrap().as_ref().unwrap_err();
        let why = e.backend_source().unwrap().to_string();
        assert!(why.contains(order), "{why}");
        assert_eq!(mock.calls().len(), 1, "not retried");
    }
}
