//! Batched point reads ([`Store::read_keys`](rowkey_store::Store::read_keys)):
//! keys sorted and deduplicated, [`GET_BATCH`] keys a call, one multi-get
//! each (Thrift 1 `getRowsWithColumns`) where a scan would open, advance
//! and close a scanner per key; each call retried after a transient
//! failure (a get changes nothing, so a retry is safe), its answer checked
//! to be rows of the keys asked for, in their order.

use super::pool::Slot;
use super::retry::with_retries;
use super::{Connection, Connector, GatewayError, Target};
use futures_util::{stream, StreamExt, TryStreamExt};
use rowkey_store::{Columns, Row, RowStream, StoreError};

/// The most keys one call carries.
pub(crate) const GET_BATCH: usize = 1000;

/// The rows of `keys` (already checked) that exist, in key order.
pub(crate) fn read_keys<C: Connector>(
    target: Target<C>,
    mut keys: Vec<Vec<u8>>,
    columns: Option<Columns>,
) -> RowStream {
    keys.sort_unstable();
    keys.dedup();
    let batches: Vec<Vec<Vec<u8>>> = keys.chunks(GET_BATCH).map(<[_]>::to_vec).collect();
    let rows = stream::iter(batches)
        .then(move |batch| get_batch(target.clone(), batch, columns.clone()))
        .map_ok(|rows| stream::iter(rows.into_iter().map(Ok)))
        .try_flatten();
    Box::pin(rows)
}

/// One call: the rows of `keys`.
async fn get_batch<C: Connector>(
    target: Target<C>,
    keys: Vec<Vec<u8>>,
    columns: Option<Columns>,
) -> Result<Vec<Row>, StoreError> {
    let table = target.table.clone();
    let retry = target.retry;
    target
        .pool
        .run(
            "read keys",
            move |slot: &mut Slot<C>| {
                with_retries(slot, &retry, |conn, _| {
                    let rows = conn.get_rows(&table, &keys, columns.as_ref())?;
                    check_answer(&keys, &rows)?;
                    Ok(rows)
                })
                .map_err(|(e, n)| e.into_store_error("read keys", &table, n))
            },
            |_, _| {},
        )
        .await?
}

/// The rows answer `keys` (sorted, distinct): each row's key is one of
/// them, in their order, none twice.
fn check_answer(keys: &[Vec<u8>], rows: &[Row]) -> Result<(), GatewayError> {
    let mut asked = keys.iter();
    for row in rows {
        if !asked.any(|k| *k == row.key) {
            return Err(GatewayError::Inconsistent(format!(
                "a multi-get of {} keys answered row \"{}\", not asked for or out of order",
                keys.len(),
                rowkey_core::KeyDisplay(&row.key)
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rowkey_store::Cell;

    fn row(key: &[u8]) -> Row {
        Row::new(key, vec![Cell::new("d", "v", "x")])
    }

    #[test]
    fn answers_are_the_keys_asked_in_order() {
        let keys = vec![b"a".to_vec(), b"b".to_vec(), b"c".to_vec()];
        assert!(check_answer(&keys, &[row(b"a"), row(b"c")]).is_ok());
        assert!(check_answer(&keys, &[]).is_ok());
        assert!(check_answer(&keys, &[row(b"c"), row(b"a")]).is_err());
        assert!(check_answer(&keys, &[row(b"a"), row(b"a")]).is_err());
        assert!(check_answer(&keys, &[row(b"x")]).is_err());
    }
}
