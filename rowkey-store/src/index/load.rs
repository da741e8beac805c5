//! The bulk load engine behind [`IndexedStore::put_record_stream`] and
//! [`IndexedTable::put_record_stream`], for any number of index tables:
//! records taken in batches, each batch's main rows written, then (once
//! they have landed) its index rows, one write per index table, all
//! together; a bounded number of batches in flight, and no two batches in
//! flight that share a key.
//!
//! [`IndexedStore::put_record_stream`]: super::IndexedStore::put_record_stream
//! [`IndexedTable::put_record_stream`]: super::IndexedTable::put_record_stream

use super::write::{Target, Write};
use super::{index_row, PutRecordsOptions, PutRecordsProgress};
use crate::{KeyLimit, Record, Row, Store, StoreError};
use rowkey_core::{KeyDisplay, RowKey};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::task::{Context, Poll};

/// Loads the records `next` yields into `main` and `targets`.
pub(crate) async fn run<R: Record, S: Store, I: Store>(
    main: &S,
    targets: &[Target<'_, R, I>],
    mut next: impl FnMut(&mut Context<'_>) -> Poll<Option<R>>,
    options: PutRecordsOptions,
    mut progress: impl FnMut(PutRecordsProgress),
) -> Result<PutRecordsProgress, StoreError> {
    if let Some(name) = targets.iter().find_map(|t| t.unique) {
        return Err(StoreError::Unsupported {
            op: "load records",
            store: "IndexedTable",
            what: format!(
                "load records in bulk into unique index {name} (its rows are claimed one by \
                 one: use put_record)"
            ),
            supported_by: None,
        });
    }
    let main_limit = main.key_limit();
    let mut load = Load::new(main, targets, options);
    let mut position = 0u64;
    let mut next = |cx: &mut Context<'_>| {
        next(cx).map(|r| {
            r.map(|r| {
                let at = position;
                position += 1;
                Prepared::new(&r, main_limit, targets).map_err(|e| StoreError::InputRecord {
                    position: at,
                    key: key_fields(&r.key()),
                    error: Box::new(e),
                })
            })
        })
    };
    std::future::poll_fn(|cx| load.poll(cx, &mut next, &mut progress)).await
}

/// A record as its rows, checked, and the hashes of their keys.
struct Prepared {
    main: Row,
    /// Its index rows, each with its target's position.
    index: Vec<(usize, Row)>,
    keys: Vec<u64>,
}

impl Prepared {
    /// `record`'s main row and index rows, every key encoded and checked
    /// against its table's limit (and the row for cells), before any of
    /// its batch is written.
    fn new<R: Record, I: Store>(
        record: &R,
        main_limit: KeyLimit,
        targets: &[Target<'_, R, I>],
    ) -> Result<Prepared, StoreError> {
        let main = Row::of_record(record)?;
        main_limit.check_rows(std::slice::from_ref(&main))?;
        let mut keys = vec![key_hash(0, &main.key)];
        let mut index = Vec::with_capacity(targets.len());
        let index_keys = super::write::index_keys(targets, record, "write rows")?;
        for (t, key) in index_keys.into_iter().enumerate() {
            if let Some(key) = key {
                keys.push(key_hash(t + 1, &key));
                index.push((t, index_row(key, &main.key)));
            }
        }
        Ok(Prepared { main, index, keys })
    }
}

/// A record's key as its fields, `name=value` in key order, for an
/// error about the record; the key's bytes when its layout does not
/// decode them, and a word when it does not encode.
fn key_fields<K: RowKey>(key: &K) -> String {
    let Ok(bytes) = key.to_vec() else {
        return "not shown: it does not encode".into();
    };
    match K::layout().decode_key(&bytes) {
        Ok(d) => d
            .fields
            .iter()
            .map(|f| format!("{}={}", f.name, f.value))
            .collect::<Vec<_>>()
            .join(", "),
        Err(_) => KeyDisplay(&bytes).to_string(),
    }
}

/// A key's hash, `table` 0 for the main table and `1 + n` for the n-th
/// index: two records conflict when they share one. A collision only
/// orders two batches that need not be, so the hash is a fast one
/// (FxHash's step over 8-byte words, then murmur3's finaliser for the low
/// bits the sets use), not SipHash.
fn key_hash(table: usize, key: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = ((table as u64) << 32 | key.len() as u64).wrapping_mul(K);
    let mut words = key.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    }
    let mut last = [0u8; 8];
    last[..words.remainder().len()].copy_from_slice(words.remainder());
    h = (h.rotate_left(5) ^ u64::from_le_bytes(last)).wrapping_mul(K);
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Hashes a key hash as itself: the sets of key hashes need no second
/// SipHash.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `u64`s are hashed here; anything else is folded in.
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type KeySet = HashSet<u64, BuildHasherDefault<Prehashed>>;
type KeyCounts = HashMap<u64, u32, BuildHasherDefault<Prehashed>>;

/// A batch being filled, or full and not yet started.
struct Rows {
    main: Vec<Row>,
    /// The index rows, one list per target.
    index: Vec<Vec<Row>>,
    keys: KeySet,
}

impl Rows {
    fn new(targets: usize) -> Self {
        Rows {
            main: Vec::new(),
            index: vec![Vec::new(); targets],
            keys: KeySet::default(),
        }
    }

    fn len(&self) -> usize {
        self.main.len()
    }
}

/// A write of a batch in flight, with what it writes.
struct InFlight<'a> {
    write: Write<'a>,
    rows: u64,
    bytes: u64,
}

impl<'a> InFlight<'a> {
    fn new<T: Store>(table: &'a T, rows: Vec<Row>) -> Self {
        InFlight {
            rows: rows.len() as u64,
            bytes: rows.iter().map(|r| r.size() as u64).sum(),
            write: Box::pin(table.write_rows(rows)),
        }
    }
}

/// A batch in flight: its main rows' write, then its index rows' writes
/// (one per index table with rows).
struct Batch<'a> {
    writes: Vec<InFlight<'a>>,
    /// The index rows per target, until the main rows have landed.
    index: Option<Vec<Vec<Row>>>,
    records: u64,
    keys: KeySet,
    /// One of its writes failed: it ends when the others have, and never
    /// commits.
    failed: bool,
}

/// A bulk load's state: the batch being filled, one waiting to start,
/// the batches in flight and the keys they hold.
struct Load<'a, 't, R, S, I> {
    main: &'a S,
    targets: &'t [Target<'a, R, I>],
    batch_records: usize,
    in_flight: usize,
    filling: Rows,
    /// Full (or closed early), waiting for room or for a batch in flight
    /// that holds one of its keys.
    queued: Option<Rows>,
    running: Vec<Batch<'a>>,
    /// The key hashes of the batches in flight, each with its count.
    busy: KeyCounts,
    /// The records have all been read.
    read_all: bool,
    error: Option<StoreError>,
    written: PutRecordsProgress,
}

impl<'a, 't, R, S: Store, I: Store> Load<'a, 't, R, S, I> {
    fn new(main: &'a S, targets: &'t [Target<'a, R, I>], options: PutRecordsOptions) -> Self {
        Load {
            main,
            targets,
            batch_records: options.batch_records.max(1),
            in_flight: options.in_flight.max(1),
            filling: Rows::new(targets.len()),
            queued: None,
            running: Vec::new(),
            busy: KeyCounts::default(),
            read_all: false,
            error: None,
            written: PutRecordsProgress::default(),
        }
    }

    fn poll(
        &mut self,
        cx: &mut Context<'_>,
        next: &mut impl FnMut(&mut Context<'_>) -> Poll<Option<Result<Prepared, StoreError>>>,
        progress: &mut impl FnMut(PutRecordsProgress),
    ) -> Poll<Result<PutRecordsProgress, StoreError>> {
        loop {
            let mut changed = self.start_queued();
            changed |= self.poll_running(cx, progress);
            changed |= self.read(cx, next);
            if self.running.is_empty() && self.queued.is_none() {
                if let Some(e) = self.error.take() {
                    return Poll::Ready(Err(e));
                }
                if self.read_all && self.filling.len() == 0 {
                    return Poll::Ready(Ok(self.written));
                }
            }
            // Otherwise a batch in flight or the records are pending, and
            // will wake us.
            if !changed {
                return Poll::Pending;
            }
        }
    }

    /// Starts the queued batch if there is room and no batch in flight
    /// holds one of its keys.
    fn start_queued(&mut self) -> bool {
        let Some(queued) = &self.queued else {
            return false;
        };
        if self.running.len() >= self.in_flight
            || queued.keys.iter().any(|k| self.busy.contains_key(k))
        {
            return false;
        }
        let Rows { main, index, keys } = self.queued.take().expect("a queued batch");
        for k in &keys {
            *self.busy.entry(*k).or_default() += 1;
        }
        self.running.push(Batch {
            records: main.len() as u64,
            writes: vec![InFlight::new(self.main, main)],
            index: Some(index),
            keys,
            failed: false,
        });
        true
    }

    /// Polls the writes of the batches in flight: a batch whose main rows
    /// landed writes its index rows; one whose index rows all landed has
    /// committed. Returns whether any write ended.
    fn poll_running(
        &mut self,
        cx: &mut Context<'_>,
        progress: &mut impl FnMut(PutRecordsProgress),
    ) -> bool {
        let mut changed = false;
        let mut i = 0;
        while i < self.running.len() {
            let batch = &mut self.running[i];
            let mut w = 0;
            let mut landed = Vec::new();
            let mut failed_now = false;
            while w < batch.writes.len() {
                match batch.writes[w].write.as_mut().poll(cx) {
                    Poll::Pending => w += 1,
                    Poll::Ready(result) => {
                        changed = true;
                        let write = batch.writes.swap_remove(w);
                        match result {
                            Ok(()) => landed.push((write.rows, write.bytes)),
                            Err(e) => {
                                batch.failed = true;
                                failed_now = true;
                                self.error.get_or_insert(e);
                            }
                        }
                    }
                }
            }
            if failed_now {
                // Nothing more is read or started.
                self.stop();
            }
            let batch = &mut self.running[i];
            let (mut commit, mut drop) = (false, false);
            if batch.writes.is_empty() {
                if batch.failed {
                    // Its other writes have ended: it is dropped,
                    // uncommitted.
                    drop = true;
                } else {
                    match batch.index.take() {
                        // The main rows are written: now, and only now,
                        // the index rows pointing at them (polled next
                        // round).
                        Some(index) => {
                            for (t, rows) in self.targets.iter().zip(index) {
                                if !rows.is_empty() {
                                    batch.writes.push(InFlight::new(t.store, rows));
                                }
                            }
                            // A batch no index holds a row of commits at
                            // once.
                            commit = batch.writes.is_empty();
                        }
                        None => commit = true,
                    }
                }
            }
            let last = landed.len().saturating_sub(1);
            for (n, (rows, bytes)) in landed.into_iter().enumerate() {
                self.written.rows += rows;
                self.written.bytes += bytes;
                if commit && n == last {
                    self.written.records += self.running[i].records;
                    self.written.batches += 1;
                }
                progress(self.written);
            }
            if commit || drop {
                self.finish(i);
            } else {
                i += 1;
            }
        }
        changed
    }

    /// Takes batch `i` out of the running ones and frees its keys.
    fn finish(&mut self, i: usize) {
        let batch = self.running.swap_remove(i);
        for k in &batch.keys {
            if let Some(n) = self.busy.get_mut(k) {
                *n -= 1;
                if *n == 0 {
                    self.busy.remove(k);
                }
            }
        }
    }

    /// Stops the load at its first error: nothing more is read or started.
    fn fail(&mut self, e: StoreError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
        self.stop();
    }

    fn stop(&mut self) {
        self.queued = None;
        self.filling = Rows::new(self.targets.len());
    }

    /// Reads records into the batch being filled while no batch is
    /// queued; queues it when it is full, when the next record repeats
    /// one of its keys, when the records end, and when they are not ready
    /// while no batch is in flight. Returns whether anything changed.
    fn read(
        &mut self,
        cx: &mut Context<'_>,
        next: &mut impl FnMut(&mut Context<'_>) -> Poll<Option<Result<Prepared, StoreError>>>,
    ) -> bool {
        let mut changed = false;
        while self.error.is_none() && self.queued.is_none() {
            let filled = self.filling.len();
            if filled >= self.batch_records || (self.read_all && filled > 0) {
                self.queue();
                return true;
            }
            if self.read_all {
                break;
            }
            match next(cx) {
                Poll::Ready(Some(Ok(record))) => {
                    changed = true;
                    if record.keys.iter().any(|k| self.filling.keys.contains(k)) {
                        // Two rows of one key in one write may land in
                        // either order: the record starts the next batch.
                        self.queue();
                    }
                    self.filling.keys.extend(record.keys);
                    self.filling.main.push(record.main);
                    for (t, row) in record.index {
                        self.filling.index[t].push(row);
                    }
                }
                Poll::Ready(Some(Err(e))) => {
                    self.fail(e);
                    return true;
                }
                Poll::Ready(None) => {
                    changed = true;
                    self.read_all = true;
                }
                Poll::Pending => {
                    if self.running.is_empty() && filled > 0 {
                        // Nothing is being written: send what there is.
                        self.queue();
                        return true;
                    }
                    break;
                }
            }
        }
        changed
    }

    /// Queues the batch being filled and starts another.
    fn queue(&mut self) {
        let full = std::mem::replace(&mut self.filling, Rows::new(self.targets.len()));
        self.queued = Some(full);
    }
}
