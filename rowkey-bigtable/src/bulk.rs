//! `MutateRows` with each row's outcome: a batch of entries is sent in one
//! call, every entry's status is read from the stream, and only the
//! entries that failed transiently (and may be sent again) are sent again,
//! after the wait the call sets. An entry the server never reported on is
//! failed with the call's own error when the call failed (retried when
//! that is transient), and with INTERNAL when the call ended cleanly
//! without it (a server that loses entries is not asked again).

use crate::call::{chain, Call};
use crate::status::{is_transient_code, status_of, store_error};
use crate::target::Target;
use bigtable_rs::google::bigtable::v2::mutate_rows_request::Entry;
use bigtable_rs::google::bigtable::v2::MutateRowsRequest;
use rowkey_core::KeyDisplay;
use rowkey_store::StoreError;
use tonic::{Code, Status};

const OP: &str = "mutate rows";

/// When an entry may be sent again after a transient failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Resend {
    /// Always: a copy delivered late does what the retry did (cells at
    /// timestamps set before the first send, deletes bounded by them).
    Always,
    /// Only after a failure known not to have been applied (a status the
    /// server reported for the entry, a connection that was never made):
    /// a late copy could undo a later write (a row delete).
    IfNotApplied,
    /// Never: a second copy would write again (a cell at the server's
    /// time).
    Never,
}

/// An entry to write, with its index in the caller's rows.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    pub(crate) index: usize,
    pub(crate) entry: Entry,
    /// Whether it may be sent again after a transient failure.
    pub(crate) resend: Resend,
}

/// An entry not written: its index and key, and why.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) index: usize,
    pub(crate) key: Vec<u8>,
    pub(crate) error: StoreError,
}

/// Writes one batch; the entries that were not written, with their last
/// status, after every attempt the policy and the deadline allow.
pub(crate) async fn mutate_batch(target: Target, mut items: Vec<Item>) -> Vec<Failure> {
    let _writing = target.epoch.writing();
    let mut call = Call::start(&target, OP);
    let mut failures = Vec::new();
    let mut attempts = 1;
    loop {
        let (reported, call_error) = send(&mut call, &target, &items).await;
        let mut again: Vec<(Item, Status)> = Vec::new();
        for (item, status) in items.into_iter().zip(reported) {
            // Reported failures were not applied; a failed call's entries
            // that went out may have been.
            let (status, transient, maybe_applied) = match (status, &call_error) {
                (Some(s), _) if s.code() == Code::Ok => continue,
                (Some(s), _) => {
                    let transient = is_transient_code(s.code() as i32);
                    (s, transient, false)
                }
                (None, Some(e)) => (status_for(e), e.is_transient(), !never_sent(e)),
                (None, None) => (
                    Status::internal("the server ended the call without this entry's status"),
                    false,
                    true,
                ),
            };
            let resend = match item.resend {
                Resend::Always => true,
                Resend::IfNotApplied => !maybe_applied,
                Resend::Never => false,
            };
            if transient && resend {
                again.push((item, status));
            } else if transient && maybe_applied && item.resend != Resend::Always {
                failures.push(unknown(&item, status, attempts));
            } else {
                failures.push(failure(&item, status, transient, attempts));
            }
        }
        let Some((_, first)) = again.first() else {
            return failures;
        };
        let why = call_error.unwrap_or_else(|| StoreError::transient(OP, first.clone()));
        if let Err(last) = call.retry_after(why).await {
            // Out of attempts, each entry fails with its own status; out
            // of time, with the deadline's.
            let deadline = status_of(&last)
                .filter(|s| s.code() == Code::DeadlineExceeded)
                .cloned();
            for (item, status) in again {
                let failed = match &deadline {
                    Some(deadline) => failure(&item, deadline.clone(), false, attempts),
                    None => failure(&item, status, true, attempts),
                };
                failures.push(failed);
            }
            return failures;
        }
        attempts += 1;
        items = again.into_iter().map(|(item, _)| item).collect();
    }
}

/// Whether a failed call's request never left the client: the connection
/// to the server could not be made (refused, no route, no such host).
/// Anything else may have reached the server.
pub(crate) fn never_sent(e: &StoreError) -> bool {
    never_sent_text(&chain(e))
}

/// [`never_sent`] of an error's text (with its causes).
pub(crate) fn never_sent_text(text: &str) -> bool {
    let text = text.to_ascii_lowercase();
    [
        "tcp connect error",
        "error trying to connect",
        "connection refused",
    ]
    .iter()
    .any(|w| text.contains(w))
}

/// An entry not sent again whose call failed after it may have reached
/// the server.
fn unknown(item: &Item, status: Status, attempts: u32) -> Failure {
    let key = item.entry.row_key.clone();
    let status = Status::new(
        status.code(),
        format!("row {}: {}", KeyDisplay(&key), status.message()),
    );
    Failure {
        index: item.index,
        key,
        error: StoreError::outcome_unknown(OP, status).after_attempts(attempts),
    }
}

/// The status of a call's error: its own, or one that says what it was.
fn status_for(e: &StoreError) -> Status {
    status_of(e).cloned().unwrap_or_else(|| {
        if e.is_transient() {
            Status::unavailable(chain(e))
        } else {
            Status::unknown(chain(e))
        }
    })
}

/// An entry not written, its status naming its row; `transient`: it
/// failed in a way worth retrying.
fn failure(item: &Item, status: Status, transient: bool, attempts: u32) -> Failure {
    let key = item.entry.row_key.clone();
    let status = Status::new(
        status.code(),
        format!("row {}: {}", KeyDisplay(&key), status.message()),
    );
    let error = if transient {
        StoreError::transient(OP, status)
    } else {
        StoreError::backend(OP, status)
    };
    Failure {
        index: item.index,
        key,
        error: error.after_attempts(attempts),
    }
}

/// One call: each entry's status as reported (`None`: not reported), and
/// the call's own error if it failed.
async fn send(
    call: &mut Call,
    target: &Target,
    items: &[Item],
) -> (Vec<Option<Status>>, Option<StoreError>) {
    let mut reported = vec![None; items.len()];
    let request = call.request(
        target,
        MutateRowsRequest {
            table_name: target.table.to_string(),
            app_profile_id: target.app_profile.to_string(),
            entries: items.iter().map(|i| i.entry.clone()).collect(),
            ..MutateRowsRequest::default()
        },
    );
    let idle = target.retry.idle_timeout;
    let mut client = target.client.clone();
    let mut stream = match call
        .within(
            idle,
            "the request",
            client.get_client().mutate_rows(request),
        )
        .await
    {
        Ok(Ok(response)) => {
            call.keep_cookies(response.metadata());
            response.into_inner()
        }
        Ok(Err(status)) => return (reported, Some(store_error(OP, status))),
        Err(e) => return (reported, Some(e)),
    };
    loop {
        let message = match call
            .within(idle, "the stream stalled", stream.message())
            .await
        {
            Ok(Ok(Some(message))) => message,
            Ok(Ok(None)) => return (reported, None),
            Ok(Err(status)) => return (reported, Some(store_error(OP, status))),
            Err(e) => return (reported, Some(e)),
        };
        for entry in message.entries {
            let Some(slot) = usize::try_from(entry.index)
                .ok()
                .and_then(|i| reported.get_mut(i))
            else {
                continue;
            };
            // No status is an OK one (proto3's default).
            let status = entry.status.unwrap_or_default();
            *slot = Some(Status::new(Code::from_i32(status.code), status.message));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a connection never made keeps a request from the server.
    #[test]
    fn a_request_is_known_unsent_only_when_no_connection_was_made() {
        let refused = StoreError::transient(
            OP,
            Status::unavailable(
                "error trying to connect: tcp connect error: Connection refused (os error 111)",
            ),
        );
        assert!(never_sent(&refused));
        for after_sending in [
            Status::unknown("transport error"),
            Status::unavailable("connection reset"),
            Status::deadline_exceeded("slow"),
        ] {
            assert!(!never_sent(&StoreError::transient(OP, after_sending)));
        }
        assert!(!never_sent(&StoreError::transient(
            OP,
            "no response for 5s"
        )));
    }
}
