//! Unique indexes: an index row is *claimed* for its record with a
//! conditional write (set where absent), so that two records with one
//! index key cannot both have it; the second is refused with both named
//! ([`StoreError::DuplicateIndexKey`]). A row of a record that no longer
//! indexes to it (stale) is taken over; a row whose record is not stored
//! (a put cut short, or one in progress) holds its key until that record
//! is put again or deleted. A claimed row is deleted only while it still
//! points at its record (a conditional delete), so a record that moves
//! off a key never deletes the row another record has claimed since.
//!
//! Every step is a conditional write of one index row; a store that
//! cannot delete conditionally (HBase's Thrift 1 gateway) refuses writes
//! that remove a unique index row with its [`StoreError::Unsupported`].

use super::key_fn::IndexKeyFn;
use super::lock_cell::without_lock;
use super::{INDEX_FAMILY, INDEX_QUALIFIER};
use crate::{
    CellCheck, CellCondition, ConditionalWrite, Record, RowEdit, Store, StoreError, StoreExt,
};

/// Claims index row `key` of unique index `name` (in `index`) for the
/// record at `main_key`.
pub(crate) async fn claim<R: Record, S: Store, I: Store>(
    main: &S,
    index: &I,
    key_fn: IndexKeyFn<R>,
    name: &'static str,
    key: Vec<u8>,
    main_key: &[u8],
) -> Result<(), StoreError> {
    let point = || vec![RowEdit::set(INDEX_FAMILY, INDEX_QUALIFIER, main_key)];
    loop {
        let absent = CellCheck::new(INDEX_FAMILY, INDEX_QUALIFIER, CellCondition::Absent);
        let take = ConditionalWrite::new(key.clone(), absent).on_true(point());
        if index.check_and_write(take).await? {
            return Ok(());
        }
        let Some(row) = index.read_row(&key).await? else {
            continue; // deleted meanwhile: claim it again
        };
        let other = row
            .value(INDEX_FAMILY, INDEX_QUALIFIER)
            .ok_or_else(|| StoreError::NotAnIndexRow { key: key.clone() })?
            .to_vec();
        if other == main_key {
            return Ok(());
        }
        let stored = main
            .read_record_row::<R>(&other)
            .await?
            .and_then(without_lock);
        let still = match stored {
            // Not stored (yet): it holds the key.
            None => true,
            Some(row) => match R::from_row(&row) {
                Ok(record) => key_fn(&record)?.as_deref() == Some(&key[..]),
                Err(_) => true,
            },
        };
        if still {
            return Err(StoreError::DuplicateIndexKey {
                index: name,
                key,
                existing: other,
                refused: main_key.to_vec(),
            });
        }
        // Stale: taken over if it still points where it did.
        let same = CellCheck::new(INDEX_FAMILY, INDEX_QUALIFIER, CellCondition::Equals(other));
        let take = ConditionalWrite::new(key.clone(), same).on_true(point());
        if index.check_and_write(take).await? {
            return Ok(());
        }
    }
}

/// Deletes index row `key` if it still points at `main_key`.
pub(crate) async fn release<I: Store>(
    index: &I,
    key: Vec<u8>,
    main_key: &[u8],
) -> Result<(), StoreError> {
    let ours = CellCheck::new(
        INDEX_FAMILY,
        INDEX_QUALIFIER,
        CellCondition::Equals(main_key.to_vec()),
    );
    let delete = ConditionalWrite::new(key, ours).on_true(vec![RowEdit::DeleteRow]);
    index.check_and_write(delete).await.map(|_| ())
}

/// Refuses, before anything is written, a write that would delete a
/// unique index row on a store that cannot delete conditionally (its
/// `Unsupported`): one conditional delete of `key` whose check cannot
/// hold (no main key is this value), which changes nothing.
pub(crate) async fn check_release<I: Store>(index: &I, key: &[u8]) -> Result<(), StoreError> {
    let never = CellCheck::new(
        INDEX_FAMILY,
        INDEX_QUALIFIER,
        CellCondition::Equals(b"\xff\x00rowkey: no main key".to_vec()),
    );
    let probe = ConditionalWrite::new(key, never).on_true(vec![RowEdit::DeleteRow]);
    index.check_and_write(probe).await.map(|_| ())
}
