//! [`with_retries`]: a call on a pooled connection, made again on a new
//! connection after a transient failure, as the [`RetryPolicy`] says.

use super::pool::{ConnectionId, Slot};
use super::{Connection, Connector, GatewayError};
use rowkey_store::RetryPolicy;

/// Calls `call` until it succeeds, fails for good, or has been tried
/// `policy.attempts` times, sleeping the policy's backoff between tries
/// (on the connection's own thread: no async runtime is held up). A
/// connection that failed is dropped before the next try. The error comes
/// with the number of attempts made.
pub(crate) fn with_retries<C, R>(
    slot: &mut Slot<C>,
    policy: &RetryPolicy,
    mut call: impl FnMut(&mut C::Connection, ConnectionId) -> Result<R, GatewayError>,
) -> Result<R, (GatewayError, u32)>
where
    C: Connector,
{
    let mut attempt = 1;
    slot.wait_at_most(policy.idle_timeout);
    loop {
        let result = slot.connection_with_id().and_then(|(conn, id)| {
            conn.set_idle_timeout(policy.idle_timeout)?;
            call(conn, id)
        });
        match result {
            Ok(r) => return Ok(r),
            Err(e) => {
                if e.breaks_connection() {
                    slot.discard();
                }
                if !e.is_transient() || attempt >= policy.attempts {
                    return Err((e, attempt));
                }
                std::thread::sleep(policy.backoff(attempt));
                attempt += 1;
            }
        }
    }
}
