//! The re-key loop: a batch of source rows read after the checkpoint,
//! mapped, written (new rows, then index rows, then, in place, the old
//! rows deleted), then the checkpoint saved. Every step is idempotent, so
//! a batch cut short by a crash is done again whole on resume.

use super::{Checkpoint, RekeyCheckpoint, RekeyError, RekeyMapping};
use crate::index::index_row;
use crate::{KeyRange, ReadRequest, Row, Store};
use std::collections::HashSet;

/// What one run does.
pub(super) struct Run<'a> {
    pub mapping: &'a dyn RekeyMapping,
    pub batch: usize,
    pub dry_run: bool,
    pub in_place: bool,
}

/// The first key after `key`.
pub(super) fn after(key: &[u8]) -> Vec<u8> {
    let mut next = key.to_vec();
    next.push(0);
    next
}

/// One batch of source rows after `last` (all from the start for `None`).
pub(super) async fn read_batch<S: Store>(
    source: &S,
    last: Option<&[u8]>,
    n: usize,
) -> Result<Vec<Row>, RekeyError> {
    let start = last.map_or_else(Vec::new, after);
    let request = ReadRequest::new([KeyRange::new(start, None)]).with_limit(n as u64);
    let mut rows = source.read_rows(request);
    let mut out = Vec::with_capacity(n);
    while let Some(row) = std::future::poll_fn(|cx| rows.as_mut().poll_next(cx)).await {
        out.push(row?);
    }
    Ok(out)
}

impl Run<'_> {
    pub(super) async fn go<S: Store, T: Store, I: Store>(
        &self,
        source: &S,
        target: &T,
        index: Option<&I>,
        checkpoint: &dyn Checkpoint,
        progress: &mut (dyn FnMut(&RekeyCheckpoint) + Send),
    ) -> Result<RekeyCheckpoint, RekeyError> {
        let mut state = match self.dry_run {
            true => RekeyCheckpoint::default(),
            false => checkpoint
                .load()
                .map_err(RekeyError::Checkpoint)?
                .unwrap_or_default(),
        };
        while !state.done {
            let rows = read_batch(source, state.last_key.as_deref(), self.batch.max(1)).await?;
            let Some(last) = rows.last() else {
                state.done = true;
                self.save(checkpoint, &state)?;
                break;
            };
            let last = last.key.clone();
            let mut next = state.clone();
            let (new_rows, index_rows, old_keys) =
                self.map_batch(&rows, index.is_some(), &mut next)?;
            if !self.dry_run {
                // New rows first: a crash leaves old rows to redo, never
                // an index row or a deletion before its new row.
                if !new_rows.is_empty() {
                    target.write_rows(new_rows).await?;
                }
                if let (Some(index), false) = (index, index_rows.is_empty()) {
                    index.write_rows(index_rows).await?;
                }
                if self.in_place && !old_keys.is_empty() {
                    source.delete_rows(old_keys).await?;
                }
            }
            next.read += rows.len() as u64;
            next.last_key = Some(last);
            self.save(checkpoint, &next)?;
            state = next;
            progress(&state);
        }
        Ok(state)
    }

    fn save(&self, checkpoint: &dyn Checkpoint, state: &RekeyCheckpoint) -> Result<(), RekeyError> {
        match self.dry_run {
            true => Ok(()),
            false => checkpoint.save(state).map_err(RekeyError::Checkpoint),
        }
    }

    /// The batch's new rows, index rows and old keys to delete (in place),
    /// counting into `state`.
    #[allow(clippy::type_complexity)]
    fn map_batch(
        &self,
        rows: &[Row],
        indexed: bool,
        state: &mut RekeyCheckpoint,
    ) -> Result<(Vec<Row>, Vec<Row>, Vec<Vec<u8>>), RekeyError> {
        let (mut new_rows, mut index_rows, mut old_keys) = (Vec::new(), Vec::new(), Vec::new());
        let mut seen = HashSet::new();
        for row in rows {
            if !self.mapping.is_old(&row.key) {
                state.not_old += 1;
                continue;
            }
            let map_error = |why: String| RekeyError::Map {
                key: row.key.clone(),
                why,
            };
            let Some(new) = self.mapping.map(row).map_err(map_error)? else {
                state.dropped += 1;
                // In place, a dropped row goes; in a new table it is not written.
                if self.in_place {
                    old_keys.push(row.key.clone());
                }
                continue;
            };
            if self.in_place && (new.key == row.key || self.mapping.is_old(&new.key)) {
                // A new row the old layout also reads would be re-keyed
                // again when the scan reaches it.
                return Err(RekeyError::Ambiguous {
                    old: row.key.clone(),
                    new: new.key,
                });
            }
            if !seen.insert(new.key.clone()) {
                return Err(RekeyError::Collision { key: new.key });
            }
            if indexed {
                if let Some(k) = self.mapping.index_key(&new.key).map_err(map_error)? {
                    index_rows.push(index_row(k, &new.key));
                }
            }
            if self.in_place {
                old_keys.push(row.key.clone());
            }
            new_rows.push(new);
        }
        state.written += new_rows.len() as u64;
        state.indexed += index_rows.len() as u64;
        Ok((new_rows, index_rows, old_keys))
    }
}
