//! [`IndexJoin`]: index hits joined back to their main rows in batched
//! point reads ([`Store::read_keys`]: one multi-get per batch), in index
//! order.

use crate::{Columns, QueryStream, Row, RowStream, Store, StoreError};
use crate::{INDEX_FAMILY, INDEX_QUALIFIER};
use futures_core::Stream;
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

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
    /// Index hits whose main row was found but no longer indexes to the
    /// hit (its record moved to another index key): skipped. Only
    /// [`IndexedStore::query_records`](crate::IndexedStore::query_records)
    /// checks, so only it counts them.
    pub stale: u64,
    /// Point reads of the main table.
    pub reads: u64,
}

/// A joined main row with the key of the index row that led to it.
pub(super) type Joined = (Vec<u8>, Row);

/// An index hit: the index row's key and the main key it holds.
struct Hit {
    index_key: Vec<u8>,
    main_key: Vec<u8>,
}

/// A point read of one batch of main keys.
struct Fetch {
    rows: RowStream,
    /// The batch's hits in index order.
    order: Vec<Hit>,
    found: HashMap<Vec<u8>, Row>,
}

/// The main rows of an index query, in index order; made by
/// [`IndexedStore::query_index`](crate::IndexedStore::query_index). Ends after the first error, which it
/// yields. [`stats`](Self::stats) counts hits, joins and skipped hits:
/// collect through `&mut` to read them after the end.
pub struct IndexJoin<S, I> {
    main: S,
    hits: QueryStream<I>,
    hits_done: bool,
    /// Hits whose main rows are not yet asked for.
    batch: Vec<Hit>,
    batch_size: usize,
    fetch: Option<Fetch>,
    /// Joined rows with their hit's index key, in index order.
    ready: VecDeque<Joined>,
    stats: IndexStats,
    finished: bool,
    /// The columns the main rows are read with (`None`: every cell).
    columns: Option<Columns>,
    /// An error of the hits met while reading ahead, for after the rows
    /// of the batch in flight.
    hits_error: Option<StoreError>,
}

impl<S, I> IndexJoin<S, I> {
    /// Hits read, rows joined, hits skipped so far.
    pub fn stats(&self) -> IndexStats {
        self.stats
    }

    /// A joined row turned out stale: counted as such, not as joined.
    pub(super) fn count_stale(&mut self) {
        self.stats.joined -= 1;
        self.stats.stale += 1;
    }
}

impl<S: Store, I: Store> IndexJoin<S, I> {
    /// Joins the index hits of `hits` to rows of `main`, `batch_size` main
    /// keys per read.
    pub(super) fn new(main: S, hits: QueryStream<I>, batch_size: usize) -> Self {
        IndexJoin {
            main,
            hits,
            hits_done: false,
            batch: Vec::new(),
            batch_size,
            fetch: None,
            ready: VecDeque::new(),
            stats: IndexStats::default(),
            finished: false,
            columns: None,
            hits_error: None,
        }
    }

    /// Reads the main rows with only `columns` (a record's).
    pub(super) fn with_columns(mut self, columns: Option<Columns>) -> Self {
        self.columns = columns;
        self
    }

    /// The hit an index row holds.
    fn hit(&self, row: Row) -> Result<Hit, StoreError> {
        let Row { key, cells, .. } = row;
        let cell = cells
            .into_iter()
            .find(|c| c.family == INDEX_FAMILY && c.qualifier == INDEX_QUALIFIER);
        let Some(cell) = cell else {
            return Err(StoreError::NotAnIndexRow { key });
        };
        self.main
            .key_limit()
            .check("join an index hit", &cell.value)?;
        Ok(Hit {
            index_key: key,
            main_key: cell.value,
        })
    }

    /// Takes hits into the batch until it is full, the hits end or none is
    /// ready.
    fn poll_hits(&mut self, cx: &mut Context<'_>) -> Result<(), StoreError> {
        while !self.hits_done && self.batch.len() < self.batch_size {
            match Pin::new(&mut self.hits).poll_next(cx) {
                Poll::Ready(Some(hit)) => {
                    self.stats.hits += 1;
                    let hit = self.hit(hit?)?;
                    self.batch.push(hit);
                }
                Poll::Ready(None) => self.hits_done = true,
                Poll::Pending => break,
            }
        }
        Ok(())
    }

    /// Reads the batch's main rows: one batched point read
    /// ([`Store::read_keys`], a multi-get where the backend has one).
    fn start_fetch(&mut self) {
        let order = std::mem::take(&mut self.batch);
        let keys = order.iter().map(|h| h.main_key.clone()).collect();
        self.stats.reads += 1;
        self.fetch = Some(Fetch {
            rows: self.main.read_keys(keys, self.columns.clone()),
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
        for (i, hit) in order.iter().enumerate() {
            // Two hits may point at one main row: only the last takes it.
            let again = order[i + 1..].iter().any(|h| h.main_key == hit.main_key);
            let row = if again {
                found.get(&hit.main_key).cloned()
            } else {
                found.remove(&hit.main_key)
            };
            match row {
                Some(row) => {
                    self.stats.joined += 1;
                    self.ready.push_back((hit.index_key.clone(), row));
                }
                None => self.stats.missing += 1,
            }
        }
        Poll::Ready(Ok(()))
    }

    fn fail<T>(&mut self, e: StoreError) -> Poll<Option<Result<T, StoreError>>> {
        self.finished = true;
        self.fetch = None;
        self.batch.clear();
        Poll::Ready(Some(Err(e)))
    }
}

impl<S: Store, I: Store> IndexJoin<S, I> {
    /// The next joined row with the key of the index row that led to it.
    pub(super) fn poll_joined(
        &mut self,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Joined, StoreError>>> {
        let this = self;
        loop {
            if let Some(joined) = this.ready.pop_front() {
                return Poll::Ready(Some(Ok(joined)));
            }
            if this.finished {
                return Poll::Ready(None);
            }
            if this.fetch.is_some() {
                match this.poll_fetch(cx) {
                    Poll::Ready(Ok(())) => continue,
                    Poll::Ready(Err(e)) => return this.fail(e),
                    Poll::Pending => {
                        // Read ahead: the next batch's hits come in while
                        // this batch's main rows are read. An error waits
                        // until this batch's rows are out, as it would
                        // have without reading ahead.
                        if this.hits_error.is_none() {
                            if let Err(e) = this.poll_hits(cx) {
                                this.hits_error = Some(e);
                            }
                        }
                        return Poll::Pending;
                    }
                }
            }
            if let Some(e) = this.hits_error.take() {
                return this.fail(e);
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

impl<S: Store, I: Store> Stream for IndexJoin<S, I> {
    type Item = Result<Row, StoreError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.poll_joined(cx)
            .map(|joined| joined.map(|r| r.map(|(_, row)| row)))
    }
}

impl<S, I> Unpin for IndexJoin<S, I> {}

/// Where the join is: its hits query, hits waiting for their rows, rows
/// ready and the counts so far. The stores are left out: they need not be
/// `Debug`.
impl<S, I> fmt::Debug for IndexJoin<S, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IndexJoin")
            .field("hits", &self.hits)
            .field("hits_done", &self.hits_done)
            .field("hits_waiting", &self.batch.len())
            .field("batch_size", &self.batch_size)
            .field("fetching", &self.fetch.is_some())
            .field("rows_ready", &self.ready.len())
            .field("stats", &self.stats)
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}
