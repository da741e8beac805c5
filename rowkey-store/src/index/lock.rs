//! Record locks: a cell of the record's main row, set with a conditional
//! write, that serialises the updates and deletes of one record
//! ([`IndexedTable::with_record_locks`](super::IndexedTable::with_record_locks)).
//!
//! An update reads the stored record to know which index rows to remove;
//! two at once can each remove the other's old row and leave a stale one
//! behind, or one can delete a row the other has just written. Holding
//! the record's lock across the read, the writes and the deletes makes
//! them one after the other, so that after any interleaving the index
//! rows are exactly those of the record that is there.
//!
//! The lock is the cell `LOCK_QUALIFIER` of the family of the record's
//! first cell: its value is the holder's expiry (milliseconds since the
//! epoch, 8 bytes big-endian) and a token of its own. It is taken when
//! absent (HBase: absent or empty) or expired, and released with a
//! conditional clear where the store has one, else by setting it empty
//! (HBase's Thrift 1 gateway: a `checkAndPut`). Only conditional writes
//! of one cell are used, which every store here applies atomically.

use super::lock_cell::{without_lock, LOCK_QUALIFIER};
use crate::{CellCheck, CellCondition, ConditionalWrite, RowEdit, Store, StoreError, StoreExt};
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::Poll;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A lock held: where, and the value that says it is ours.
pub(crate) struct Held {
    key: Vec<u8>,
    family: String,
    value: Vec<u8>,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A value no other holder has: the expiry, then this process, a counter
/// and the time.
fn lock_value(lease: Duration) -> Vec<u8> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let expiry = now_ms().saturating_add(lease.as_millis() as u64);
    let mut v = expiry.to_be_bytes().to_vec();
    v.extend_from_slice(&std::process::id().to_be_bytes());
    v.extend_from_slice(&NEXT.fetch_add(1, Ordering::Relaxed).to_be_bytes());
    v.extend_from_slice(
        &SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .subsec_nanos()
            .to_be_bytes(),
    );
    v
}

/// Whether a lock value has expired (one that does not read as a lock
/// has: it was not written by this module).
fn expired(value: &[u8]) -> bool {
    match <[u8; 8]>::try_from(value.get(..8).unwrap_or_default()) {
        Ok(b) => u64::from_be_bytes(b) < now_ms(),
        Err(_) => true,
    }
}

/// Lets the other tasks of the executor run before the next try.
async fn yield_now() {
    let mut yielded = false;
    std::future::poll_fn(|cx| {
        if yielded {
            return Poll::Ready(());
        }
        yielded = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    })
    .await
}

/// Takes the lock of row `key` (cell `family:LOCK_QUALIFIER`), waiting
/// while another holder's has not expired; it is held for `lease`.
pub(crate) async fn acquire<S: Store>(
    main: &S,
    key: &[u8],
    family: &str,
    lease: Duration,
) -> Result<Held, StoreError> {
    loop {
        let value = lock_value(lease);
        let check = CellCheck::new(family, LOCK_QUALIFIER, CellCondition::Absent);
        let take = ConditionalWrite::new(key, check).on_true(vec![RowEdit::set(
            family,
            LOCK_QUALIFIER,
            &value,
        )]);
        if main.check_and_write(take).await? && reads_as(main, key, family, &value).await? {
            return Ok(held(key, family, value));
        }
        let row = main.read_row(key).await?;
        if let Some(old) = row.as_ref().and_then(|r| r.value(family, LOCK_QUALIFIER)) {
            if !old.is_empty() && expired(old) {
                // A holder that crashed, or took longer than its lease.
                let check =
                    CellCheck::new(family, LOCK_QUALIFIER, CellCondition::Equals(old.to_vec()));
                let steal = ConditionalWrite::new(key, check).on_true(vec![RowEdit::set(
                    family,
                    LOCK_QUALIFIER,
                    &value,
                )]);
                if main.check_and_write(steal).await? && reads_as(main, key, family, &value).await?
                {
                    return Ok(held(key, family, value));
                }
            }
        }
        yield_now().await;
    }
}

/// Whether the lock cell reads as `value` now: a take whose check held
/// can still be hidden, where versions are ordered by the writer's stamps
/// (HBase) and a release stamped later reached the server first; a take
/// nobody can see holds nothing, and is tried again.
async fn reads_as<S: Store>(
    main: &S,
    key: &[u8],
    family: &str,
    value: &[u8],
) -> Result<bool, StoreError> {
    let row = main.read_row(key).await?;
    Ok(row.as_ref().and_then(|r| r.value(family, LOCK_QUALIFIER)) == Some(value))
}

fn held(key: &[u8], family: &str, value: Vec<u8>) -> Held {
    Held {
        key: key.to_vec(),
        family: family.to_owned(),
        value,
    }
}

/// Releases a lock still ours: clears it, or where the store clears
/// nothing conditionally, sets it empty (which reads as free).
pub(crate) async fn release<S: Store>(main: &S, held: Held) -> Result<(), StoreError> {
    let ours = || {
        CellCheck::new(
            &held.family,
            LOCK_QUALIFIER,
            CellCondition::Equals(held.value.clone()),
        )
    };
    let clear = ConditionalWrite::new(held.key.clone(), ours())
        .on_true(vec![RowEdit::clear(&held.family, LOCK_QUALIFIER)]);
    match main.check_and_write(clear).await {
        Ok(_) => Ok(()),
        Err(StoreError::Unsupported { .. }) => {
            let empty = ConditionalWrite::new(held.key.clone(), ours())
                .on_true(vec![RowEdit::set(&held.family, LOCK_QUALIFIER, [])]);
            main.check_and_write(empty).await.map(|_| ())
        }
        Err(e) => Err(e),
    }
}

/// The family the lock of `record`'s row lives in: its first cell's.
fn lock_family<R: crate::Record>(record: &R) -> Result<(Vec<u8>, String), StoreError> {
    let row = crate::Row::of_record(record)?;
    let family =
        row.cells
            .first()
            .map(|c| c.family.clone())
            .ok_or_else(|| StoreError::NoCells {
                key: row.key.clone(),
            })?;
    Ok((row.key, family))
}

/// `update_record` under the record's lock.
pub(crate) async fn update_record<R: crate::Record, S: Store, I: Store>(
    main: &S,
    targets: &[super::write::Target<'_, R, I>],
    record: &R,
    lease: Duration,
) -> Result<(), StoreError> {
    let (key, family) = lock_family(record)?;
    let held = acquire(main, &key, &family, lease).await?;
    let updated = super::write::update_record(main, targets, record).await;
    let released = release(main, held).await;
    updated.and(released)
}

/// `delete_record` under the record's lock: the index rows of the
/// record as stored (and of `record`, as given) first, then the main
/// row, whose delete releases the lock.
pub(crate) async fn delete_record<R: crate::Record, S: Store, I: Store>(
    main: &S,
    targets: &[super::write::Target<'_, R, I>],
    record: &R,
    lease: Duration,
) -> Result<(), StoreError> {
    const OP: &str = "delete a record";
    let (key, family) = lock_family(record)?;
    let given = super::write::index_keys(targets, record, "delete rows")?;
    let held = acquire(main, &key, &family, lease).await?;
    let deleted = async {
        let stored = match main
            .read_record_row::<R>(&key)
            .await?
            .and_then(without_lock)
        {
            Some(row) => Some(R::from_row(&row).map_err(|source| StoreError::BadRecord {
                op: OP,
                key: row.key.clone(),
                source: source.into(),
            })?),
            None => None,
        };
        let stored_keys = match &stored {
            Some(s) => super::write::index_keys(targets, s, "delete rows")?,
            None => vec![None; targets.len()],
        };
        for (t, k) in targets.iter().zip(&given) {
            if let (Some(_), Some(k)) = (t.unique, k) {
                super::unique::check_release(t.store, k).await?;
            }
        }
        let mut deletes: Vec<super::write::Write<'_>> = Vec::new();
        for ((t, a), b) in targets.iter().zip(&given).zip(&stored_keys) {
            let mut keys: Vec<Vec<u8>> = a.iter().chain(b.iter()).cloned().collect();
            keys.dedup();
            for k in keys {
                deletes.push(super::write::delete_index_row(t, k, &key));
            }
        }
        super::write::all(deletes).await?;
        main.delete_rows(vec![key.clone()]).await
    }
    .await;
    match deleted {
        Ok(()) => Ok(()),
        // The main row is still there: so is the lock.
        Err(e) => {
            let _ = release(main, held).await;
            Err(e)
        }
    }
}
