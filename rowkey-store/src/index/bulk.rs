//! Bulk loads through an index: [`IndexedStore::put_records`] and its
//! siblings write many records and their index rows in batches, a bounded
//! number in flight, each batch in [`put_record`](IndexedStore::put_record)'s
//! order (main rows, then index rows).

use super::{index_row, IndexedStore};
use crate::{KeyLimit, Record, Row, Store, StoreError};
use futures_core::Stream;
use rowkey_core::{IndexOf, KeyDisplay, RowKey};
use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::hash::{BuildHasherDefault, Hasher};
use std::pin::{pin, Pin};
use std::task::{Context, Poll};

/// How [`IndexedStore::put_records_with`] and
/// [`put_record_stream`](IndexedStore::put_record_stream) batch records.
///
/// Records are taken `batch_records` at a time: one write of the batch's
/// main rows, then (once it has succeeded) one write of its index rows.
/// Up to `in_flight` batches run at once, each with one write outstanding,
/// so at most `in_flight` writes are in flight (a store may send one write
/// as several requests: `BigtableStore` cuts at its `WriteOptions`'
/// 1,000 rows, so batches of up to 1,000 records are one request each).
/// The load holds the rows of at most `in_flight + 2` batches, whatever
/// the number of records.
///
/// ```
/// use rowkey::store::PutRecordsOptions;
/// let o = PutRecordsOptions::default().batch_records(500).in_flight(8);
/// assert_eq!((o.batch_records, o.in_flight), (500, 8));
/// assert_eq!(PutRecordsOptions::default().in_flight(0).in_flight, 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct PutRecordsOptions {
    /// Records per batch (at least 1; default 1,000).
    pub batch_records: usize,
    /// Batches in flight at once (at least 1; default 4).
    pub in_flight: usize,
}

impl Default for PutRecordsOptions {
    fn default() -> Self {
        PutRecordsOptions {
            batch_records: 1000,
            in_flight: 4,
        }
    }
}

impl PutRecordsOptions {
    /// Batches of at most `n` records (0 is taken as 1).
    pub fn batch_records(mut self, n: usize) -> Self {
        self.batch_records = n.max(1);
        self
    }

    /// At most `n` batches in flight (0 is taken as 1).
    pub fn in_flight(mut self, n: usize) -> Self {
        self.in_flight = n.max(1);
        self
    }
}

/// What a bulk load has written so far: given to its progress hook after
/// each write that lands, and returned at the end.
///
/// `records` counts the records of *committed* batches, those whose main
/// rows and index rows have both been written: each of them is found
/// through the index. `rows` and `bytes` count every row written, main
/// and index, so they run ahead of `records` (a batch's main rows land
/// before its index rows).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct PutRecordsProgress {
    /// Records whose batch has committed (main rows, then index rows,
    /// written).
    pub records: u64,
    /// Rows written, main and index.
    pub rows: u64,
    /// Bytes of those rows: keys, families, qualifiers and values
    /// ([`Row::size`]).
    pub bytes: u64,
    /// Batches committed.
    pub batches: u64,
}

impl<S: Store, I: Store> IndexedStore<S, I> {
    /// Writes many records and their index rows (`X::index_key(record)`),
    /// in batches, with the default [`PutRecordsOptions`]; see
    /// [`put_record_stream`](Self::put_record_stream) for the write order,
    /// what a failure leaves and what the result is.
    ///
    /// ```
    /// # use rowkey::store::{BoxError, Cell, IndexedStore, MemStore, Record, Row};
    /// # use rowkey::RowKey;
    /// #[derive(RowKey)]
    /// struct Reading { #[salt(buckets = 8, binary)] device: u32, #[desc_ts] at_ms: i64 }
    ///
    /// struct Sample { device: u32, at_ms: i64, metric: u16, value: f32 }
    /// # impl Record for Sample {
    /// #     type Key = Reading;
    /// #     fn key(&self) -> Reading { Reading { device: self.device, at_ms: self.at_ms } }
    /// #     fn cells(&self) -> Vec<Cell> {
    /// #         vec![Cell::new("d", "m", self.metric.to_be_bytes()), Cell::new("d", "v", self.value.to_be_bytes())]
    /// #     }
    /// #     fn from_row(row: &Row) -> Result<Self, BoxError> {
    /// #         let key: Reading = row.key_as()?;
    /// #         let metric = u16::from_be_bytes(row.value("d", "m").ok_or("no d:m")?.try_into()?);
    /// #         let value = f32::from_be_bytes(row.value("d", "v").ok_or("no d:v")?.try_into()?);
    /// #         Ok(Sample { device: key.device, at_ms: key.at_ms, metric, value })
    /// #     }
    /// # }
    ///
    /// /// One metric, all devices, newest first: the metric is in the
    /// /// record's cells, not in its key.
    /// #[derive(RowKey)]
    /// #[rowkey(index_of = Sample)]
    /// struct SampleByMetric { metric: u16, #[desc_ts] at_ms: i64, device: u32 }
    ///
    /// # futures::executor::block_on(async {
    /// use futures::TryStreamExt;
    /// let samples = IndexedStore::new(MemStore::new(), MemStore::new());
    /// let load = (0..10_000).map(|i| Sample { device: i % 50, at_ms: i as i64, metric: (i % 3) as u16, value: 21.5 });
    /// let written = samples.put_records::<SampleByMetric, _>(load).await?;
    /// assert_eq!((written.records, written.rows, written.batches), (10_000, 20_000, 10));
    ///
    /// let plan = SampleByMetric::scan().metric.eq(2).plan()?.with_limit(3);
    /// let newest: Vec<Sample> = samples.query_records::<SampleByMetric, _, _>(&plan).try_collect().await?;
    /// assert_eq!(newest.iter().map(|s| s.at_ms).collect::<Vec<_>>(), [9_998, 9_995, 9_992]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    pub async fn put_records<X, R>(
        &self,
        records: impl IntoIterator<Item = R>,
    ) -> Result<PutRecordsProgress, StoreError>
    where
        R: Record,
        X: IndexOf<R>,
    {
        self.put_records_with::<X, R>(records, PutRecordsOptions::default(), |_| {})
            .await
    }

    /// [`put_records`](Self::put_records) with chosen batching, calling
    /// `progress` after each write that lands (see
    /// [`put_record_stream`](Self::put_record_stream)).
    ///
    /// ```
    /// # use rowkey::store::{BoxError, Cell, IndexedStore, MemStore, PutRecordsOptions, Record, Row};
    /// # use rowkey::RowKey;
    /// # #[derive(RowKey)] struct ByOrder { order: u64 }
    /// # struct Trade { order: u64, buyer: u32 }
    /// # impl Record for Trade {
    /// #     type Key = ByOrder;
    /// #     fn key(&self) -> ByOrder { ByOrder { order: self.order } }
    /// #     fn cells(&self) -> Vec<Cell> { vec![Cell::new("d", "b", self.buyer.to_be_bytes())] }
    /// #     fn from_row(row: &Row) -> Result<Self, BoxError> { unimplemented!() }
    /// # }
    /// # #[derive(RowKey)]
    /// # #[rowkey(index_of = Trade)]
    /// # struct BuyerTrade { buyer: u32, order: u64 }
    /// # futures::executor::block_on(async {
    /// let trades = IndexedStore::new(MemStore::new(), MemStore::new());
    /// let load = (0..2_500).map(|order| Trade { order, buyer: (order % 7) as u32 });
    /// let options = PutRecordsOptions::default().batch_records(1_000).in_flight(2);
    /// let mut seen = Vec::new();
    /// let done = trades
    ///     .put_records_with::<BuyerTrade, _>(load, options, |p| seen.push(p.records))
    ///     .await?;
    /// assert_eq!(done.records, 2_500);
    /// // Called after each write: a batch's main rows, then its index rows
    /// // (which commit its records).
    /// assert_eq!(seen, [0, 1_000, 1_000, 2_000, 2_000, 2_500]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    pub async fn put_records_with<X, R>(
        &self,
        records: impl IntoIterator<Item = R>,
        options: PutRecordsOptions,
        progress: impl FnMut(PutRecordsProgress),
    ) -> Result<PutRecordsProgress, StoreError>
    where
        R: Record,
        X: IndexOf<R>,
    {
        let mut records = records.into_iter();
        self.load::<X, R>(|_| Poll::Ready(records.next()), options, progress)
            .await
    }

    /// Writes the records of a stream and their index rows
    /// (`X::index_key(record)`) in batches: a bulk load through an index,
    /// as fast as plain writes of the rows, where
    /// [`put_record`](Self::put_record) writes two rows per round trip.
    ///
    /// **Order.** Each batch is written as `put_record` writes one
    /// record: its main rows, and only once that write has succeeded, its
    /// index rows; a batch *commits* when both have landed. Batches run
    /// concurrently ([`PutRecordsOptions`]), but the tables end as
    /// `put_record` called on each record in turn would leave them: a
    /// batch never holds two records with the same main key or the same
    /// index key (a record that would repeat one starts the next batch),
    /// and a batch waits for any batch in flight that holds one of its
    /// keys. So the last record of a main key is the one stored, and a
    /// record put again with another index key leaves its old index row
    /// behind, stale, as `put_record` does
    /// ([`query_records`](Self::query_records) skips it; use
    /// [`update_record`](Self::update_record) to move records that are
    /// already stored).
    ///
    /// **Failure.** On the first error (a record whose key does not
    /// encode or is over a table's limit, a write that fails), no more
    /// records are read or batches started; the batches in flight run to
    /// their end, then the error is returned. Whatever stopped it, an
    /// index row is only ever written after its main row: a failed (or
    /// dropped) load leaves no index row pointing at nothing, and every
    /// record of a committed batch is found through the index. A batch cut
    /// between its two writes leaves records readable by their keys but
    /// not through the index; putting them again heals them (both writes
    /// are idempotent), so a failed load can simply be run again. The
    /// records of the batch being filled when it failed are not written.
    ///
    /// **Progress.** `progress` is called after each write that lands
    /// (a batch's main rows, then its index rows) with the totals so far
    /// ([`PutRecordsProgress`]: records committed, rows and bytes
    /// written), for a progress bar; the same totals are returned at the
    /// end.
    ///
    /// **Memory** stays bounded whatever the number of records: the load
    /// holds the rows of at most `in_flight + 2` batches and the hashes of
    /// their keys. When the stream is not ready and no batch is in flight,
    /// the records read so far go as a smaller batch rather than wait.
    ///
    /// The future is `Send` when the stream and the hook are.
    ///
    /// ```
    /// # use rowkey::store::{BoxError, Cell, IndexedStore, MemStore, PutRecordsOptions, Record, Row};
    /// # use rowkey::RowKey;
    /// # #[derive(RowKey)] struct ByOrder { order: u64 }
    /// # #[derive(Debug, PartialEq)] struct Trade { order: u64, buyer: u32 }
    /// # impl Record for Trade {
    /// #     type Key = ByOrder;
    /// #     fn key(&self) -> ByOrder { ByOrder { order: self.order } }
    /// #     fn cells(&self) -> Vec<Cell> { vec![Cell::new("d", "b", self.buyer.to_be_bytes())] }
    /// #     fn from_row(row: &Row) -> Result<Self, BoxError> {
    /// #         let b = row.value("d", "b").ok_or("no d:b")?.try_into()?;
    /// #         Ok(Trade { order: row.key_as::<ByOrder>()?.order, buyer: u32::from_be_bytes(b) })
    /// #     }
    /// # }
    /// # #[derive(RowKey)]
    /// # #[rowkey(index_of = Trade)]
    /// # struct BuyerTrade { buyer: u32, order: u64 }
    /// # futures::executor::block_on(async {
    /// use futures::{StreamExt, TryStreamExt};
    /// let trades = IndexedStore::new(MemStore::new(), MemStore::new());
    /// // Order 3 comes twice: the second, bought by 9, is the one stored,
    /// // and buyer 1's index row is left behind, stale.
    /// let feed = futures::stream::iter([(1, 1), (2, 1), (3, 1), (3, 9)])
    ///     .map(|(order, buyer)| Trade { order, buyer });
    /// let options = PutRecordsOptions::default().batch_records(2);
    /// let done = trades.put_record_stream::<BuyerTrade, _>(feed, options, |_| {}).await?;
    /// assert_eq!((done.records, done.batches), (4, 3));
    ///
    /// let plan = BuyerTrade::scan().buyer.eq(1).plan()?;
    /// let mut one = trades.query_records::<BuyerTrade, Trade, _>(&plan);
    /// let orders: Vec<u64> = (&mut one).map_ok(|t| t.order).try_collect().await?;
    /// assert_eq!((orders, one.stats().stale), (vec![1, 2], 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    pub async fn put_record_stream<X, R>(
        &self,
        records: impl Stream<Item = R>,
        options: PutRecordsOptions,
        progress: impl FnMut(PutRecordsProgress),
    ) -> Result<PutRecordsProgress, StoreError>
    where
        R: Record,
        X: IndexOf<R>,
    {
        let mut records = pin!(records);
        self.load::<X, R>(|cx| records.as_mut().poll_next(cx), options, progress)
            .await
    }

    /// The load, pulling records from `next`.
    async fn load<X, R>(
        &self,
        mut next: impl FnMut(&mut Context<'_>) -> Poll<Option<R>>,
        options: PutRecordsOptions,
        mut progress: impl FnMut(PutRecordsProgress),
    ) -> Result<PutRecordsProgress, StoreError>
    where
        R: Record,
        X: IndexOf<R>,
    {
        let (main_limit, index_limit) = (self.main.key_limit(), self.index.key_limit());
        let mut load = Load::new(self, options);
        let mut position = 0u64;
        let mut next = |cx: &mut Context<'_>| {
            next(cx).map(|r| {
                r.map(|r| {
                    let at = position;
                    position += 1;
                    Prepared::new::<X, R>(&r, main_limit, index_limit).map_err(|e| {
                        StoreError::InputRecord {
                            position: at,
                            key: key_fields(&r.key()),
                            error: Box::new(e),
                        }
                    })
                })
            })
        };
        std::future::poll_fn(|cx| load.poll(cx, &mut next, &mut progress)).await
    }
}

/// A write of one table, boxed: the loads' writes in flight are of two
/// stores' future types.
type Write<'a> = Pin<Box<dyn Future<Output = Result<(), StoreError>> + Send + 'a>>;

/// A record as its two rows, checked, and the hashes of their keys.
struct Prepared {
    main: Row,
    index: Row,
    keys: [u64; 2],
}

impl Prepared {
    /// `record`'s main row and index row, both keys encoded and checked
    /// against their table's limit (and the row for cells), before any of
    /// its batch is written.
    fn new<X: IndexOf<R>, R: Record>(
        record: &R,
        main_limit: KeyLimit,
        index_limit: KeyLimit,
    ) -> Result<Prepared, StoreError> {
        let main = Row::new(record.key().to_vec()?, record.cells());
        main_limit.check_rows(std::slice::from_ref(&main))?;
        let index_key = X::index_key(record).to_vec()?;
        index_limit.check("write rows", &index_key)?;
        let index = index_row(index_key, &main.key);
        Ok(Prepared {
            keys: [key_hash(0, &main.key), key_hash(1, &index.key)],
            main,
            index,
        })
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

/// A key's hash, `table` 0 for the main table and 1 for the index: two
/// records conflict when they share one. A collision only orders two
/// batches that need not be, so the hash is a fast one (FxHash's step over
/// 8-byte words, then murmur3's finaliser for the low bits the sets use),
/// not SipHash.
fn key_hash(table: u8, key: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = (u64::from(table) << 32 | key.len() as u64).wrapping_mul(K);
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
#[derive(Default)]
struct Rows {
    main: Vec<Row>,
    index: Vec<Row>,
    keys: KeySet,
}

impl Rows {
    fn len(&self) -> usize {
        self.main.len()
    }
}

/// A batch in flight: its main rows' write, then its index rows'.
struct Batch<'a> {
    write: Write<'a>,
    /// The index rows, until the main rows have landed.
    index: Option<Vec<Row>>,
    records: u64,
    main_bytes: u64,
    index_bytes: u64,
    keys: KeySet,
}

/// A bulk load's state: the batch being filled, one waiting to start,
/// the batches in flight and the keys they hold.
struct Load<'a, S, I> {
    store: &'a IndexedStore<S, I>,
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

fn bytes(rows: &[Row]) -> u64 {
    rows.iter().map(|r| r.size() as u64).sum()
}

impl<'a, S: Store, I: Store> Load<'a, S, I> {
    fn new(store: &'a IndexedStore<S, I>, options: PutRecordsOptions) -> Self {
        Load {
            store,
            batch_records: options.batch_records.max(1),
            in_flight: options.in_flight.max(1),
            filling: Rows::default(),
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
        let (main_bytes, index_bytes) = (bytes(&main), bytes(&index));
        self.running.push(Batch {
            records: main.len() as u64,
            write: Box::pin(self.store.main.write_rows(main)),
            index: Some(index),
            main_bytes,
            index_bytes,
            keys,
        });
        true
    }

    /// Polls the batches in flight: a batch whose main rows landed writes
    /// its index rows; one whose index rows landed has committed. Returns
    /// whether any write ended.
    fn poll_running(
        &mut self,
        cx: &mut Context<'_>,
        progress: &mut impl FnMut(PutRecordsProgress),
    ) -> bool {
        let mut changed = false;
        let mut i = 0;
        while i < self.running.len() {
            let batch = &mut self.running[i];
            match batch.write.as_mut().poll(cx) {
                Poll::Pending => i += 1,
                Poll::Ready(Ok(())) => {
                    changed = true;
                    if let Some(index) = batch.index.take() {
                        // The main rows are written: now, and only now, the
                        // index rows pointing at them (polled next round).
                        self.written.rows += batch.records;
                        self.written.bytes += batch.main_bytes;
                        batch.write = Box::pin(self.store.index.write_rows(index));
                        progress(self.written);
                    } else {
                        let batch = self.finish(i);
                        self.written.rows += batch.records;
                        self.written.bytes += batch.index_bytes;
                        self.written.records += batch.records;
                        self.written.batches += 1;
                        progress(self.written);
                    }
                }
                Poll::Ready(Err(e)) => {
                    changed = true;
                    self.finish(i);
                    self.fail(e);
                }
            }
        }
        changed
    }

    /// Takes batch `i` out of the running ones and frees its keys.
    fn finish(&mut self, i: usize) -> Batch<'a> {
        let batch = self.running.swap_remove(i);
        for k in &batch.keys {
            if let Some(n) = self.busy.get_mut(k) {
                *n -= 1;
                if *n == 0 {
                    self.busy.remove(k);
                }
            }
        }
        batch
    }

    /// Stops the load at its first error: nothing more is read or started.
    fn fail(&mut self, e: StoreError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
        self.queued = None;
        self.filling = Rows::default();
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
                self.queued = Some(std::mem::take(&mut self.filling));
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
                        self.queued = Some(std::mem::take(&mut self.filling));
                    }
                    self.filling.keys.extend(record.keys);
                    self.filling.main.push(record.main);
                    self.filling.index.push(record.index);
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
                        self.queued = Some(std::mem::take(&mut self.filling));
                        return true;
                    }
                    break;
                }
            }
        }
        changed
    }
}
