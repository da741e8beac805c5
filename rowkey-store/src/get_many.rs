//! [`StoreExt::get_many`](crate::StoreExt::get_many): the rows of many
//! typed keys by batched point reads ([`Store::read_keys`]), in the keys'
//! order.

use crate::{Columns, Row, Store, StoreError};
use std::collections::HashMap;

/// The most keys one [`Store::read_keys`] call of
/// [`get_many`](crate::StoreExt::get_many) carries: one multi-get each
/// (HBase `getRowsWithColumns`, one Bigtable `ReadRows`).
pub const GET_MANY_BATCH: usize = 1000;

/// The rows of `keys` (encoded), in their order, `None` where no row is.
pub(crate) async fn get_many<S: Store>(
    store: S,
    keys: Vec<Vec<u8>>,
    columns: Option<Columns>,
) -> Result<Vec<Option<Row>>, StoreError> {
    let mut found: HashMap<Vec<u8>, Row> = HashMap::with_capacity(keys.len());
    for batch in keys.chunks(GET_MANY_BATCH) {
        let mut rows = store.read_keys(batch.to_vec(), columns.clone());
        while let Some(row) = std::future::poll_fn(|cx| rows.as_mut().poll_next(cx)).await {
            let row = row?;
            found.insert(row.key.clone(), row);
        }
    }
    // A key asked for twice gets its row twice: the last takes it.
    let mut left: HashMap<&[u8], usize> = HashMap::new();
    for k in &keys {
        *left.entry(k.as_slice()).or_default() += 1;
    }
    Ok(keys
        .iter()
        .map(|k| {
            let n = left.get_mut(k.as_slice()).expect("counted");
            *n -= 1;
            if *n == 0 {
                found.remove(k)
            } else {
                found.get(k).cloned()
            }
        })
        .collect())
}
