//! The write orders of a record and its index rows, for any number of
//! index tables, sparse ones included: put, update and delete, shared by
//! [`IndexedStore`](super::IndexedStore) (one index, chosen per call) and
//! [`IndexedTable`](super::IndexedTable) (its indexes, fixed).
//!
//! The one rule behind every order: an index row is written only when a
//! reader who follows it finds either the record it indexes, or a main
//! row that does not index to it (stale, skipped), or no main row
//! (missing, skipped), never a record it wrongly claims. So a new index
//! row goes after its main row, except when it moves an existing record
//! (then the main row still holds the old record, which does not index to
//! the new row), and an old index row is deleted only after the main row
//! no longer indexes to it.

use super::index_row;
use super::key_fn::IndexKeyFn;
use crate::{Record, Row, Store, StoreError, StoreExt};
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;

/// One index table and how it keys records.
pub(crate) struct Target<'a, R, I> {
    pub store: &'a I,
    pub key: IndexKeyFn<R>,
    /// The index's name when it is unique: its rows are claimed and
    /// released with conditional writes (`unique`).
    pub unique: Option<&'static str>,
}

impl<R, I> Clone for Target<'_, R, I> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R, I> Copy for Target<'_, R, I> {}

/// A write of one table, boxed: index writes to several tables run
/// together.
pub(crate) type Write<'a> = Pin<Box<dyn Future<Output = Result<(), StoreError>> + Send + 'a>>;

/// Runs `writes` together to their end; the first error, if any.
pub(crate) async fn all(writes: Vec<Write<'_>>) -> Result<(), StoreError> {
    let mut writes: Vec<Option<Write<'_>>> = writes.into_iter().map(Some).collect();
    let mut first_error = None;
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for slot in &mut writes {
            let Some(write) = slot else { continue };
            match write.as_mut().poll(cx) {
                Poll::Pending => pending = true,
                Poll::Ready(result) => {
                    *slot = None;
                    if let Err(e) = result {
                        first_error.get_or_insert(e);
                    }
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    first_error.map_or(Ok(()), Err)
}

/// `record`'s index key in each target, each checked against its table's
/// limit, before anything is written.
pub(crate) fn index_keys<R, I: Store>(
    targets: &[Target<'_, R, I>],
    record: &R,
    op: &'static str,
) -> Result<Vec<Option<Vec<u8>>>, StoreError> {
    targets
        .iter()
        .map(|t| {
            let key = (t.key)(record)?;
            if let Some(key) = &key {
                t.store.key_limit().check(op, key)?;
            }
            Ok(key)
        })
        .collect()
}

/// Writes one index row per `(table, key)` pointing at `main_key`, all
/// tables together.
async fn write_index_rows<I: Store>(
    rows: impl IntoIterator<Item = (&I, Vec<u8>)>,
    main_key: &[u8],
) -> Result<(), StoreError> {
    let writes: Vec<Write<'_>> = rows
        .into_iter()
        .map(|(store, key)| Box::pin(store.write_rows(vec![index_row(key, main_key)])) as Write<'_>)
        .collect();
    all(writes).await
}

/// The main row, then (once it is written) the index rows pointing at it;
/// `index_keys` are already checked.
pub(crate) async fn put_rows<S: Store, I: Store>(
    main: &S,
    targets: &[&I],
    row: Row,
    index_keys: Vec<Option<Vec<u8>>>,
) -> Result<(), StoreError> {
    let main_key = row.key.clone();
    main.write_rows(vec![row]).await?;
    let rows = targets
        .iter()
        .copied()
        .zip(index_keys)
        .filter_map(|(t, k)| Some((t, k?)));
    write_index_rows(rows, &main_key).await
}

/// `put_record`: main row, then every index row the record has.
pub(crate) async fn put_record<R: Record, S: Store, I: Store>(
    main: &S,
    targets: &[Target<'_, R, I>],
    record: &R,
) -> Result<(), StoreError> {
    let row = Row::of_record(record)?;
    let mut keys = index_keys(targets, record, "write rows")?;
    claim_unique(main, targets, &mut keys, &row.key).await?;
    let stores: Vec<&I> = targets.iter().map(|t| t.store).collect();
    put_rows(main, &stores, row, keys).await
}

/// Claims the rows of unique indexes among `keys` (before the main row is
/// written: a refused record writes nothing), taking them out of `keys`.
async fn claim_unique<R: Record, S: Store, I: Store>(
    main: &S,
    targets: &[Target<'_, R, I>],
    keys: &mut [Option<Vec<u8>>],
    main_key: &[u8],
) -> Result<(), StoreError> {
    for (t, key) in targets.iter().zip(keys.iter_mut()) {
        if let (Some(name), Some(k)) = (t.unique, key.as_ref()) {
            super::unique::claim(main, t.store, t.key, name, k.clone(), main_key).await?;
            *key = None;
        }
    }
    Ok(())
}

/// Deletes index row `key` of `t`: for a unique index, only while it
/// points at `main_key`.
pub(crate) fn delete_index_row<'a, R, I: Store>(
    t: &Target<'a, R, I>,
    key: Vec<u8>,
    main_key: &'a [u8],
) -> Write<'a> {
    match t.unique {
        Some(_) => Box::pin(super::unique::release(t.store, key, main_key)),
        None => Box::pin(t.store.delete_rows(vec![key])),
    }
}

/// `update_record`: reads the stored record, then
/// (1) the index rows whose key changed, or that the record moves into
/// (a sparse index that now holds it),
/// (2) the main row,
/// (3) the index rows whose key did not change (written again, which
///     heals a put cut short), with the old rows deleted: those whose key
///     changed and those of indexes the record moves out of.
///
/// Without a stored record it is [`put_record`]. Stopped after (1), the
/// stored record is still the old one, which does not index to the new
/// rows: they are stale, and running it again finishes the move. Stopped
/// after (2), the old rows are stale and stay (their keys are no longer
/// known).
pub(crate) async fn update_record<R: Record, S: Store, I: Store>(
    main: &S,
    targets: &[Target<'_, R, I>],
    record: &R,
) -> Result<(), StoreError> {
    const OP: &str = "update a record";
    let new_row = Row::of_record(record)?;
    // The main row is checked (its key's limit, its cells) before any
    // write: step (1) writes index rows ahead of it.
    main.key_limit()
        .check_rows(std::slice::from_ref(&new_row))?;
    let main_key = new_row.key.clone();
    let new_keys = index_keys(targets, record, OP)?;
    let stored = main.read_record_row::<R>(&main_key).await?;
    let Some(row) = stored.and_then(super::lock_cell::without_lock) else {
        let stores: Vec<&I> = targets.iter().map(|t| t.store).collect();
        return put_rows(main, &stores, new_row, new_keys).await;
    };
    let stored = R::from_row(&row).map_err(|source| StoreError::BadRecord {
        op: OP,
        key: row.key.clone(),
        source: source.into(),
    })?;
    let old_keys: Vec<Option<Vec<u8>>> = targets
        .iter()
        .map(|t| (t.key)(&stored))
        .collect::<Result<_, _>>()?;

    let (mut moved, mut kept, mut gone) = (Vec::new(), Vec::new(), Vec::new());
    for ((t, new), old) in targets.iter().zip(new_keys).zip(old_keys) {
        match (new, old) {
            (Some(new), Some(old)) if new == old => kept.push((t, new)),
            (new, old) => {
                moved.extend(new.map(|k| (t, k)));
                gone.extend(old.map(|k| (t, k)));
            }
        }
    }
    for (t, key) in &gone {
        if t.unique.is_some() {
            super::unique::check_release(t.store, key).await?;
        }
    }
    // Unique rows are claimed (a record that has the key refuses this
    // one before the main row is written); the others written.
    let mut plain = Vec::new();
    for (t, key) in moved {
        match t.unique {
            Some(name) => super::unique::claim(main, t.store, t.key, name, key, &main_key).await?,
            None => plain.push((t.store, key)),
        }
    }
    write_index_rows(plain, &main_key).await?;
    main.write_rows(vec![new_row]).await?;
    let mut writes: Vec<Write<'_>> = Vec::with_capacity(kept.len() + gone.len());
    for (t, key) in kept {
        writes.push(match t.unique {
            Some(name) => Box::pin(super::unique::claim(
                main, t.store, t.key, name, key, &main_key,
            )),
            None => Box::pin(t.store.write_rows(vec![index_row(key, &main_key)])),
        });
    }
    for (t, key) in gone {
        writes.push(delete_index_row(t, key, &main_key));
    }
    all(writes).await
}

/// `delete_record`: the main row, then every index row `record` (as
/// stored) has. Stopped in between, the index rows lead nowhere (missing,
/// skipped); deleting again removes them.
pub(crate) async fn delete_record<R: Record, S: Store, I: Store>(
    main: &S,
    targets: &[Target<'_, R, I>],
    record: &R,
) -> Result<(), StoreError> {
    let main_key = crate::record::record_key_vec(record)?;
    let keys = index_keys(targets, record, "delete rows")?;
    for (t, key) in targets.iter().zip(&keys) {
        if let (Some(_), Some(key)) = (t.unique, key) {
            super::unique::check_release(t.store, key).await?;
        }
    }
    main.delete_rows(vec![main_key.clone()]).await?;
    let deletes: Vec<Write<'_>> = targets
        .iter()
        .zip(keys)
        .filter_map(|(t, k)| Some(delete_index_row(t, k?, &main_key)))
        .collect();
    all(deletes).await
}
