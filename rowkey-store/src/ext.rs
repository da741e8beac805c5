//! [`StoreExt`]: the typed operations every [`Store`] has, built on its
//! four raw ones.

use crate::atomic::counter_of;
use crate::{
    Cell, CellCheck, CellCondition, ConditionalWrite, ModifyRule, QueryOptions, QueryStream,
    ReadModifyWrite, ReadRequest, Record, Row, RowEdit, RowStream, Store, StoreError,
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

    /// Writes `records` as [`put_record`](Self::put_record) writes each,
    /// in one [`write_rows`](Store::write_rows) (which a store sends in
    /// batches); a record whose key or cells cannot be written fails the
    /// call before anything is sent.
    fn put_records<R: Record>(
        &self,
        records: &[R],
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        let rows: Result<Vec<Row>, _> = records.iter().map(Row::of_record).collect();
        let store = self.clone();
        async move { store.write_rows(rows?).await }
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

    /// The rows of many typed keys, in the keys' order: `None` where no
    /// row has the key (a key given twice gets its row twice). Read in
    /// batches of [`GET_MANY_BATCH`](crate::GET_MANY_BATCH) keys, one
    /// batched point read each ([`Store::read_keys`]: one
    /// `getRowsWithColumns` on HBase, one `ReadRows` on Bigtable), never
    /// a round trip per key. A key that cannot be encoded is an error
    /// before anything is read.
    ///
    /// ```
    /// use rowkey::store::{Cell, MemStore, StoreExt};
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Trip { city: u16, seq: u32 }
    ///
    /// # futures::executor::block_on(async {
    /// let store = MemStore::new();
    /// for seq in [1, 2, 3] {
    ///     store.put(&Trip { city: 3, seq }, vec![Cell::new("d", "fare", [seq as u8])]).await?;
    /// }
    /// let keys = [Trip { city: 3, seq: 3 }, Trip { city: 3, seq: 9 }, Trip { city: 3, seq: 1 }];
    /// let rows = store.get_many(&keys).await?;
    /// let fares: Vec<_> = rows.iter().map(|r| r.as_ref().map(|r| r.value("d", "fare").unwrap()[0])).collect();
    /// assert_eq!(fares, [Some(3), None, Some(1)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    fn get_many<K: RowKey>(
        &self,
        keys: &[K],
    ) -> impl Future<Output = Result<Vec<Option<Row>>, StoreError>> + Send {
        let keys: Result<Vec<Vec<u8>>, _> = keys.iter().map(RowKey::to_vec).collect();
        let store = self.clone();
        async move { crate::get_many::get_many(store, keys?, None).await }
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

    /// Writes `cells` under a typed key if the row has no cell in the
    /// column of the first of them, as one step of the server
    /// ([`Store::check_and_write`] with [`CellCondition::Absent`]);
    /// `Ok(true)` when it wrote them. Of many writers racing on one key,
    /// exactly one gets `true`.
    ///
    /// On HBase an empty cell counts as absent ([`CellCondition`]); HBase's
    /// Thrift 1 gateway writes one cell only (more is
    /// [`StoreError::Unsupported`]).
    ///
    /// ```
    /// # futures::executor::block_on(async {
    /// use rowkey::store::{Cell, MemStore, StoreExt};
    /// #[derive(rowkey::RowKey)] struct Name<'a> { #[max_len(64)] name: &'a str }
    /// let store = MemStore::new();
    /// let key = Name { name: "sys.cpu" };
    /// assert!(store.put_if_absent(&key, vec![Cell::new("id", "metrics", 1u64.to_be_bytes())]).await?);
    /// assert!(!store.put_if_absent(&key, vec![Cell::new("id", "metrics", 2u64.to_be_bytes())]).await?);
    /// # Ok::<(), rowkey::store::StoreError>(())
    /// # }).unwrap();
    /// ```
    fn put_if_absent<K: RowKey>(
        &self,
        key: &K,
        cells: Vec<Cell>,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        let write = key.to_vec().map_err(StoreError::from).and_then(|key| {
            let first = cells
                .first()
                .ok_or_else(|| StoreError::NoCells { key: key.clone() })?;
            let check = CellCheck::new(&first.family, &first.qualifier, CellCondition::Absent);
            Ok(ConditionalWrite::new(key, check)
                .on_true(cells.into_iter().map(RowEdit::Set).collect()))
        });
        let store = self.clone();
        async move { store.check_and_write(write?).await }
    }

    /// Sets cell `family:qualifier` of a typed key's row to `new` if it
    /// holds `expected` (`None`: if there is no such cell), as one step
    /// of the server; `Ok(true)` when it did. An empty `expected` is
    /// refused ([`StoreError::InvalidRequest`]): HBase cannot tell it
    /// from absent.
    ///
    /// ```
    /// # futures::executor::block_on(async {
    /// use rowkey::store::{MemStore, StoreExt};
    /// #[derive(rowkey::RowKey)] struct Job { id: u32 }
    /// let store = MemStore::new();
    /// let job = Job { id: 7 };
    /// assert!(store.compare_and_set(&job, "d", "state", None, "queued").await?);
    /// assert!(store.compare_and_set(&job, "d", "state", Some(b"queued"), "running").await?);
    /// assert!(!store.compare_and_set(&job, "d", "state", Some(b"queued"), "running").await?);
    /// # Ok::<(), rowkey::store::StoreError>(())
    /// # }).unwrap();
    /// ```
    fn compare_and_set<K: RowKey>(
        &self,
        key: &K,
        family: &str,
        qualifier: impl AsRef<[u8]>,
        expected: Option<&[u8]>,
        new: impl AsRef<[u8]>,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        let condition = match expected {
            None => CellCondition::Absent,
            Some(v) => CellCondition::Equals(v.to_vec()),
        };
        let check = CellCheck::new(family, qualifier.as_ref(), condition);
        let set = RowEdit::set(family, qualifier.as_ref(), new);
        let write = key
            .to_vec()
            .map(|key| ConditionalWrite::new(key, check).on_true(vec![set]));
        let store = self.clone();
        async move { store.check_and_write(write?).await }
    }

    /// Adds `by` to the 8-byte big-endian counter in cell
    /// `family:qualifier` of a typed key's row (a missing cell counts as
    /// 0), as one step of the server, and returns the new count. A cell
    /// of another length is [`StoreError::NotACounter`] on
    /// [`MemStore`](crate::MemStore) and a backend error elsewhere; it is
    /// left as it is. Never retried once it may have reached the server
    /// ([`StoreError::OutcomeUnknown`]).
    ///
    /// ```
    /// # futures::executor::block_on(async {
    /// use rowkey::store::{MemStore, StoreExt};
    /// #[derive(rowkey::RowKey)] struct Counter<'a> { #[max_len(64)] kind: &'a str }
    /// let store = MemStore::new();
    /// let ids = Counter { kind: "metrics" };
    /// assert_eq!(store.increment(&ids, "id", "max", 1).await?, 1);
    /// assert_eq!(store.increment(&ids, "id", "max", 10).await?, 11);
    /// # Ok::<(), rowkey::store::StoreError>(())
    /// # }).unwrap();
    /// ```
    fn increment<K: RowKey>(
        &self,
        key: &K,
        family: &str,
        qualifier: impl AsRef<[u8]>,
        by: i64,
    ) -> impl Future<Output = Result<i64, StoreError>> + Send {
        let (family, qualifier) = (family.to_owned(), qualifier.as_ref().to_vec());
        let rule = ModifyRule::increment(&family, &qualifier, by);
        let change = key
            .to_vec()
            .map(|key| ReadModifyWrite::new(key, vec![rule]));
        let store = self.clone();
        async move {
            let row = store.read_modify_write(change?).await?;
            counter_of(&row, &family, &qualifier)
        }
    }

    /// Appends `bytes` to cell `family:qualifier` of a typed key's row (a
    /// missing cell counts as empty), as one step of the server, and
    /// returns the new value. Once it may have reached the server it is
    /// applied at most once: sent again only where the server can tell a
    /// repeat (HBase natively: the same region server, by its nonce), else
    /// [`StoreError::OutcomeUnknown`].
    fn append<K: RowKey>(
        &self,
        key: &K,
        family: &str,
        qualifier: impl AsRef<[u8]>,
        bytes: impl AsRef<[u8]>,
    ) -> impl Future<Output = Result<Vec<u8>, StoreError>> + Send {
        let (family, qualifier) = (family.to_owned(), qualifier.as_ref().to_vec());
        let rule = ModifyRule::append(&family, &qualifier, bytes);
        let change = key
            .to_vec()
            .map(|key| ReadModifyWrite::new(key, vec![rule]));
        let store = self.clone();
        async move {
            let row = store.read_modify_write(change?).await?;
            row.value(&family, &qualifier)
                .map(<[u8]>::to_vec)
                .ok_or_else(|| {
                    StoreError::backend("append", "the store's answer has no cell appended to")
                })
        }
    }

    /// Writes one record ([`put_record`](Self::put_record)) if its row
    /// has no cell in the column of the record's first cell, as one step
    /// of the server; `Ok(true)` when it wrote it. The columns the record
    /// clears are cleared in the same step. On HBase's Thrift 1 gateway
    /// only a record of one cell that clears nothing can be written so.
    fn put_record_if_absent<R: Record>(
        &self,
        record: &R,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        let write = Row::of_record(record)
            .map_err(StoreError::from)
            .and_then(|row| {
                let first = row.cells.first().ok_or_else(|| StoreError::NoCells {
                    key: row.key.clone(),
                })?;
                let check = CellCheck::new(&first.family, &first.qualifier, CellCondition::Absent);
                let clears = row.clear.iter().map(|(f, q)| RowEdit::clear(f, q));
                let edits = clears
                    .chain(row.cells.into_iter().map(RowEdit::Set))
                    .collect();
                Ok(ConditionalWrite::new(row.key, check).on_true(edits))
            });
        let store = self.clone();
        async move { store.check_and_write(write?).await }
    }
}

impl<S: Store> StoreExt for S {}
