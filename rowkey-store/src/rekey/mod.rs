//! Re-keying: a table's rows moved from an old key layout to a new one
//! ([`Rekey`]).

mod checkpoint;
mod indexed;
mod mapping;
mod run;
mod verify;

pub use checkpoint::{Checkpoint, FileCheckpoint, MemCheckpoint, RekeyCheckpoint};
pub use indexed::{IndexedRekey, RekeyIndex, RekeyTables};
pub use mapping::{RecordMapping, RekeyMapping, TypedMapping, ValueMapping};
pub use verify::RekeyVerification;

use crate::{Store, StoreError};
use core::fmt;
use rowkey_core::KeyDisplay;

/// Rows per batch, by default.
pub const DEFAULT_REKEY_BATCH: usize = 500;

/// Re-keying: a table's rows moved from an old key layout to a new one.
///
/// [`Rekey`] reads every row of the source table in key order, a batch
/// at a time (memory bounded by the batch), maps each row of the old
/// layout to its new row ([`RekeyMapping`]: by layout values from JSON,
/// by key types, by records), writes the new rows to a new table or to
/// the same one, rebuilds an index table of the new keys, and saves a
/// [`Checkpoint`] after each batch.
///
/// **Crashes.** In a batch, the new rows are written first, then their
/// index rows, then (in place) the old rows deleted, then the checkpoint
/// saved. Each step is idempotent (a row written again is the same row;
/// a delete of a gone row is no error), so a run stopped anywhere resumes
/// from the checkpoint, does the unfinished batch again, and ends with
/// every row moved once: the property test `tests/it/rekey.rs` stops a
/// re-key at every write and checks exactly that. The checkpoint is also
/// saved before a batch is written, naming its last source key
/// ([`RekeyCheckpoint::writing`]), so that the run that resumes knows
/// which rows of the target the stopped one may have written.
///
/// **Collisions.** A new key must come from one old row: two that map to
/// one key would end as one row. Before a batch is written, the target is
/// read for exactly its new keys (one read of point ranges); a key the
/// target holds already, or that two rows of the batch share, stops the
/// re-key with [`RekeyError::Collision`] before anything of the batch is
/// written, whatever the batch size. The target should therefore be empty
/// (or hold only this re-key's rows). The one exception: a row of the
/// target equal in every cell to the one about to be written, for a
/// source row of the batch a stopped run was writing, is that run's own
/// write. (Two old rows that map to one key *and* to identical cells, one
/// of them in that batch, are not told apart from it.) A dry run writes
/// nothing, so it keeps every new key it has mapped in memory to find the
/// same collisions.
///
/// **Counts.** [`RekeyCheckpoint::written`] counts new rows written once
/// each, a batch redone after a crash included: into a new table, it is
/// the number of rows the target holds from the re-key. In place, old
/// rows a crash deleted after their new rows were written are not read
/// again, so it may count fewer.
///
/// **In place.** The scan then meets the new rows it wrote: rows the old
/// layout does not read are left alone. So a new key must not read as
/// an old key (nor be the old key): [`RekeyError::Ambiguous`] stops a
/// re-key in place where it would (a dropped `#[desc]` keeps every key
/// readable by both layouts): re-key such a change into a new table.
///
/// ```
/// use rowkey::store::{Cell, MemCheckpoint, MemStore, Rekey, StoreExt, TypedMapping};
/// use rowkey::RowKey;
/// mod v1 { #[derive(rowkey::RowKey)] pub struct Op { #[salt(buckets = 32)] pub uid: u64, pub seq: u32 } }
/// mod v2 { #[derive(rowkey::RowKey)] pub struct Op { #[salt(buckets = 64)] pub uid: u64, pub seq: u32 } }
///
/// # futures::executor::block_on(async {
/// let (old, new) = (MemStore::new(), MemStore::new());
/// for seq in 0..100 {
///     old.put(&v1::Op { uid: 7, seq }, vec![Cell::new("d", "n", seq.to_string())]).await?;
/// }
/// let mapping = TypedMapping::new(|o: v1::Op| v2::Op { uid: o.uid, seq: o.seq });
/// let rekey = Rekey::new(&mapping).batch(16);
/// let done = rekey.to_table(&old, &new, &MemCheckpoint::default(), |_| {}).await?;
/// assert_eq!((done.read, done.written), (100, 100));
/// assert!(rekey.verify_table(&old, &new, 10).await?.is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Clone, Copy)]
pub struct Rekey<'m> {
    mapping: &'m dyn RekeyMapping,
    batch: usize,
    dry_run: bool,
    /// Every how many rows one is checked by `to_indexed_table`.
    verify_every: u64,
}

/// Rows checked one in this many by [`Rekey::to_indexed_table`], by
/// default.
pub const DEFAULT_VERIFY_EVERY: u64 = 100;

impl fmt::Debug for Rekey<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rekey")
            .field("batch", &self.batch)
            .field("dry_run", &self.dry_run)
            .field("verify_every", &self.verify_every)
            .finish_non_exhaustive()
    }
}

impl<'m> Rekey<'m> {
    /// A re-key by `mapping`, [`DEFAULT_REKEY_BATCH`] rows a batch.
    pub fn new(mapping: &'m dyn RekeyMapping) -> Self {
        Rekey {
            mapping,
            batch: DEFAULT_REKEY_BATCH,
            dry_run: false,
            verify_every: DEFAULT_VERIFY_EVERY,
        }
    }

    /// [`to_indexed_table`](Self::to_indexed_table) maps again and
    /// compares one row in `n` (0 is taken as 1: every row), and checks
    /// one index row in `n`; counts are always whole.
    pub fn verify_every(mut self, n: u64) -> Self {
        self.verify_every = n.max(1);
        self
    }

    /// Rows read, mapped and written per batch (0 is taken as 1): the
    /// memory a run holds, and the work a crash makes it do again.
    pub fn batch(mut self, rows: usize) -> Self {
        self.batch = rows.max(1);
        self
    }

    /// Reads and maps every row, writes nothing and saves no checkpoint:
    /// the counts a run would reach, and the first row it would stop at.
    pub fn dry_run(mut self, yes: bool) -> Self {
        self.dry_run = yes;
        self
    }

    fn run(&self, in_place: bool) -> run::Run<'m> {
        run::Run {
            mapping: self.mapping,
            batch: self.batch,
            dry_run: self.dry_run,
            in_place,
        }
    }

    /// Moves `source`'s rows into the table `target` (usually new and
    /// empty), resuming from `checkpoint`; `progress` sees the counts
    /// after each batch.
    pub async fn to_table<S: Store, T: Store>(
        &self,
        source: &S,
        target: &T,
        checkpoint: &dyn Checkpoint,
        mut progress: impl FnMut(&RekeyCheckpoint) + Send,
    ) -> Result<RekeyCheckpoint, RekeyError> {
        let run = self.run(false);
        run.go::<S, T, T>(source, target, &[], checkpoint, &mut progress)
            .await
    }

    /// [`to_table`](Self::to_table), writing an index row in `index` for
    /// each new row (the mapping's [`index_key`](RekeyMapping::index_key)).
    pub async fn to_table_with_index<S: Store, T: Store, I: Store>(
        &self,
        source: &S,
        target: &T,
        index: &I,
        checkpoint: &dyn Checkpoint,
        mut progress: impl FnMut(&RekeyCheckpoint) + Send,
    ) -> Result<RekeyCheckpoint, RekeyError> {
        let run = self.run(false);
        let sinks = [self.mapping_index(index)];
        run.go(source, target, &sinks, checkpoint, &mut progress)
            .await
    }

    /// Moves `table`'s old rows to their new keys in the same table (see
    /// [`Rekey`]'s docs on what in place needs); with `index`, an
    /// index row for each.
    pub async fn in_place<S: Store, I: Store>(
        &self,
        table: &S,
        index: Option<&I>,
        checkpoint: &dyn Checkpoint,
        mut progress: impl FnMut(&RekeyCheckpoint) + Send,
    ) -> Result<RekeyCheckpoint, RekeyError> {
        let run = self.run(true);
        let sinks: Vec<_> = index.map(|i| self.mapping_index(i)).into_iter().collect();
        run.go(table, table, &sinks, checkpoint, &mut progress)
            .await
    }

    /// The one index table of `to_table_with_index` and `in_place`, keyed
    /// by the mapping's [`index_key`](RekeyMapping::index_key).
    fn mapping_index<'a, I>(&self, store: &'a I) -> run::IndexSink<'a, I>
    where
        'm: 'a,
    {
        let mapping = self.mapping;
        run::IndexSink {
            store,
            key: Box::new(move |row: &crate::Row| mapping.index_key(&row.key)),
        }
    }
}

/// Why a re-key stopped. After any of them, a run resumes from the last
/// checkpoint.
#[derive(Debug)]
#[non_exhaustive]
pub enum RekeyError {
    /// Reading, writing or deleting failed.
    Store(StoreError),
    /// The mapping refused an old row.
    Map {
        /// The old row's key.
        key: Vec<u8>,
        /// Why.
        why: String,
    },
    /// In place, a new key the old layout reads too (or the old key
    /// itself): the scan would take it for an old row.
    Ambiguous {
        /// The old key.
        old: Vec<u8>,
        /// Its new key.
        new: Vec<u8>,
    },
    /// Two old rows map to one new key: writing both would leave one row
    /// where there were two. Found before the later row is written,
    /// whichever batches (or runs) the two are in.
    Collision {
        /// The new key.
        key: Vec<u8>,
        /// The old row that maps to it and was not written (the later).
        old: Vec<u8>,
        /// The old row that maps to it first, where the re-key can tell:
        /// in the same batch, or (into a new table) an earlier source row,
        /// found by mapping the source again. `None`: the target held the
        /// key already and no earlier source row maps to it (it was there
        /// before the re-key), or, in place, that row is deleted.
        earlier: Option<Vec<u8>>,
    },
    /// The checkpoint could not be read or saved.
    Checkpoint(String),
    /// [`Rekey::to_indexed_table`]: an index of the table has no name in
    /// [`RekeyTables`] (found before anything is written).
    UnnamedIndex {
        /// The index key type's name.
        index: &'static str,
    },
    /// [`Rekey::to_indexed_table`] finished but its checks failed: what
    /// they found. No layout was recorded.
    NotVerified(Box<RekeyVerification>),
}

impl fmt::Display for RekeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RekeyError::Store(e) => write!(f, "re-key stopped: {e}"),
            RekeyError::Map { key, why } => {
                write!(f, "re-key stopped at row {}: {why}", KeyDisplay(key))
            }
            RekeyError::Ambiguous { old, new } => write!(
                f,
                "re-key in place stopped at row {}: its new key {} reads as a key of the old \
                 layout too, so the scan would re-key it again; re-key into a new table",
                KeyDisplay(old),
                KeyDisplay(new)
            ),
            RekeyError::Collision {
                key,
                old,
                earlier: Some(earlier),
            } => write!(
                f,
                "re-key stopped at row {}: rows {} and {} both map to the new key {}, \
                 which would merge them into one row",
                KeyDisplay(old),
                KeyDisplay(earlier),
                KeyDisplay(old),
                KeyDisplay(key)
            ),
            RekeyError::Collision {
                key,
                old,
                earlier: None,
            } => write!(
                f,
                "re-key stopped at row {}: its new key {} is in the target already (an \
                 earlier row's new key, or a row that was there before the re-key), and \
                 writing it would merge two rows into one",
                KeyDisplay(old),
                KeyDisplay(key)
            ),
            RekeyError::Checkpoint(why) => write!(f, "re-key checkpoint: {why}"),
            RekeyError::UnnamedIndex { index } => write!(
                f,
                "re-key not started: the index keyed by `{index}` has no table name; \
                 name it with `RekeyTables::index::<{index}>(\"..\")`"
            ),
            RekeyError::NotVerified(v) => write!(
                f,
                "re-key done but not verified, no layout recorded: {} of {} rows in the \
                 main table, {} of {} index rows, {} old rows left, {} of {} checked rows \
                 differ{}",
                v.found,
                v.expected,
                v.index_rows_found,
                v.index_rows_expected,
                v.old_left,
                v.mismatched.len(),
                v.checked,
                v.mismatched
                    .first()
                    .map_or(String::new(), |k| format!(" (first: {})", KeyDisplay(k)))
            ),
        }
    }
}

impl std::error::Error for RekeyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RekeyError::Store(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StoreError> for RekeyError {
    fn from(e: StoreError) -> Self {
        RekeyError::Store(e)
    }
}
