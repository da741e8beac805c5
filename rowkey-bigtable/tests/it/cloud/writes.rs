//! `MutateRow` and `MutateRows`.

use super::*;

pub(super) fn ok_entries(indices: &[i64]) -> MutateRowsResponse {
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
