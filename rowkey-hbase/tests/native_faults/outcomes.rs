//! Operations that are not idempotent, whose first copy ran on the
//! server and whose answer was lost (the proxy holds the request, cuts
//! the client, then delivers it): the result is the exact effect or
//! `OutcomeUnknown`, and the operation is applied once, never twice and
//! never reported as a transient error a caller would retry.
//!
//! - An increment retried on the server that ran it: that server knows
//!   its nonce and does not run it again.
//! - An increment whose region moved (in order, as the balancer moves
//!   regions) before the retry: the new server does not know the nonce,
//!   so the retry is not sent: `OutcomeUnknown` (it was counted twice,
//!   as `Ok`, before).
//! - A conditional write: never sent again, `OutcomeUnknown`.

use crate::harness::{command, patient};
use crate::late_writes::one_region_with;
use rowkey::store::{
    counter_value, CellCheck, CellCondition, ConditionalWrite, ModifyRule, ReadModifyWrite,
    RowEdit, Store, StoreError, StoreExt,
};
use std::time::Duration;

/// Retries 6 s apart: time for the test to deliver the held copy and
/// move the region before the client tries again.
fn slow_retries() -> rowkey::store::RetryPolicy {
    patient()
        .backoff_between(Duration::from_secs(6), Duration::from_secs(6))
        .idle_timeout(Duration::from_secs(2))
}

/// Waits (at most 30 s) until the proxy holds a request and has cut its
/// client.
async fn wait_for_hold(proxy: &rowkey_fixtures::proxy::FaultProxy) {
    let began = std::time::Instant::now();
    while !proxy.holding() {
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "no request was held"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn add(by: i64) -> ReadModifyWrite {
    ReadModifyWrite::new(
        crate::harness::key(0),
        vec![ModifyRule::increment("d", "n", by)],
    )
}

async fn counter(store: &rowkey_hbase::HBaseStore) -> Option<i64> {
    store
        .read_row(&crate::harness::key(0))
        .await
        .unwrap()
        .and_then(|row| row.value("d", "n").and_then(counter_value))
}

/// An increment of 10 whose first copy runs while its client has been
/// cut, then `between` (cluster commands), then the client's retry.
async fn lost_answer(between: impl Fn(String) -> Vec<String>) -> (Result<i64, StoreError>, i64) {
    let (store, _, proxy) = one_region_with(1, slow_retries()).await;
    store.read_modify_write(add(1)).await.unwrap();
    proxy.hold_next_request_then_cut_client(b"Mutate");
    let increment = tokio::spawn({
        let store = store.clone();
        async move { store.read_modify_write(add(10)).await }
    });
    wait_for_hold(&proxy).await;
    assert!(proxy.release_held(), "the held increment ran");
    for line in between(store.table_name().to_owned()) {
        command(&line).await;
    }
    let answer = increment.await.unwrap().map(|row| {
        row.value("d", "n")
            .and_then(counter_value)
            .expect("the counter's new value")
    });
    (answer, counter(&store).await.expect("a counter"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_increment_retried_on_the_server_that_ran_it_counts_once() {
    let (answer, stored) = lost_answer(|_| Vec::new()).await;
    assert_eq!(stored, 11, "applied once ({answer:?})");
    match answer {
        Ok(n) => assert_eq!(n, 11),
        Err(e) => assert!(e.is_outcome_unknown(), "{e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_increment_whose_region_moved_before_the_retry_is_outcome_unknown() {
    let (answer, stored) = lost_answer(|table| vec![format!("move {table} -")]).await;
    assert_eq!(stored, 11, "applied once ({answer:?})");
    let e = answer.expect_err("the retry would have run again on the new server");
    assert!(e.is_outcome_unknown() && !e.is_transient(), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conditional_write_whose_answer_was_lost_is_outcome_unknown() {
    let (store, _, proxy) = one_region_with(1, slow_retries()).await;
    proxy.hold_next_request_then_cut_client(b"Mutate");
    let claim = ConditionalWrite::new(
        crate::harness::key(0),
        CellCheck::new("d", "owner", CellCondition::Absent),
    )
    .on_true(vec![RowEdit::set("d", "owner", "me")]);
    let write = tokio::spawn({
        let store = store.clone();
        async move { store.check_and_write(claim).await }
    });
    wait_for_hold(&proxy).await;
    assert!(proxy.release_held(), "the held write ran");
    let e = write.await.unwrap().expect_err("its answer was lost");
    assert!(e.is_outcome_unknown() && !e.is_transient(), "{e}");
    let row = store.read_row(&crate::harness::key(0)).await.unwrap();
    assert_eq!(
        row.unwrap().value("d", "owner"),
        Some(&b"me"[..]),
        "applied once"
    );
}
