//! Calls that must not be applied twice (a conditional mutation, an
//! increment, an append): where a retry may go, and when the outcome is
//! [`Error::OutcomeUnknown`].
//!
//! A call "may have run" once its request went out whole and no answer
//! came (the connection broke, the call timed out), an answer came that
//! cannot be read, or the server answered that it timed out waiting for
//! its write-ahead log (the edit may be logged). Before that, any failure
//! is safe to retry anywhere.
//! After it:
//! - a conditional mutation is never sent again ([`Resend::Never`]): its
//!   check would be made a second time, against its own write;
//! - a call with a nonce is sent again only to the same region server
//!   process ([`Resend::SameServer`]). A region server keeps the nonces
//!   of what it ran in its memory, for every region it serves, and answers
//!   a repeat without running it again. Another server knows a nonce only
//!   from replaying the dead one's write-ahead log; a region moved in
//!   order (the balancer, an operator, a server stopping) is flushed and
//!   reopened with no log to replay, so a retry there would run again.
//!   The client cannot tell a crash from an orderly move, so a call that
//!   may have run and whose region is now elsewhere (or whose server
//!   restarted) is `OutcomeUnknown`.
//!
//! Every other failure after a call may have run, retries used up
//! included, is `OutcomeUnknown` too: never a transient error, which a
//! caller would retry into a second apply.

use crate::cluster::Cluster;
use crate::connection::{CallFailure, Connection};
use crate::error::{Error, Result};
use crate::options::CallPolicy;
use crate::regions::Region;
use crate::servers::CLIENT_SERVICE;
use std::future::Future;

/// Where a call that may have run may be sent again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Resend {
    /// Nowhere.
    Never,
    /// To the same region server process (the call carries a nonce).
    SameServer,
}

/// Sends `call` to the region of `table` holding `row` until it is
/// answered, retrying as `policy` says and as `resend` allows.
pub(crate) async fn send_to_row<T, F, Fut>(
    cluster: &Cluster,
    policy: &CallPolicy,
    table: &str,
    row: &[u8],
    resend: Resend,
    mut call: F,
) -> Result<T>
where
    F: FnMut(Region, Connection) -> Fut,
    Fut: Future<Output = std::result::Result<T, CallFailure>>,
{
    // The server process a copy that may have run went to, and why it
    // may have.
    let mut ran_on: Option<((String, u64), Error)> = None;
    let mut tries = 0;
    loop {
        tries += 1;
        let failure = match attempt(cluster, table, row, &ran_on, &mut call).await {
            Ok(value) => return Ok(value),
            Err(Attempt::Moved(region)) => {
                let ((server, _), first) =
                    ran_on.expect("only a copy that may have run pins a server");
                return Err(Error::OutcomeUnknown {
                    last: Box::new(Error::RegionsInTransition {
                        table: table.to_owned(),
                        why: format!(
                            "the call may have run on {server} ({first}); its region {} is \
                             now on {} (or its server restarted), where a retry could run it \
                             again",
                            region.display_name(),
                            region.server,
                        ),
                    }),
                });
            }
            Err(Attempt::Failed(failure, server)) => (failure, server),
        };
        let (
            CallFailure {
                error,
                may_have_run,
            },
            server,
        ) = failure;
        let may_have_run = may_have_run || logged_then_timed_out(&error);
        if may_have_run {
            if resend == Resend::Never {
                cluster.forget(Some(table), &error);
                return Err(Error::OutcomeUnknown {
                    last: Box::new(error),
                });
            }
            if ran_on.is_none() {
                ran_on = server.map(|s| (s, error.clone()));
            }
        }
        let unknown = |last: Error| match &ran_on {
            Some(_) => Error::OutcomeUnknown {
                last: Box::new(last),
            },
            None => last,
        };
        if !error.is_retryable() {
            return Err(unknown(error));
        }
        cluster.forget(Some(table), &error);
        match policy.retry_after(tries, error) {
            Ok(pause) => tokio::time::sleep(pause).await,
            Err(e) => return Err(unknown(e)),
        }
    }
}

/// An answer that says the server gave up waiting for its write-ahead
/// log: the edit may be in the log already, and come back when the log
/// is replayed, though the call failed.
fn logged_then_timed_out(error: &Error) -> bool {
    error.remote().is_some_and(|r| {
        matches!(
            r.simple_class(),
            "TimeoutIOException" | "WALSyncTimeoutIOException"
        )
    })
}

/// Why one attempt did not get an answer.
enum Attempt {
    /// The call failed (on this server process, if it got that far).
    Failed(CallFailure, Option<(String, u64)>),
    /// The region is no longer on the server a copy may have run on.
    Moved(Region),
}

async fn attempt<T, F, Fut>(
    cluster: &Cluster,
    table: &str,
    row: &[u8],
    ran_on: &Option<((String, u64), Error)>,
    call: &mut F,
) -> std::result::Result<T, Attempt>
where
    F: FnMut(Region, Connection) -> Fut,
    Fut: Future<Output = std::result::Result<T, CallFailure>>,
{
    let not_run = |error: Error| {
        Attempt::Failed(
            CallFailure {
                error,
                may_have_run: false,
            },
            None,
        )
    };
    let regions = cluster.regions(table).await.map_err(not_run)?;
    let region = Region::clone(regions.containing(row));
    let process = (region.server.clone(), region.server_start);
    if let Some((pinned, _)) = ran_on {
        if *pinned != process {
            return Err(Attempt::Moved(region));
        }
    }
    let connection = cluster
        .connection(&region.server, CLIENT_SERVICE)
        .await
        .map_err(not_run)?;
    call(region, connection)
        .await
        .map_err(|f| Attempt::Failed(f, Some(process)))
}

/// An answer that cannot be read: the call may have run.
pub(crate) fn unreadable(error: Error) -> CallFailure {
    CallFailure {
        may_have_run: true,
        error,
    }
}

/// An answer that says the call did not run (an exception).
pub(crate) fn refused(error: Error) -> CallFailure {
    CallFailure {
        may_have_run: false,
        error,
    }
}
