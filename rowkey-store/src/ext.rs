//! [`StoreExt`]: the typed operations every [`Store`] has, built on its
//! four raw ones.

use crate::{
    Cell, QueryOptions, QueryStream, ReadRequest, Record, Row, RowStream, Store, StoreError,
};
use rowkey_core::scan::{Cursor, Page, Resume, ScanPlan, ScanRange};
use rowkey_core::RowKey;
use std::future::Future;

/// The typed operations of a [`Store`]: typed keys in, rows out, plans
/// read and merged in logical key order, keyset pages.
///
/// Every store has them through the blanket impl (`impl<S: Store>
/// StoreExt for S`), built only on [`Store`]'s four raw operations: a
/// backend cannot implement this trait itself, so it cannot change what
/// `put` or `query` mean by accident. Bring it into scope to call them:
/// `use rowkey::store::StoreExt`.
///
/// ```
/// use rowkey::store::{Cell, MemStore, StoreExt};
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct Reading {
///     device: u32,
///     seq: u32,
/// }
///
/// # futures::executor::block_on(async {
/// let store = MemStore::new();
/// for seq in 0..10 {
///     store.put(&Reading { device: 1, seq }, vec![Cell::new("d", "v", [seq as u8])]).await?;
/// }
/// let row = store.get(&Reading { device: 1, seq: 4 }).await?.expect("written");
/// assert_eq!(row.value("d", "v"), Some(&[4u8][..]));
/// // Keyset pages of 4: resume after the last key of the previous page.
/// let plan = Reading::scan().device.eq(1).plan()?;
/// let first = store.page(&plan, None, 4).await?;
/// let second = store.page(&plan, first.next.as_ref(), 4).await?;
/// assert_eq!(second.rows[0].key_as::<Reading>()?, Reading { device: 1, seq: 4 });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
pub trait StoreExt: Store {
    /// The row with exactly this key.
    fn read_row(&self, key: &[u8]) -> impl Future<Output = Result<Option<Row>, StoreError>> + Send {
        let rows = self
            .key_limit()
            .check("read row", key)
            .map(|()| self.read_rows(ReadRequest::row(key)));
        async move {
            let mut rows = rows?;
            let first = std::future::poll_fn(|cx| rows.as_mut().poll_next(cx)).await;
            first.transpose()
        }
    }

    /// The row with exactly this key, only the columns of the record `R`
    /// ([`Record::columns`]).
    #[doc(hidden)]
    fn read_record_row<R: Record>(
        &self,
        key: &[u8],
    ) -> impl Future<Output = Result<Option<Row>, StoreError>> + Send {
        let rows = self.key_limit().check("read row", key).map(|()| {
            let mut request = ReadRequest::row(key);
            if let Some(columns) = R::columns() {
                request = request.with_columns(columns);
            }
            self.read_rows(request)
        });
        async move {
            let mut rows = rows?;
            let first = std::future::poll_fn(|cx| rows.as_mut().poll_next(cx)).await;
            first.transpose()
        }
    }

    /// The record stored under `key`, read with only its columns
    /// ([`Record::columns`]); `None` if there is no such row (or, for a
    /// record that names its columns, the row has none of them). A row
    /// that does not read back as the record is
    /// [`StoreError::BadRecord`].
    fn get_record<R: Record>(
        &self,
        key: &R::Key,
    ) -> impl Future<Output = Result<Option<R>, StoreError>> + Send {
        let key = key.to_vec();
        let store = self.clone();
        async move {
            let Some(row) = store.read_record_row::<R>(&key?).await? else {
                return Ok(None);
            };
            R::from_row(&row)
                .map(Some)
                .map_err(|source| StoreError::BadRecord {
                    op: "read a record",
                    key: row.key,
                    source: source.into(),
                })
        }
    }

    /// Writes one record: its key ([`Record::key`]) and its cells
    /// ([`Record::cells`]), clearing the columns it names
    /// ([`Record::columns`]) but has no cell for, so that a record written
    /// over an older version reads back as itself (an `Option` field now
    /// `None` loses its old cell).
    fn put_record<R: Record>(
        &self,
        record: &R,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        let row = Row::of_record(record);
        let store = self.clone();
        async move { store.write_rows(vec![row?]).await }
    }

    /// Writes one row under a typed key.
    fn put<K: RowKey>(
        &self,
        key: &K,
        cells: Vec<Cell>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        let row = key.to_vec().map(|key| Row::new(key, cells));
        let store = self.clone();
        async move { store.write_rows(vec![row?]).await }
    }

    /// Deletes the row of a typed key, if there is one.
    fn delete<K: RowKey>(&self, key: &K) -> impl Future<Output = Result<(), StoreError>> + Send {
        let key = key.to_vec();
        let store = self.clone();
        async move { store.delete_rows(vec![key?]).await }
    }

    /// The row of a typed key (a point get).
    fn get<K: RowKey>(
        &self,
        key: &K,
    ) -> impl Future<Output = Result<Option<Row>, StoreError>> + Send {
        let key = key.to_vec();
        let store = self.clone();
        async move { store.read_row(&key?).await }
    }

    /// The rows of one range, in key order.
    fn scan<const N: usize>(&self, range: &ScanRange<N>) -> RowStream {
        self.read_rows(ReadRequest::range(range))
    }

    /// The rows of a plan in logical key order (the salt prefix ignored,
    /// so a salted key's buckets come back as one sorted sequence), cut at
    /// the plan's limit. Ranges are read concurrently and merged with
    /// bounded memory: see [`QueryOptions`] for the defaults.
    fn query<const N: usize>(&self, plan: &ScanPlan<N>) -> QueryStream<Self> {
        QueryStream::new(self.clone(), plan, QueryOptions::default())
    }

    /// [`query`](StoreExt::query) with chosen concurrency and page size.
    fn query_with<const N: usize>(
        &self,
        plan: &ScanPlan<N>,
        options: QueryOptions,
    ) -> QueryStream<Self> {
        QueryStream::new(self.clone(), plan, options)
    }

    /// The rows of a plan in stored key order (bucket after bucket, not
    /// merged), in one multi-range read. Cheaper than
    /// [`query`](StoreExt::query) when the order does not matter: one request
    /// instead of one per bucket.
    fn read_plan<const N: usize>(&self, plan: &ScanPlan<N>) -> RowStream {
        self.read_rows(ReadRequest::plan(plan))
    }

    /// One keyset page of a plan: up to `size` rows (at least 1) after
    /// `resume`, the previous page's [`Page::next`]. A plan's own limit
    /// caps the rows of all its pages together (the cursor counts them).
    ///
    /// A cursor the plan did not give out, or one changed on the way back
    /// (see [`Cursor`]), is [`StoreError::InvalidCursor`], before anything
    /// is read.
    ///
    /// Pages read what the table holds when each is read: there is no
    /// snapshot. A row written behind the cursor after its page was read
    /// is not in a later page, and neither is an indexed record that
    /// [`IndexedStore::update_record`](crate::IndexedStore::update_record) moves back past the cursor (its
    /// new index row sorts before it) while the pages run.
    ///
    /// **A walk costs about one query.** On a store with
    /// [`parked_walks`](Store::parked_walks) (Bigtable, HBase, MemStore),
    /// a page parks its read under the cursor it returns, and the page
    /// given that cursor back goes on with it: each range is asked for
    /// rows about `log(rows)` times over the walk, not once a page. The
    /// first page of a walk reads at most `2n + 2B` rows (`n` rows over `B`
    /// ranges); later pages read ahead more, so that a walk never has read
    /// more than about five times the rows it returned (plus the first
    /// page's budget), and at most 10,000 rows ahead. A walk is parked for
    /// up to 20 seconds, and only while no write of the store's client went
    /// by: a page asked for after a write returned reads afresh.
    fn page<const N: usize>(
        &self,
        plan: &ScanPlan<N>,
        resume: Option<&Cursor>,
        size: usize,
    ) -> impl Future<Output = Result<Page<Row>, StoreError>> + Send {
        let resumed = Resume::new(plan, resume, size).map_err(StoreError::from);
        crate::page::page(
            self.clone(),
            resumed,
            plan.limit().is_some(),
            resume.cloned(),
        )
    }
}

impl<S: Store> StoreExt for S {}
