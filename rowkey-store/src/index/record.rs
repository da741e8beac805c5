//! An index built from whole [`Record`]s rather than main keys: the
//! record operations of [`IndexedStore`], and [`Records`], the checked
//! join that skips stale index rows.

use super::key_fn::{self, IndexKeyFn};
use super::write;
use super::{IndexJoin, IndexStats, IndexedStore};
use crate::{Record, Store, StoreError};
use futures_core::Stream;
use rowkey_core::scan::ScanPlan;
use rowkey_core::SparseIndexOf;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

impl<S: Store, I: Store> IndexedStore<S, I> {
    /// Writes `record`'s main row ([`Record::key`], [`Record::cells`]),
    /// then the index row of `X::index_key(record)` pointing at it: the
    /// order and guarantees of [`put_indexed`](Self::put_indexed) (the
    /// index never points at a main row not yet written; a failure in
    /// between leaves the record readable by its key, not through the
    /// index, until it is put again).
    ///
    /// For a new record, or one whose index key did not change. When it
    /// did (the buyer of a trade changed), the old index row is left
    /// behind pointing at the record: [`query_records`](Self::query_records)
    /// skips it as stale; [`update_record`](Self::update_record) removes
    /// it.
    pub async fn put_record<X, R>(&self, record: &R) -> Result<(), StoreError>
    where
        R: Record,
        X: SparseIndexOf<R>,
    {
        write::put_record(self.main(), &self.target::<X, R>(), record).await
    }

    /// Writes `record` over the one stored under its key, moving its index
    /// row if its index key changed. Reads the stored record first (one
    /// point read), then:
    ///
    /// - no stored record, or the same index key: as
    ///   [`put_record`](Self::put_record), main row then index row;
    /// - another index key: (1) the new index row, (2) the main row,
    ///   (3) the old index row deleted.
    ///
    /// What [`query_records`](Self::query_records) sees if it stops after
    /// (1): the old record, through the old index key only (the new index
    /// row leads to a main row that does not index to it yet: stale,
    /// skipped); after (2): the new record, through the new key only (the
    /// old index row is stale); after (3): the same, and no stale row
    /// left. The record is always found under exactly one index key at
    /// each step, but a query that runs meanwhile reads the index as it
    /// is when it reaches each key (there is no snapshot): if the record
    /// moves backwards in index order, from ahead of the query's position
    /// to behind it, the query misses it; moving forwards past it, the
    /// query may return it twice, as it was and as it is. Run it again to
    /// finish: stopped after (1), it moves the record; after
    /// (2), the stored record already has the new key, so the old index
    /// row is no longer known and stays behind, stale (readers skip and
    /// count it). Two writers updating one record at once may also leave
    /// a stale index row.
    ///
    /// A stored row that does not read back as a record is an error
    /// ([`StoreError::BadRecord`]) and nothing is written.
    pub async fn update_record<X, R>(&self, record: &R) -> Result<(), StoreError>
    where
        R: Record,
        X: SparseIndexOf<R>,
    {
        write::update_record(self.main(), &self.target::<X, R>(), record).await
    }

    /// Deletes `record`'s main row, then its index row
    /// (`X::index_key(record)`). If it stops in between, the index row
    /// leads nowhere: readers skip it and count it
    /// ([`IndexStats::missing`]); deleting again removes it. Pass the
    /// record as stored: the index row of another version is not found.
    pub async fn delete_record<X, R>(&self, record: &R) -> Result<(), StoreError>
    where
        R: Record,
        X: SparseIndexOf<R>,
    {
        write::delete_record(self.main(), &self.target::<X, R>(), record).await
    }

    /// The records of the index rows `plan` selects, in index order, as
    /// [`query_index`](Self::query_index) joins them; each joined main row
    /// is read back as its record ([`Record::from_row`]) and kept only if
    /// the record still indexes to the hit (`X::index_key(record)` is the
    /// index row's key). Stale hits are skipped and counted
    /// ([`IndexStats::stale`]), missing main rows as in `query_index`.
    ///
    /// ```
    /// # use rowkey::store::{BoxError, Cell, RecordError, IndexedStore, MemStore, Record, Row};
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
    /// #[derive(RowKey)]
    /// #[rowkey(index_of = Trade)]
    /// struct BuyerTrade { buyer: u32, order: u64 }
    ///
    /// # futures::executor::block_on(async {
    /// use futures::TryStreamExt;
    /// let trades = IndexedStore::new(MemStore::new(), MemStore::new());
    /// trades.put_record::<BuyerTrade, _>(&Trade { order: 1, buyer: 7 }).await?;
    /// // The buyer changes; a blind put leaves the index row under buyer 7.
    /// trades.put_record::<BuyerTrade, _>(&Trade { order: 1, buyer: 8 }).await?;
    /// let mut found = trades.query_records::<BuyerTrade, Trade, _>(&BuyerTrade::scan().buyer.eq(7).plan()?);
    /// assert!((&mut found).try_collect::<Vec<_>>().await?.is_empty());
    /// assert_eq!(found.stats().stale, 1);
    /// // update_record moves the index row instead.
    /// trades.update_record::<BuyerTrade, _>(&Trade { order: 1, buyer: 9 }).await?;
    /// let nine: Vec<Trade> = trades
    ///     .query_records::<BuyerTrade, _, _>(&BuyerTrade::scan().buyer.eq(9).plan()?)
    ///     .try_collect()
    ///     .await?;
    /// assert_eq!(nine, [Trade { order: 1, buyer: 9 }]);
    /// assert_eq!(trades.index().len(), 2, "buyer 7's stale row and buyer 9's");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    pub fn query_records<X, R, const N: usize>(&self, plan: &ScanPlan<N>) -> Records<S, I, R>
    where
        R: Record,
        X: SparseIndexOf<R>,
    {
        Records::new(
            self.query_index(plan).with_columns(R::columns()),
            key_fn::index_key_fn::<X, R>(),
        )
    }
}

/// The records of an index query, in index order, stale and missing hits
/// skipped; made by [`IndexedStore::query_records`]. Ends after the first
/// error, which it yields. [`stats`](Self::stats) counts what was
/// skipped: collect through `&mut` to read them after the end.
pub struct Records<S, I, R> {
    /// `None` for a query through an index the table does not have: the
    /// error it yields first.
    join: Option<IndexJoin<S, I>>,
    /// `X::sparse_index_key(record)`, encoded.
    index_key: IndexKeyFn<R>,
    /// Yielded first, then the end.
    error: Option<StoreError>,
    done: bool,
    record: PhantomData<fn() -> R>,
}

impl<S, I, R> Records<S, I, R> {
    /// The records `join` leads to that still index (by `index_key`) to
    /// the hit that led to them.
    pub(super) fn new(join: IndexJoin<S, I>, index_key: IndexKeyFn<R>) -> Self {
        Records {
            join: Some(join),
            index_key,
            error: None,
            done: false,
            record: PhantomData,
        }
    }

    /// A query that fails with `error` before reading anything.
    pub(super) fn failed(error: StoreError, index_key: IndexKeyFn<R>) -> Self {
        Records {
            join: None,
            index_key,
            error: Some(error),
            done: false,
            record: PhantomData,
        }
    }

    /// Hits read, records yielded, hits skipped so far.
    pub fn stats(&self) -> IndexStats {
        self.join.as_ref().map(IndexJoin::stats).unwrap_or_default()
    }
}

impl<S: Store, I: Store, R: Record> Stream for Records<S, I, R> {
    type Item = Result<R, StoreError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if let Some(e) = this.error.take() {
            this.done = true;
            return Poll::Ready(Some(Err(e)));
        }
        while !this.done {
            let Some(join) = &mut this.join else { break };
            // A stale hit is skipped: go on to the next.
            let (hit, row) = match join.poll_joined(cx) {
                Poll::Ready(Some(Ok(joined))) => joined,
                Poll::Ready(Some(Err(e))) => {
                    this.done = true;
                    return Poll::Ready(Some(Err(e)));
                }
                Poll::Ready(None) => {
                    this.done = true;
                    return Poll::Ready(None);
                }
                Poll::Pending => return Poll::Pending,
            };
            let checked = R::from_row(&row)
                .map_err(|source| StoreError::BadRecord {
                    op: "join an index hit",
                    key: row.key,
                    source: source.into(),
                })
                .and_then(|record| {
                    let indexed = (this.index_key)(&record)?;
                    Ok((indexed.as_deref() == Some(&hit[..])).then_some(record))
                });
            match checked {
                Ok(Some(record)) => return Poll::Ready(Some(Ok(record))),
                Ok(None) => join.count_stale(),
                Err(e) => {
                    this.done = true;
                    return Poll::Ready(Some(Err(e)));
                }
            }
        }
        Poll::Ready(None)
    }
}

impl<S, I, R> Unpin for Records<S, I, R> {}

impl<S, I, R> std::fmt::Debug for Records<S, I, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Records")
            .field("stats", &self.stats())
            .field("done", &self.done)
            .finish()
    }
}
