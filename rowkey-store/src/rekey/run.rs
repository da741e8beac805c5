//! The re-key loop: a batch of source rows read after the checkpoint,
//! mapped, checked against the target, written (new rows, then index
//! rows, then, in place, the old rows deleted), then the checkpoint saved.
//! Every step is idempotent, so a batch cut short by a crash is done again
//! whole on resume.
//!
//! A new key may come from one old row only. Within a batch the mapping's
//! keys are compared; across batches (and across a resume) the target is
//! read for the batch's new keys before they are written: a key it holds
//! already would merge two rows into one. The one exception is the batch
//! a stopped run was writing (the checkpoint's `writing`): a row of the
//! target there equal in every cell to the one about to be written is that
//! run's own write.

use super::{Checkpoint, RekeyCheckpoint, RekeyError, RekeyMapping};
use crate::index::index_row;
use crate::{Cell, KeyRange, ReadRequest, Row, Store};
use std::collections::{BTreeMap, HashMap};

/// The key of a new row's row in one index table (`None`: no row, as a
/// sparse index leaves some records out); an `Err` stops the re-key.
pub(super) type IndexKeyOf<'a> =
    Box<dyn Fn(&Row) -> Result<Option<Vec<u8>>, String> + Send + Sync + 'a>;

/// One index table a re-key rebuilds: its store, and each new row's key
/// in it (from the new key alone, or from the record with its cells).
pub(super) struct IndexSink<'a, I> {
    pub store: &'a I,
    pub key: IndexKeyOf<'a>,
}

/// What one run does.
pub(super) struct Run<'a> {
    pub mapping: &'a dyn RekeyMapping,
    pub batch: usize,
    pub dry_run: bool,
    pub in_place: bool,
}

/// An old row's key and the new row it maps to.
struct Move {
    old: Vec<u8>,
    new: Row,
}

/// A batch mapped: the rows to write, each index table's rows, the old
/// keys to delete (in place).
#[derive(Default)]
struct Mapped {
    moves: Vec<Move>,
    index_rows: Vec<Vec<Row>>,
    old_keys: Vec<Vec<u8>>,
    /// The first move whose new key an earlier move of the batch has,
    /// and that move's old key.
    collision: Option<(usize, Vec<u8>)>,
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
    read_all(
        source,
        ReadRequest::new([KeyRange::new(start, None)]).with_limit(n as u64),
    )
    .await
}

async fn read_all<S: Store>(source: &S, request: ReadRequest) -> Result<Vec<Row>, RekeyError> {
    let mut rows = source.read_rows(request);
    let mut out = Vec::new();
    while let Some(row) = std::future::poll_fn(|cx| rows.as_mut().poll_next(cx)).await {
        out.push(row?);
    }
    Ok(out)
}

/// A row's cells by column, as a write leaves them (a repeated column:
/// the later cell).
fn by_column(cells: &[Cell]) -> BTreeMap<(&str, &[u8]), &[u8]> {
    cells
        .iter()
        .map(|c| {
            (
                (c.family.as_str(), c.qualifier.as_slice()),
                c.value.as_slice(),
            )
        })
        .collect()
}

impl Run<'_> {
    pub(super) async fn go<S: Store, T: Store, I: Store>(
        &self,
        source: &S,
        target: &T,
        indexes: &[IndexSink<'_, I>],
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
        // A dry run writes nothing for the target to show: it keeps the
        // new keys it has seen (and their old ones) instead.
        let mut dry_seen: HashMap<Vec<u8>, Vec<u8>> = HashMap::new();
        while !state.done {
            let rows = read_batch(source, state.last_key.as_deref(), self.batch.max(1)).await?;
            let Some(last) = rows.last() else {
                state.done = true;
                self.save(checkpoint, &state)?;
                break;
            };
            let last = last.key.clone();
            let mut next = state.clone();
            let mut mapped = self.map_batch(&rows, indexes, &mut next)?;
            // Every collision found, as (move, earlier old key if known);
            // the first in key order stops the re-key.
            let mut found: Vec<(usize, Option<Vec<u8>>)> = Vec::new();
            // Source keys up to `writing` may have had their new rows
            // written by a run that stopped.
            let taken = self.taken(target, &mapped.moves, state.writing.as_deref());
            found.extend(taken.await?.map(|t| (t, None)));
            found.extend(mapped.collision.take().map(|(i, e)| (i, Some(e))));
            if self.dry_run {
                let seen_before = mapped
                    .moves
                    .iter()
                    .enumerate()
                    .find_map(|(i, m)| dry_seen.get(&m.new.key).map(|e| (i, Some(e.clone()))));
                found.extend(seen_before);
                for m in &mapped.moves {
                    dry_seen
                        .entry(m.new.key.clone())
                        .or_insert_with(|| m.old.clone());
                }
            }
            if let Some((i, earlier)) = found
                .into_iter()
                .min_by_key(|(i, earlier)| (*i, earlier.is_none()))
            {
                return Err(self.collision(source, &mapped.moves[i], earlier).await);
            }
            if !self.dry_run {
                // Saved first: a run that resumes knows which rows of the
                // target this batch may have written.
                // (Never less than a stopped run's: a smaller batch leaves
                // some of its rows to later batches.)
                let writing = RekeyCheckpoint {
                    writing: state.writing.clone().max(Some(last.clone())),
                    ..state.clone()
                };
                self.save(checkpoint, &writing)?;
                // New rows first: a crash leaves old rows to redo, never
                // an index row or a deletion before its new row.
                let new_rows: Vec<Row> = mapped.moves.into_iter().map(|m| m.new).collect();
                if !new_rows.is_empty() {
                    target.write_rows(new_rows).await?;
                }
                for (index, rows) in indexes.iter().zip(mapped.index_rows) {
                    if !rows.is_empty() {
                        index.store.write_rows(rows).await?;
                    }
                }
                if self.in_place && !mapped.old_keys.is_empty() {
                    source.delete_rows(mapped.old_keys).await?;
                }
            }
            next.read += rows.len() as u64;
            next.writing = next.writing.filter(|w| *w > last);
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

    /// The first move whose new key the target holds already (one read
    /// of exactly those keys), except a row the stopped run wrote: one of
    /// a source key up to `stopped_at`, equal in every cell to the new row.
    async fn taken<T: Store>(
        &self,
        target: &T,
        moves: &[Move],
        stopped_at: Option<&[u8]>,
    ) -> Result<Option<usize>, RekeyError> {
        if moves.is_empty() {
            return Ok(None);
        }
        // A key two moves share: the first (the collision with the
        // target comes before theirs).
        let mut at: HashMap<&[u8], usize> = HashMap::new();
        for (i, m) in moves.iter().enumerate() {
            at.entry(m.new.key.as_slice()).or_insert(i);
        }
        let request = ReadRequest::new(moves.iter().map(|m| KeyRange::row(&m.new.key)));
        let mut first = None;
        for row in read_all(target, request).await? {
            let Some(&i) = at.get(row.key.as_slice()) else {
                continue;
            };
            let m = &moves[i];
            let own_write = stopped_at.is_some_and(|s| m.old.as_slice() <= s)
                && by_column(&row.cells) == by_column(&m.new.cells);
            if !own_write {
                first = Some(first.map_or(i, |f: usize| f.min(i)));
            }
        }
        Ok(first)
    }

    /// The collision of `m`'s new key with an earlier row's: `earlier`
    /// when known, else (into a new table) the first source row before
    /// `m`'s that maps to the same key, found by mapping the source again
    /// (in place, the earlier row is deleted; none is found when the
    /// target held the key before the re-key).
    async fn collision<S: Store>(
        &self,
        source: &S,
        m: &Move,
        earlier: Option<Vec<u8>>,
    ) -> RekeyError {
        let earlier = match earlier {
            Some(e) => Some(e),
            None if self.in_place => None,
            // A failure to read or map while looking only loses the name.
            None => self.find_earlier(source, m).await.ok().flatten(),
        };
        RekeyError::Collision {
            key: m.new.key.clone(),
            old: m.old.clone(),
            earlier,
        }
    }

    async fn find_earlier<S: Store>(
        &self,
        source: &S,
        m: &Move,
    ) -> Result<Option<Vec<u8>>, RekeyError> {
        let mut last: Option<Vec<u8>> = None;
        loop {
            let rows = read_batch(source, last.as_deref(), self.batch.max(1)).await?;
            let Some(end) = rows.last() else {
                return Ok(None);
            };
            last = Some(end.key.clone());
            for row in rows.iter().take_while(|r| r.key < m.old) {
                if !self.mapping.is_old(&row.key) {
                    continue;
                }
                let mapped = self.mapping.map(row).ok().flatten();
                if mapped.is_some_and(|new| new.key == m.new.key) {
                    return Ok(Some(row.key.clone()));
                }
            }
            if end.key >= m.old {
                return Ok(None);
            }
        }
    }

    /// The batch mapped, counting into `state`.
    fn map_batch<I>(
        &self,
        rows: &[Row],
        indexes: &[IndexSink<'_, I>],
        state: &mut RekeyCheckpoint,
    ) -> Result<Mapped, RekeyError> {
        let mut out = Mapped {
            index_rows: indexes.iter().map(|_| Vec::new()).collect(),
            ..Mapped::default()
        };
        // The batch's new keys, and the old key each came from.
        let mut seen: HashMap<Vec<u8>, &[u8]> = HashMap::new();
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
                    out.old_keys.push(row.key.clone());
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
            if let Some(earlier) = seen.insert(new.key.clone(), &row.key) {
                // Kept, not returned: a collision with the target may come
                // earlier in the batch.
                out.collision
                    .get_or_insert_with(|| (out.moves.len(), earlier.to_vec()));
            }
            for (index, rows) in indexes.iter().zip(&mut out.index_rows) {
                if let Some(k) = (index.key)(&new).map_err(map_error)? {
                    rows.push(index_row(k, &new.key));
                }
            }
            if self.in_place {
                out.old_keys.push(row.key.clone());
            }
            out.moves.push(Move {
                old: row.key.clone(),
                new,
            });
        }
        state.written += out.moves.len() as u64;
        state.indexed += out.index_rows.iter().map(|r| r.len() as u64).sum::<u64>();
        Ok(out)
    }
}
