//! [`IndexedStore`]: a main table and an index table keyed another way
//! ([`IndexOf`]): both rows written in an order readers tolerate, index
//! hits joined back to main rows in batched point reads ([`IndexJoin`]).

use super::{Cell, KeyRange, QueryStream, ReadRequest, Row, RowStream, Store, StoreError};
use crate::scan::ScanPlan;
use crate::{IndexOf, RowKey};
use futures_core::Stream;
use std::collections::{HashMap, VecDeque};
use std::pin::Pin;
use std::task::{Context, Poll};

/// The family of the index row's one cell.
pub const INDEX_FAMILY: &str = "i";
/// The qualifier of the index row's one cell, whose value is the main
/// row's key.
pub const INDEX_QUALIFIER: &[u8] = b"k";
/// Main keys read per point read when joining index hits, by default.
pub const DEFAULT_JOIN_BATCH: usize = 100;

/// A main table and an index of it: two stores (two tables; they may be
/// clones of one store only if their keys cannot collide).
///
/// An index row is keyed by an [`IndexOf`] key and holds one cell,
/// [`INDEX_FAMILY`]`:`[`INDEX_QUALIFIER`] (`i:k`), whose value is the main
/// row's key: on Bigtable, create the index table with family `i`.
///
/// **Write order.** [`put_indexed`](Self::put_indexed) writes the main
/// row, and only once that has succeeded, the index row. A failure (or a
/// crash) between the two leaves a main row that its key reads but the
/// index does not find; putting it again heals it (both writes are
/// idempotent). The index never points at a main row that was not
/// written. Nothing here deletes: a main row deleted by other means
/// leaves an index hit without a main row, which
/// [`query_index`](Self::query_index) skips and counts
/// ([`IndexStats::missing`]).
///
/// ```
/// use futures::TryStreamExt;
/// use rowkey::store::{Cell, IndexedStore, MemStore};
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct Reading { #[salt(buckets = 8, binary)] device: u32, metric: u16, #[desc_ts] at_ms: i64 }
///
/// /// "One metric, all devices, newest first": a query the main key cannot answer.
/// #[derive(RowKey)]
/// #[rowkey(index_of = Reading)]
/// struct ReadingByMetric { metric: u16, #[desc_ts] at_ms: i64, device: u32 }
///
/// # futures::executor::block_on(async {
/// let readings = IndexedStore::new(MemStore::new(), MemStore::new());
/// for (device, metric, at_ms) in [(1, 5, 10), (2, 5, 20), (3, 6, 30)] {
///     let cells = vec![Cell::new("d", "v", "21.5")];
///     readings.put_indexed::<ReadingByMetric, _>(&Reading { device, metric, at_ms }, cells).await?;
/// }
/// let mut rows = readings.query_index(&ReadingByMetric::scan().metric.eq(5).plan()?);
/// let found: Vec<_> = (&mut rows).try_collect().await?;
/// let keys: Vec<Reading> = found.iter().map(|r| r.key_as()).collect::<Result<_, _>>()?;
/// assert_eq!(keys, [Reading { device: 2, metric: 5, at_ms: 20 }, Reading { device: 1, metric: 5, at_ms: 10 }]);
/// assert_eq!((rows.stats().hits, rows.stats().missing), (2, 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct IndexedStore<S, I = S> {
    main: S,
    index: I,
    batch: usize,
}

impl<S: Store, I: Store> IndexedStore<S, I> {
    /// The main table `main` and its index table `index`.
    pub fn new(main: S, index: I) -> Self {
        IndexedStore {
            main,
            index,
            batch: DEFAULT_JOIN_BATCH,
        }
    }

    /// Joins index hits `n` main keys per read (0 is taken as 1; the
    /// default is [`DEFAULT_JOIN_BATCH`]).
    pub fn join_batch(mut self, n: usize) -> Self {
        self.batch = n.max(1);
        self
    }

    /// The main table.
    pub fn main(&self) -> &S {
        &self.main
    }

    /// The index table.
    pub fn index(&self) -> &I {
        &self.index
    }

    /// Writes the main row of `main` with `cells`, then the index row of
    /// `X::index_key(main)` pointing at it (see the write order above).
    /// Both keys are encoded, and checked against their store's limits
    /// where the store checks them, before the main row is written.
    pub async fn put_indexed<X, M>(&self, main: &M, cells: Vec<Cell>) -> Result<(), StoreError>
    where
        M: RowKey,
        X: IndexOf<M>,
    {
        let main_key = main.to_vec()?;
        let index_key = X::index_key(main).to_vec()?;
        self.index.key_limit().check("write rows", &index_key)?;
        let index_row = Row::new(
            index_key,
            vec![Cell::new(INDEX_FAMILY, INDEX_QUALIFIER, &main_key)],
        );
        self.main
            .write_rows(vec![Row::new(main_key, cells)])
            .await?;
        self.index.write_rows(vec![index_row]).await
    }

    /// The main rows of the index rows `plan` selects, in the index's
    /// order (the plan's: merged across buckets, reversed if it is),
    /// joined in point reads of up to [`join_batch`](Self::join_batch)
    /// keys. A hit whose main row is missing is skipped and counted
    /// ([`IndexJoin::stats`]). The plan's limit caps the index hits read.
    pub fn query_index<const N: usize>(&self, plan: &ScanPlan<N>) -> IndexJoin<S, I> {
        IndexJoin {
            main: self.main.clone(),
            hits: self.index.query(plan),
            hits_done: false,
            batch: Vec::new(),
            batch_size: self.batch,
            fetch: None,
            ready: VecDeque::new(),
            stats: IndexStats::default(),
            finished: false,
        }
    }
}

/// What an [`IndexJoin`] has read so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct IndexStats {
    /// Index rows read.
    pub hits: u64,
    /// Main rows found and yielded.
    pub joined: u64,
    /// Index hits whose main row was not found: skipped.
    pub missing: u64,
    /// Point reads of the main table.
    pub reads: u64,
}

/// A point read of one batch of main keys.
struct Fetch {
    rows: RowStream,
    /// The batch's main keys in index order.
    order: Vec<Vec<u8>>,
    found: HashMap<Vec<u8>, Row>,
}

/// The main rows of an index query, in index order; made by
/// [`IndexedStore::query_index`]. Ends after the first error, which it
/// yields. [`stats`](Self::stats) counts hits, joins and skipped hits:
/// collect through `&mut` to read them after the end.
pub struct IndexJoin<S, I> {
    main: S,
    hits: QueryStream<I>,
    hits_done: bool,
    /// Main keys of the hits not yet asked for.
    batch: Vec<Vec<u8>>,
    batch_size: usize,
    fetch: Option<Fetch>,
    ready: VecDeque<Row>,
    stats: IndexStats,
    finished: bool,
}

impl<S, I> IndexJoin<S, I> {
    /// Hits read, rows joined, hits skipped so far.
    pub fn stats(&self) -> IndexStats {
        self.stats
    }
}

impl<S: Store, I: Store> IndexJoin<S, I> {
    /// The main key an index row points at.
    fn main_key(&self, hit: Row) -> Result<Vec<u8>, StoreError> {
        let Row { key, cells } = hit;
        let cell = cells
            .into_iter()
            .find(|c| c.family == INDEX_FAMILY && c.qualifier == INDEX_QUALIFIER);
        let Some(cell) = cell else {
            return Err(StoreError::NotAnIndexRow { key });
        };
        self.main
            .key_limit()
            .check("join an index hit", &cell.value)?;
        Ok(cell.value)
    }

    /// Takes hits into the batch until it is full, the hits end or none is
    /// ready.
    fn poll_hits(&mut self, cx: &mut Context<'_>) -> Result<(), StoreError> {
        while !self.hits_done && self.batch.len() < self.batch_size {
            match Pin::new(&mut self.hits).poll_next(cx) {
                Poll::Ready(Some(hit)) => {
                    self.stats.hits += 1;
                    let key = self.main_key(hit?)?;
                    self.batch.push(key);
                }
                Poll::Ready(None) => self.hits_done = true,
                Poll::Pending => break,
            }
        }
        Ok(())
    }

    /// Reads the batch's main rows.
    fn start_fetch(&mut self) {
        let order = std::mem::take(&mut self.batch);
        let request = ReadRequest::new(order.iter().map(|k| KeyRange::row(k)));
        self.stats.reads += 1;
        self.fetch = Some(Fetch {
            rows: self.main.read_rows(request),
            order,
            found: HashMap::new(),
        });
    }

    /// Drains the read in flight; once it ends, queues its rows in index
    /// order and counts the missing ones. `Ready(())` when it ended.
    fn poll_fetch(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), StoreError>> {
        let Some(fetch) = &mut self.fetch else {
            return Poll::Ready(Ok(()));
        };
        loop {
            match fetch.rows.as_mut().poll_next(cx) {
                Poll::Ready(Some(Ok(row))) => {
                    fetch.found.insert(row.key.clone(), row);
                }
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Err(e)),
                Poll::Ready(None) => break,
                Poll::Pending => return Poll::Pending,
            }
        }
        let Fetch {
            order, mut found, ..
        } = self.fetch.take().expect("a read in flight");
        for (i, key) in order.iter().enumerate() {
            // Two hits may point at one main row: only the last takes it.
            let again = order[i + 1..].contains(key);
            let row = if again {
                found.get(key).cloned()
            } else {
                found.remove(key)
            };
            match row {
                Some(row) => {
                    self.stats.joined += 1;
                    self.ready.push_back(row);
                }
                None => self.stats.missing += 1,
            }
        }
        Poll::Ready(Ok(()))
    }

    fn fail(&mut self, e: StoreError) -> Poll<Option<Result<Row, StoreError>>> {
        self.finished = true;
        self.fetch = None;
        self.batch.clear();
        Poll::Ready(Some(Err(e)))
    }
}

impl<S: Store, I: Store> Stream for IndexJoin<S, I> {
    type Item = Result<Row, StoreError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        loop {
            if let Some(row) = this.ready.pop_front() {
                return Poll::Ready(Some(Ok(row)));
            }
            if this.finished {
                return Poll::Ready(None);
            }
            if this.fetch.is_some() {
                match this.poll_fetch(cx) {
                    Poll::Ready(Ok(())) => continue,
                    Poll::Ready(Err(e)) => return this.fail(e),
                    Poll::Pending => return Poll::Pending,
                }
            }
            if let Err(e) = this.poll_hits(cx) {
                return this.fail(e);
            }
            if !this.batch.is_empty() {
                // A full batch, the last one, or the hits that are ready.
                this.start_fetch();
            } else if this.hits_done {
                this.finished = true;
            } else {
                // The index read is pending and will wake us.
                return Poll::Pending;
            }
        }
    }
}

impl<S, I> Unpin for IndexJoin<S, I> {}
