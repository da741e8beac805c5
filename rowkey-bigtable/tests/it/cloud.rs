//! What Cloud Bigtable does and the emulator does not, against a scripted
//! server (`rowkey_fixtures::bigtable_mock`): statuses that carry
//! `RetryInfo`, routing cookies, `last_scanned_row_key`, partial
//! `MutateRows` failures, slow answers. Each test is one of the store's
//! answers to Google's client conformance suite, checked without Go.

use futures::{StreamExt, TryStreamExt};
use rowkey::store::{KeyRange, ReadRequest, RetryPolicy, Store, StoreError, StoreExt};
use rowkey_bigtable::{BigtableStore, Mutation, RowMutation};
use rowkey_fixtures::bigtable_mock::{
    retry_info, row, scanned, with_cookie, MockBigtable, Received, Step,
};
use std::time::{Duration, Instant};
use tonic::{Code, Status};

use bigtable_rs::google::bigtable::v2::mutate_rows_response::Entry as Reported;
use bigtable_rs::google::bigtable::v2::row_range::{EndKey, StartKey};
use bigtable_rs::google::bigtable::v2::{
    MutateRowsResponse, ReadRowsRequest, RowRange, SampleRowKeysResponse,
};

const TABLE: &str = "projects/p/instances/i/tables/t";

async fn store(mock: &MockBigtable) -> BigtableStore {
    BigtableStore::connect_emulator(&mock.addr, "p", "i", "t")
        .await
        .unwrap()
        .with_retry(
            RetryPolicy::default()
                .backoff_between(Duration::from_millis(10), Duration::from_millis(100)),
        )
}

fn whole_table() -> ReadRequest {
    ReadRequest::new([KeyRange::new(Vec::new(), None)])
}

fn reads(mock: &MockBigtable) -> Vec<ReadRowsRequest> {
    mock.calls()
        .into_iter()
        .filter_map(|c| match c.request {
            Received::ReadRows(r) => Some(r),
            _ => None,
        })
        .collect()
}

fn keys(rows: &[rowkey::store::Row]) -> Vec<String> {
    rows.iter()
        .map(|r| String::from_utf8_lossy(&r.key).into_owned())
        .collect()
}

fn code(e: &StoreError) -> Option<Code> {
    std::error::Error::source(e)?
        .downcast_ref::<Status>()
        .map(Status::code)
}

fn unavailable() -> Status {
    Status::unavailable("try again")
}

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
        let why = std::error::Error::source(e).unwrap().to_string();
        assert!(why.contains(order), "{why}");
        assert_eq!(mock.calls().len(), 1, "not retried");
    }
}

fn ok_entries(indices: &[i64]) -> MutateRowsResponse {
    entries(indices, Code::Ok)
}

fn entries(indices: &[i64], code: Code) -> MutateRowsResponse {
    MutateRowsResponse {
        entries: indices
            .iter()
            .map(|&index| Reported {
                index,
                status: Some(googleapis_status(code)),
            })
            .collect(),
        ..MutateRowsResponse::default()
    }
}

fn googleapis_status(code: Code) -> googleapis_tonic_google_rpc::google::rpc::Status {
    googleapis_tonic_google_rpc::google::rpc::Status {
        code: code as i32,
        ..Default::default()
    }
}

fn rows(n: usize) -> Vec<RowMutation> {
    (0..n)
        .map(|i| {
            RowMutation::new(
                format!("row-{i}"),
                vec![Mutation::set_cell_at("f", "col", 1000, "value")],
            )
        })
        .collect()
}

fn sent_keys(mock: &MockBigtable) -> Vec<Vec<String>> {
    mock.calls()
        .into_iter()
        .filter_map(|c| match c.request {
            Received::MutateRows(r) => Some(
                r.entries
                    .iter()
                    .map(|e| String::from_utf8_lossy(&e.row_key).into_owned())
                    .collect(),
            ),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutate_rows_sends_again_only_the_rows_that_failed() {
    let mock = MockBigtable::start().await;
    let mut first = ok_entries(&[0, 3]);
    first
        .entries
        .extend(entries(&[1, 2], Code::Unavailable).entries);
    mock.mutate_rows(vec![Step::Send(first)]);
    let mut second = ok_entries(&[1]);
    second
        .entries
        .extend(entries(&[0], Code::Unavailable).entries);
    mock.mutate_rows(vec![Step::Send(second)]);
    mock.mutate_rows(vec![Step::Send(ok_entries(&[0]))]);
    store(&mock).await.mutate_rows(rows(4)).await.unwrap();
    assert_eq!(
        sent_keys(&mock),
        [
            vec!["row-0", "row-1", "row-2", "row-3"],
            vec!["row-1", "row-2"],
            vec!["row-1"]
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutate_rows_reports_each_rows_own_status() {
    let mock = MockBigtable::start().await;
    let mut reply = ok_entries(&[0, 3]);
    reply
        .entries
        .extend(entries(&[1, 2], Code::PermissionDenied).entries);
    mock.mutate_rows(vec![Step::Send(reply)]);
    let e = store(&mock).await.mutate_rows(rows(4)).await.unwrap_err();
    let failed: Vec<_> = e
        .failed()
        .iter()
        .map(|f| (f.index, code(&f.error)))
        .collect();
    assert_eq!(
        failed,
        [
            (1, Some(Code::PermissionDenied)),
            (2, Some(Code::PermissionDenied))
        ]
    );
    assert_eq!(e.rows(), 4);
    assert!(
        e.to_string().starts_with("2 of 4 row mutations failed"),
        "{e}"
    );
    assert_eq!(mock.calls().len(), 1, "no retry of permanent failures");
    // An OK stream that leaves a row out: that row failed, not retried.
    let mock = MockBigtable::start().await;
    mock.mutate_rows(vec![Step::Send(ok_entries(&[0, 2]))]);
    let e = store(&mock).await.mutate_rows(rows(3)).await.unwrap_err();
    let failed: Vec<_> = e
        .failed()
        .iter()
        .map(|f| (f.index, code(&f.error)))
        .collect();
    assert_eq!(failed, [(1, Some(Code::Internal))]);
    assert_eq!(mock.calls().len(), 1);
    // A call that times out fails every row it had not reported.
    let mock = MockBigtable::start().await;
    mock.mutate_rows(vec![
        Step::Sleep(Duration::from_secs(10)),
        Step::Send(ok_entries(&[0])),
    ]);
    let s = store(&mock)
        .await
        .with_operation_timeout(Duration::from_millis(500));
    let e = s.mutate_rows(rows(1)).await.unwrap_err();
    assert_eq!(code(&e.failed()[0].error), Some(Code::DeadlineExceeded));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutate_row_is_retried_only_when_idempotent() {
    let mock = MockBigtable::start().await;
    mock.mutate_row(vec![Step::Fail(unavailable())]);
    mock.mutate_row(vec![]);
    let s = store(&mock).await;
    let at = RowMutation::new(
        vec![0x13, 0x14],
        vec![Mutation::set_cell_at("f", "c", 1000, "v")],
    );
    s.mutate_row(at).await.unwrap();
    let sent: Vec<_> = mock
        .calls()
        .into_iter()
        .filter_map(|c| match c.request {
            Received::MutateRow(r) => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[1].row_key, [0x13, 0x14]);
    assert_eq!(sent[1].mutations.len(), 1);
    // At the server's time, a second send would write a second version.
    let mock = MockBigtable::start().await;
    mock.mutate_row(vec![Step::Fail(unavailable())]);
    let now = RowMutation::new("k", vec![Mutation::set_cell("f", "c", "v")]);
    let e = store(&mock).await.mutate_row(now).await.unwrap_err();
    assert_eq!(code(&e), Some(Code::Unavailable));
    assert_eq!(mock.calls().len(), 1);
}
