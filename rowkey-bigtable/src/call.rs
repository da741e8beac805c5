//! One operation's calls: the headers every request carries, the routing
//! cookies the server handed back, the operation's deadline, and the wait
//! before each retry.
//!
//! An operation (a read, one batch of a write, a `MutateRow`, a
//! `SampleRowKeys`) may take several attempts. Every attempt carries the
//! routing headers (`x-goog-request-params`: the table and app profile;
//! `bigtable-features`: what this client honours) and the routing cookies
//! the server set on an earlier attempt of the same operation (trailers
//! or headers named `x-goog-cbt-cookie*`: the newest value of each name
//! is sent back, an attempt without one keeps the older). A retry waits
//! the delay the server asked for (`RetryInfo`), or else the policy's
//! exponential backoff; no attempt starts, and none runs, past the
//! operation's deadline (the store's operation timeout), and each tells
//! the server how long it has left (`grpc-timeout`).

use crate::status::{retry_delay, status_of};
use crate::target::Target;
use rowkey_store::{RetryPolicy, StoreError};
use std::future::Future;
use std::time::Duration;
use tokio::time::Instant;
use tonic::metadata::{AsciiMetadataKey, AsciiMetadataValue, KeyAndValueRef, MetadataMap};
use tonic::{Code, Status};

/// The prefix of the metadata keys that carry routing cookies.
const COOKIE_PREFIX: &str = "x-goog-cbt-cookie";

/// The state of one operation over its attempts.
#[derive(Debug)]
pub(crate) struct Call {
    op: &'static str,
    retry: RetryPolicy,
    timeout: Option<Duration>,
    deadline: Option<Instant>,
    cookies: Vec<(AsciiMetadataKey, AsciiMetadataValue)>,
    /// Failed attempts since the last one that made progress.
    failures: u32,
}

impl Call {
    /// An operation `op` on `target`, starting now.
    pub(crate) fn start(target: &Target, op: &'static str) -> Call {
        Call {
            op,
            retry: target.retry,
            timeout: target.timeout,
            deadline: target.timeout.map(|t| Instant::now() + t),
            cookies: Vec::new(),
            failures: 0,
        }
    }

    /// A request of this operation: the routing headers, the cookies
    /// kept so far, the time left.
    pub(crate) fn request<T>(&self, target: &Target, message: T) -> tonic::Request<T> {
        let mut request = target.request(message);
        let metadata = request.metadata_mut();
        for (key, value) in &self.cookies {
            metadata.insert(key.clone(), value.clone());
        }
        if let Some(left) = self.left() {
            request.set_timeout(left);
        }
        request
    }

    /// Keeps the routing cookies among `metadata` (a response's headers,
    /// or a failed call's trailers).
    pub(crate) fn keep_cookies(&mut self, metadata: &MetadataMap) {
        for entry in metadata.iter() {
            let KeyAndValueRef::Ascii(key, value) = entry else {
                continue;
            };
            if !key.as_str().starts_with(COOKIE_PREFIX) {
                continue;
            }
            match self.cookies.iter_mut().find(|(k, _)| k == key) {
                Some(kept) => kept.1 = value.clone(),
                None => self.cookies.push((key.clone(), value.clone())),
            }
        }
    }

    /// The time left before the deadline (zero once it has passed).
    fn left(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Whether the operation's deadline has passed (a call cut by its
    /// `grpc-timeout` fails CANCELLED in tonic, not DEADLINE_EXCEEDED).
    pub(crate) fn past_deadline(&self) -> bool {
        self.left().is_some_and(|l| l.is_zero())
    }

    /// The error of an operation whose deadline passed: DEADLINE_EXCEEDED,
    /// not retried.
    pub(crate) fn expired(&self) -> StoreError {
        let timeout = self.timeout.unwrap_or_default();
        StoreError::backend(
            self.op,
            Status::deadline_exceeded(format!(
                "the operation did not finish within its timeout of {timeout:?}"
            )),
        )
        .after_attempts(self.failures + 1)
    }

    /// `step`, given at most `idle` (a silent server is a transient
    /// failure) and no more than the time left (after which the operation
    /// fails with DEADLINE_EXCEEDED).
    pub(crate) async fn within<F: Future>(
        &self,
        idle: Duration,
        what: &str,
        step: F,
    ) -> Result<F::Output, StoreError> {
        let left = self.left();
        let limit = left.map_or(idle, |l| l.min(idle));
        match tokio::time::timeout(limit, step).await {
            Ok(out) => Ok(out),
            Err(_) if left.is_some_and(|l| l <= idle) => Err(self.expired()),
            Err(_) => Err(StoreError::transient(
                self.op,
                format!("{what}: no response for {idle:?}"),
            )),
        }
    }

    /// An attempt made progress: a later failure starts a fresh count.
    pub(crate) fn progress(&mut self) {
        self.failures = 0;
    }

    /// After a failed attempt: `Ok` once the wait before the next attempt
    /// is over, or the error to return (not transient, out of attempts,
    /// or the next attempt would start past the deadline).
    pub(crate) async fn retry_after(&mut self, e: StoreError) -> Result<(), StoreError> {
        self.failures += 1;
        if let Some(status) = status_of(&e) {
            self.keep_cookies(status.metadata());
        }
        if !e.is_transient() || self.failures >= self.retry.attempts {
            return Err(e.after_attempts(self.failures));
        }
        let wait = status_of(&e)
            .and_then(retry_delay)
            .unwrap_or_else(|| self.retry.backoff(self.failures));
        if self.left().is_some_and(|l| l <= wait) {
            // No time for another attempt: the last error says why it
            // failed, the deadline why it was not retried.
            return Err(match status_of(&e).map(Status::code) {
                Some(Code::DeadlineExceeded) => e.after_attempts(self.failures),
                _ => StoreError::backend(
                    self.op,
                    Status::deadline_exceeded(format!(
                        "the operation's timeout of {:?} leaves no time to retry after {wait:?}; \
                         the last attempt failed: {}",
                        self.timeout.unwrap_or_default(),
                        chain(&e)
                    )),
                )
                .after_attempts(self.failures),
            });
        }
        tokio::time::sleep(wait).await;
        Ok(())
    }
}

/// `e` and its sources, `: `-separated.
pub(crate) fn chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        out.push_str(": ");
        out.push_str(&s.to_string());
        source = s.source();
    }
    out
}
