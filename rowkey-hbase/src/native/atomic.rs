//! Conditional writes and read-modify-writes on the native transport:
//! HBase's `checkAndMutate` (one cell checked: absent, equal, less or
//! greater; a row's sets, clears and delete applied as one `RowMutations`
//! when it holds, in the order given) and its `increment` and `append`
//! (with nonces: a retry goes only to the server that may have applied
//! the first copy, else the outcome is unknown). What HBase itself cannot
//! do (edits when the check does not hold; increments and appends in one
//! step) is [`StoreError::Unsupported`], naming the stores that can.

use super::store_error;
use hbase_native::{Check, Compare, Modify, RowMutation};
use rowkey_store::{
    Cell, CellCondition, ConditionalWrite, DeletesFirst, ModifyRule, ReadModifyWrite, Row,
    StoreError,
};

const STORE: &str = "HBaseStore on the native transport";
const ELSEWHERE: &str = "BigtableStore and MemStore";

fn unsupported(op: &'static str, what: impl Into<String>) -> StoreError {
    StoreError::Unsupported {
        op,
        store: STORE,
        what: what.into(),
        supported_by: Some(ELSEWHERE),
    }
}

/// `write` as one `checkAndMutate`, its edits at one stamp of `clock`
/// as the store's other writes are (so that they are ordered with them:
/// a record's row deleted at a stamp, then its lock taken again).
///
/// A stamp is taken before the write is sent, and two conditional writes
/// of one client can reach the server in the other order: a take of a
/// lock stamped 9 applied after a release stamped 10 holds its check and
/// writes a version the release's hides. Whoever relies on a conditional
/// write's effect being seen reads it back (the record locks do).
pub(crate) async fn check_and_write(
    client: &hbase_native::Client,
    table: &str,
    clock: &rowkey_store::WriteClock,
    write: ConditionalWrite,
) -> Result<bool, StoreError> {
    const OP: &str = "check and write";
    if !write.on_false.is_empty() {
        return Err(unsupported(
            OP,
            "apply edits when the check does not hold (HBase's checkAndMutate has no else-branch)",
        ));
    }
    let compare = match write.check.condition {
        CellCondition::Absent => Compare::Absent,
        CellCondition::Equals(v) => Compare::Equal(v),
        CellCondition::Less(v) => Compare::Less(v),
        CellCondition::Greater(v) => Compare::Greater(v),
        other => return Err(unsupported(OP, format!("check a cell for {other:?}"))),
    };
    let stamp = clock.next().max(1) as u64;
    let check = Check {
        family: write.check.family.into_bytes(),
        qualifier: write.check.qualifier,
        compare,
        as_of: None,
    };
    // HBase applies a row's deletes before its puts: the branch in that
    // shape, with the effect of its edits in order.
    let edits = DeletesFirst::of(&write.on_true);
    let mut mutation = RowMutation::put(write.key.clone()).at(stamp);
    mutation.delete_row = edits.delete_row;
    mutation.clears = edits
        .clears
        .into_iter()
        .map(|(family, qualifier)| (family.into_bytes(), qualifier))
        .collect();
    mutation.puts = edits
        .sets
        .into_iter()
        .map(|c| (c.family.into_bytes(), c.qualifier, c.value))
        .collect();
    client
        .check_and_mutate(table, check, mutation)
        .await
        .map_err(|e| store_error(OP, table, e))
}

/// `change` as one `increment` or one `append`.
pub(crate) async fn read_modify_write(
    client: &hbase_native::Client,
    table: &str,
    change: ReadModifyWrite,
) -> Result<Row, StoreError> {
    const OP: &str = "read-modify-write";
    let increments: Vec<(Vec<u8>, Vec<u8>, i64)> = change
        .rules
        .iter()
        .filter_map(|r| match r {
            ModifyRule::Increment {
                family,
                qualifier,
                by,
            } => Some((family.as_bytes().to_vec(), qualifier.clone(), *by)),
            _ => None,
        })
        .collect();
    let appends: Vec<(Vec<u8>, Vec<u8>, Vec<u8>)> = change
        .rules
        .iter()
        .filter_map(|r| match r {
            ModifyRule::Append {
                family,
                qualifier,
                bytes,
            } => Some((family.as_bytes().to_vec(), qualifier.clone(), bytes.clone())),
            _ => None,
        })
        .collect();
    // HBase keeps one value per column of an increment or append: rules on
    // one column are summed, or concatenated in order, first.
    let increments = merged(increments, |a, b| *a = a.wrapping_add(b));
    let appends = merged(appends, |a: &mut Vec<u8>, b| a.extend(b));
    let modify = match (increments.is_empty(), appends.is_empty()) {
        (false, true) => Modify::Increment(increments),
        (true, false) => Modify::Append(appends),
        _ => {
            return Err(unsupported(
                OP,
                "increment and append in one step (HBase's increment and append are two calls)",
            ))
        }
    };
    let key = change.key.clone();
    let row = client
        .read_modify_write(table, change.key, modify)
        .await
        .map_err(|e| not_a_counter(&key, &e).unwrap_or_else(|| store_error(OP, table, e)))?;
    let mut cells = Vec::with_capacity(row.cells.len());
    for c in row.cells {
        let family = String::from_utf8(c.family)
            .map_err(|_| StoreError::backend(OP, "a column family that is not UTF-8"))?;
        cells.push(Cell {
            family,
            qualifier: c.qualifier,
            value: c.value,
        });
    }
    Ok(Row::new(key, cells))
}

/// Rules on one column joined by `join`, in the order of their first.
fn merged<V>(
    rules: Vec<(Vec<u8>, Vec<u8>, V)>,
    join: impl Fn(&mut V, V),
) -> Vec<(Vec<u8>, Vec<u8>, V)> {
    let mut out: Vec<(Vec<u8>, Vec<u8>, V)> = Vec::new();
    for (family, qualifier, value) in rules {
        match out
            .iter_mut()
            .find(|(f, q, _)| *f == family && *q == qualifier)
        {
            Some((_, _, v)) => join(v, value),
            None => out.push((family, qualifier, value)),
        }
    }
    out
}

/// HBase's "Field is not a long, it's N bytes wide" as the store's error.
fn not_a_counter(key: &[u8], e: &hbase_native::Error) -> Option<StoreError> {
    let remote = e.remote()?;
    let wide = remote.message.split("it's ").nth(1)?;
    let len = wide.split_whitespace().next()?.parse().ok()?;
    // HBase names no cell: the message is the first counter it found short.
    let (family, qualifier) = remote
        .message
        .split_once("column ")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .and_then(|c| c.split_once(':'))
        .map(|(f, q)| (f.to_owned(), q.as_bytes().to_vec()))
        .unwrap_or_default();
    Some(StoreError::NotACounter {
        key: key.to_vec(),
        family,
        qualifier,
        len,
    })
}
