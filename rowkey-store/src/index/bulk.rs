//! Bulk loads through an index: [`IndexedStore::put_records`] and its
//! siblings write many records and their index rows in batches, a bounded
//! number in flight, each batch in [`put_record`](IndexedStore::put_record)'s
//! order (main rows, then index rows).

use super::{load, IndexedStore};
use crate::{Record, Store, StoreError};
use futures_core::Stream;
use rowkey_core::SparseIndexOf;
use std::pin::pin;
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
    /// ([`Row::size`](crate::Row::size)).
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
    /// # use rowkey::store::{BoxError, Cell, RecordError, IndexedStore, MemStore, Record, Row};
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
    /// #     fn from_row(row: &Row) -> Result<Self, RecordError> {
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
        X: SparseIndexOf<R>,
    {
        self.put_records_with::<X, R>(records, PutRecordsOptions::default(), |_| {})
            .await
    }

    /// [`put_records`](Self::put_records) with chosen batching, calling
    /// `progress` after each write that lands (see
    /// [`put_record_stream`](Self::put_record_stream)).
    ///
    /// ```
    /// # use rowkey::store::{BoxError, Cell, RecordError, IndexedStore, MemStore, PutRecordsOptions, Record, Row};
    /// # use rowkey::RowKey;
    /// # #[derive(RowKey)] struct ByOrder { order: u64 }
    /// # struct Trade { order: u64, buyer: u32 }
    /// # impl Record for Trade {
    /// #     type Key = ByOrder;
    /// #     fn key(&self) -> ByOrder { ByOrder { order: self.order } }
    /// #     fn cells(&self) -> Vec<Cell> { vec![Cell::new("d", "b", self.buyer.to_be_bytes())] }
    /// #     fn from_row(row: &Row) -> Result<Self, RecordError> { unimplemented!() }
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
        X: SparseIndexOf<R>,
    {
        let mut records = records.into_iter();
        let targets = self.target::<X, R>();
        let next = |_: &mut Context<'_>| Poll::Ready(records.next());
        load::run(self.main(), &targets, next, options, progress).await
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
    /// # use rowkey::store::{BoxError, Cell, RecordError, IndexedStore, MemStore, PutRecordsOptions, Record, Row};
    /// # use rowkey::RowKey;
    /// # #[derive(RowKey)] struct ByOrder { order: u64 }
    /// # #[derive(Debug, PartialEq)] struct Trade { order: u64, buyer: u32 }
    /// # impl Record for Trade {
    /// #     type Key = ByOrder;
    /// #     fn key(&self) -> ByOrder { ByOrder { order: self.order } }
    /// #     fn cells(&self) -> Vec<Cell> { vec![Cell::new("d", "b", self.buyer.to_be_bytes())] }
    /// #     fn from_row(row: &Row) -> Result<Self, RecordError> {
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
        X: SparseIndexOf<R>,
    {
        let mut records = pin!(records);
        let targets = self.target::<X, R>();
        let next = |cx: &mut Context<'_>| records.as_mut().poll_next(cx);
        load::run(self.main(), &targets, next, options, progress).await
    }
}
