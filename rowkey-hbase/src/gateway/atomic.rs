//! Conditional writes and read-modify-writes through a gateway, as far as
//! its calls apply them atomically, and never further: HBase's Thrift 1
//! server has `checkAndPut` (one cell set when one cell is equal to a
//! value, or absent or empty; no else-branch, no delete),
//! `atomicIncrement` (one counter, its new count) and `append` (cells of
//! one row, their new values). Anything else is
//! [`StoreError::Unsupported`], naming the transport that can.
//!
//! None of these calls is idempotent, and Thrift 1 takes no nonce: a call
//! is sent once. A failure to connect (nothing sent) is retried as the
//! policy says; a failure after the request may have left is
//! [`StoreError::OutcomeUnknown`].

use super::pool::Slot;
use super::{Connection, Connector, GatewayError, Target};
use rowkey_store::{
    Cell, CellCondition, ConditionalWrite, ModifyRule, ReadModifyWrite, Row, RowEdit, StoreError,
};

/// The store and transport named in refusals.
const THRIFT1: &str = "HBaseStore over HBase's Thrift 1 gateway";
/// The transport that can do what Thrift 1 cannot.
const NATIVE: &str = "the native HBase transport (zk://)";

fn unsupported(op: &'static str, what: impl Into<String>) -> StoreError {
    StoreError::Unsupported {
        op,
        store: THRIFT1,
        what: what.into(),
        supported_by: Some(NATIVE),
    }
}

/// `write` as one `checkAndPut`: a condition of absent or equal, and one
/// cell set when it holds.
pub(crate) async fn check_and_write<C: Connector>(
    target: &Target<C>,
    write: ConditionalWrite,
) -> Result<bool, StoreError> {
    const OP: &str = "check and write";
    let expected = match &write.check.condition {
        CellCondition::Absent => Vec::new(),
        CellCondition::Equals(v) => v.clone(),
        other => {
            return Err(unsupported(
                OP,
                format!("check a cell for {other:?} (checkAndPut checks for equal or absent only)"),
            ))
        }
    };
    if !write.on_false.is_empty() {
        return Err(unsupported(
            OP,
            "apply edits when the check does not hold (checkAndPut has no else-branch)",
        ));
    }
    let put = match write.on_true.as_slice() {
        [RowEdit::Set(cell)] => cell.clone(),
        edits => {
            return Err(unsupported(
                OP,
                format!(
                    "apply {} edits when the check holds (checkAndPut sets exactly one cell, \
                     and neither clears nor deletes)",
                    if edits.iter().all(|e| matches!(e, RowEdit::Set(_))) {
                        edits.len().to_string()
                    } else {
                        "clearing or deleting".to_owned()
                    }
                ),
            ))
        }
    };
    let check = write.check;
    once(target, OP, move |conn, table| {
        let checked = (check.family.as_str(), check.qualifier.as_slice());
        conn.check_and_put(table, &write.key, checked, &expected, &put)
    })
    .await
}

/// `change` as one `atomicIncrement` (one counter) or one `append` (any
/// distinct cells, appends only).
pub(crate) async fn read_modify_write<C: Connector>(
    target: &Target<C>,
    change: ReadModifyWrite,
) -> Result<Row, StoreError> {
    const OP: &str = "read-modify-write";
    let key = change.key;
    match change.rules.as_slice() {
        [ModifyRule::Increment {
            family,
            qualifier,
            by,
        }] => {
            let (family, qualifier, by) = (family.clone(), qualifier.clone(), *by);
            let (f, q, k) = (family.clone(), qualifier.clone(), key.clone());
            let n = once(target, OP, move |conn, table| {
                conn.increment(table, &k, (&f, &q), by)
            })
            .await?;
            Ok(Row::new(
                key,
                vec![Cell::new(family, qualifier, n.to_be_bytes())],
            ))
        }
        rules if rules.iter().all(|r| matches!(r, ModifyRule::Append { .. })) => {
            let cells: Vec<Cell> = rules
                .iter()
                .filter_map(|r| match r {
                    ModifyRule::Append {
                        family,
                        qualifier,
                        bytes,
                    } => Some(Cell::new(family, qualifier, bytes)),
                    _ => None,
                })
                .collect();
            let repeated = cells.iter().enumerate().any(|(i, c)| {
                cells[..i]
                    .iter()
                    .any(|o| o.family == c.family && o.qualifier == c.qualifier)
            });
            if repeated {
                return Err(unsupported(
                    OP,
                    "append to one cell twice in one call (HBase computes every append of a \
                     call from the values before it)",
                ));
            }
            let k = key.clone();
            let sent = cells.clone();
            let values = once(target, OP, move |conn, table| conn.append(table, &k, &sent)).await?;
            let cells = cells
                .into_iter()
                .zip(values)
                .map(|(c, v)| Cell::new(c.family, c.qualifier, v))
                .collect();
            Ok(Row::new(key, cells))
        }
        _ => Err(unsupported(
            OP,
            "apply more than one increment, or increments and appends, in one step \
             (atomicIncrement increments one counter; Thrift 1's increment returns nothing)",
        )),
    }
}

/// `call` on a pooled connection, sent once: retried only while the
/// connection could not be opened (nothing was sent).
async fn once<C, R, F>(target: &Target<C>, op: &'static str, call: F) -> Result<R, StoreError>
where
    C: Connector,
    R: Send + 'static,
    F: FnOnce(&mut C::Connection, &str) -> Result<R, GatewayError> + Send + 'static,
{
    let _writing = target.epoch.writing();
    super::read::unpark(&target.pool, &target.parked);
    let table = target.table.clone();
    let retry = target.retry;
    let epoch = target.epoch.clone();
    let result = target
        .pool
        .run(
            op,
            move |slot: &mut Slot<C>| {
                // It runs to its end on the pool even when the future is
                // dropped: it moves the epoch itself.
                let _writing = epoch.writing();
                slot.wait_at_most(retry.idle_timeout);
                let mut attempt = 1;
                let conn = loop {
                    match slot.connection() {
                        Ok(conn) => break conn,
                        Err(e) if e.is_transient() && attempt < retry.attempts => {
                            slot.discard();
                            std::thread::sleep(retry.backoff(attempt));
                            attempt += 1;
                        }
                        Err(e) => return Err(e.into_store_error(op, &table, attempt)),
                    }
                };
                let sent = conn
                    .set_idle_timeout(retry.idle_timeout)
                    .and_then(|()| call(conn, &table));
                sent.map_err(|e| {
                    if e.breaks_connection() {
                        slot.discard();
                    }
                    match e {
                        // It may have been applied: never sent again.
                        GatewayError::Transport(source) => StoreError::OutcomeUnknown {
                            op,
                            attempts: attempt,
                            source,
                        },
                        GatewayError::Retryable(m) => StoreError::OutcomeUnknown {
                            op,
                            attempts: attempt,
                            source: m.into(),
                        },
                        e => permanent(e.into_store_error(op, &table, attempt)),
                    }
                })
            },
            |_, _| {},
        )
        .await;
    super::read::unpark(&target.pool, &target.parked);
    result?
}

/// `e`, not to be retried by a caller either.
fn permanent(mut e: StoreError) -> StoreError {
    if let StoreError::Backend { transient, .. } = &mut e {
        *transient = false;
    }
    e
}
