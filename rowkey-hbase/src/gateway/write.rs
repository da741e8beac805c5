//! Writes and deletes in batches: repeated keys merged first (the last
//! row's cells win, as in `MemStore`), so that no key is in two batches
//! and batches can go out several at a time; each batch capped in rows
//! and bytes, and retried after a transient failure.
//!
//! Every write and delete is stamped once, on the client, before its
//! first try (`rowkey_store::WriteClock`): a retry writes the very same
//! versions, and a copy the network delivers late, after the retry
//! succeeded and the client wrote again, carries the older stamp and
//! loses. Stamps strictly increase within a client, so a put after a
//! delete of this client is never hidden by it (HBase hides every
//! version at or before a delete's stamp).

use super::pool::Slot;
use super::retry::with_retries;
use super::{Connection, Connector, GatewayError, Target};
use futures_util::{StreamExt, TryStreamExt};
use rowkey_store::{Row, StoreError};

/// How writes and deletes are batched.
///
/// ```
/// use rowkey_hbase::WriteOptions;
/// let o = WriteOptions::default().batch_rows(500).in_flight(2);
/// assert_eq!((o.batch_rows, o.batch_bytes, o.in_flight), (500, 4 << 20, 2));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct WriteOptions {
    /// The most rows (or keys, for deletes) one `mutateRows` call carries.
    pub batch_rows: usize,
    /// About the most bytes of keys and cells one call carries (a single
    /// larger row goes alone).
    pub batch_bytes: usize,
    /// The most calls in flight at once.
    pub in_flight: usize,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            batch_rows: 1000,
            batch_bytes: 4 << 20,
            in_flight: 4,
        }
    }
}

impl WriteOptions {
    /// The same options with at most `n` rows a call (0 is taken as 1).
    pub fn batch_rows(mut self, n: usize) -> Self {
        self.batch_rows = n.max(1);
        self
    }

    /// The same options with about at most `n` bytes a call.
    pub fn batch_bytes(mut self, n: usize) -> Self {
        self.batch_bytes = n.max(1);
        self
    }

    /// The same options with at most `n` calls in flight (0 is taken as 1).
    pub fn in_flight(mut self, n: usize) -> Self {
        self.in_flight = n.max(1);
        self
    }
}

/// Writes `rows` (already checked against the key limit).
pub(crate) async fn write<C: Connector>(
    target: &Target<C>,
    rows: Vec<Row>,
    options: WriteOptions,
) -> Result<(), StoreError> {
    let _writing = target.epoch.writing();
    let rows = Row::merge_repeated(rows);
    let batches = batches(rows, options, Row::size);
    unpark(target);
    let stamp = target.clock.next();
    let sent = send(
        target,
        batches,
        options,
        "write rows",
        move |conn, table, batch| {
            conn.put_rows(table, batch, stamp)
                .map_err(|e| diagnose(conn, table, batch, e))
        },
    )
    .await;
    unpark(target);
    sent
}

/// Deletes the rows of `keys` (already checked), every family of each.
pub(crate) async fn delete<C: Connector>(
    target: &Target<C>,
    mut keys: Vec<Vec<u8>>,
    options: WriteOptions,
) -> Result<(), StoreError> {
    if keys.is_empty() {
        return Ok(());
    }
    let _writing = target.epoch.writing();
    keys.sort_unstable();
    keys.dedup();
    let table = target.table.clone();
    let retry = target.retry;
    let families = target
        .pool
        .run(
            "delete rows",
            move |slot: &mut Slot<C>| {
                with_retries(slot, &retry, |conn, _| conn.families(&table))
                    .map_err(|(e, n)| e.into_store_error("delete rows", &table, n))
            },
            |_, _| {},
        )
        .await??;
    let batches = batches(keys, options, Vec::len);
    unpark(target);
    let stamp = target.clock.next();
    let sent = send(
        target,
        batches,
        options,
        "delete rows",
        move |conn, table, keys| conn.delete_rows(table, keys, &families, stamp),
    )
    .await;
    unpark(target);
    sent
}

/// Drops the client's parked scanners, before and after a write: a read
/// that starts once the write has returned never goes on with a scanner
/// opened before it (see `parked`).
fn unpark<C: Connector>(target: &Target<C>) {
    super::read::unpark(&target.pool, &target.parked);
}

/// A failed write's precise cause, where the server's answer hides it: a
/// put to a missing table or family comes back from HBase's client as
/// `RetriesExhaustedWithDetailsException` ("Failed 1 action: t: 1 time"),
/// marked worth retrying, after the server's own retries. Asking for the
/// table's families tells a missing table or family from a real failure.
fn diagnose<C: Connection>(
    conn: &mut C,
    table: &str,
    rows: &[Row],
    e: GatewayError,
) -> GatewayError {
    if !matches!(e, GatewayError::Retryable(_) | GatewayError::Refused(_)) {
        return e;
    }
    match conn.families(table) {
        Err(GatewayError::NoSuchTable) => GatewayError::NoSuchTable,
        Ok(families) => rows
            .iter()
            .flat_map(|r| &r.cells)
            .find(|c| !families.contains(&c.family))
            .map_or(e, |c| GatewayError::NoSuchFamily(c.family.clone())),
        Err(_) => e,
    }
}

/// Sends each batch as one call, `options.in_flight` at a time, stopping
/// at the first that fails for good.
async fn send<C, T, F>(
    target: &Target<C>,
    batches: Vec<Vec<T>>,
    options: WriteOptions,
    op: &'static str,
    call: F,
) -> Result<(), StoreError>
where
    C: Connector,
    T: Send + Sync + 'static,
    F: Fn(&mut C::Connection, &str, &[T]) -> Result<(), GatewayError>
        + Clone
        + Send
        + Sync
        + 'static,
{
    futures_util::stream::iter(batches)
        .map(|batch| {
            let table = target.table.clone();
            let retry = target.retry;
            let call = call.clone();
            let epoch = target.epoch.clone();
            let job = target.pool.run(
                op,
                move |slot: &mut Slot<C>| {
                    // A batch runs to its end on the pool even when the
                    // write's future is gone (dropped, or failed on another
                    // batch): it moves the epoch itself, so no page goes on
                    // with rows read before it landed.
                    let _writing = epoch.writing();
                    with_retries(slot, &retry, |conn, _| call(conn, &table, &batch))
                        .map_err(|(e, n)| e.into_store_error(op, &table, n))
                },
                |_, _| {},
            );
            async move { job.await? }
        })
        .buffer_unordered(options.in_flight.max(1))
        .try_for_each(|()| std::future::ready(Ok(())))
        .await
}

/// `items` in batches of at most `options.batch_rows` items and about
/// `options.batch_bytes` bytes, in order.
fn batches<T>(items: Vec<T>, options: WriteOptions, size: impl Fn(&T) -> usize) -> Vec<Vec<T>> {
    let max_rows = options.batch_rows.max(1);
    let mut out = Vec::with_capacity(items.len() / max_rows + 1);
    let mut batch = Vec::new();
    let mut bytes = 0;
    for item in items {
        let n = size(&item);
        if !batch.is_empty() && (batch.len() >= max_rows || bytes + n > options.batch_bytes) {
            out.push(std::mem::take(&mut batch));
            bytes = 0;
        }
        bytes += n;
        batch.push(item);
    }
    if !batch.is_empty() {
        out.push(batch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_respect_rows_and_bytes() {
        let options = WriteOptions::default().batch_rows(3).batch_bytes(10);
        let items: Vec<Vec<u8>> = (0..7)
            .map(|i| vec![0; if i == 3 { 25 } else { 2 }])
            .collect();
        let sizes: Vec<Vec<usize>> = batches(items, options, Vec::len)
            .iter()
            .map(|b| b.iter().map(Vec::len).collect())
            .collect();
        assert_eq!(sizes, [vec![2, 2, 2], vec![25], vec![2, 2, 2]]);
    }
}
