//! [`DynStore`]: any [`Store`] behind one type, for applications that
//! pick their backend at run time.

use crate::{
    Columns, ConditionalWrite, KeyLimit, ParkedWalks, ReadModifyWrite, ReadRequest, Row, RowStream,
    Store, StoreError,
};
use std::any::Any;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// A write or delete of a boxed store.
type BoxedWrite = Pin<Box<dyn Future<Output = Result<(), StoreError>> + Send + 'static>>;
/// A boxed future of `T`.
type Boxed<T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'static>>;

/// [`Store`] with its futures boxed: object safe, so a [`DynStore`] can
/// hold any store behind one pointer.
trait ErasedStore: Send + Sync + 'static {
    fn key_limit(&self) -> KeyLimit;
    fn write_rows(&self, rows: Vec<Row>) -> BoxedWrite;
    fn delete_rows(&self, keys: Vec<Vec<u8>>) -> BoxedWrite;
    fn read_rows(&self, request: ReadRequest) -> RowStream;
    fn read_keys(&self, keys: Vec<Vec<u8>>, columns: Option<Columns>) -> RowStream;
    fn parked_walks(&self) -> Option<&ParkedWalks>;
    fn check_and_write(&self, write: ConditionalWrite) -> Boxed<bool>;
    fn read_modify_write(&self, change: ReadModifyWrite) -> Boxed<Row>;
    /// The store's type, for `Debug`.
    fn type_name(&self) -> &'static str;
    fn as_any(&self) -> &dyn Any;
}

impl<S: Store> ErasedStore for S {
    fn key_limit(&self) -> KeyLimit {
        Store::key_limit(self)
    }

    fn write_rows(&self, rows: Vec<Row>) -> BoxedWrite {
        // The future may borrow the store: it owns a clone of the handle.
        let store = self.clone();
        Box::pin(async move { Store::write_rows(&store, rows).await })
    }

    fn delete_rows(&self, keys: Vec<Vec<u8>>) -> BoxedWrite {
        let store = self.clone();
        Box::pin(async move { Store::delete_rows(&store, keys).await })
    }

    fn parked_walks(&self) -> Option<&ParkedWalks> {
        Store::parked_walks(self)
    }

    fn check_and_write(&self, write: ConditionalWrite) -> Boxed<bool> {
        let store = self.clone();
        Box::pin(async move { Store::check_and_write(&store, write).await })
    }

    fn read_modify_write(&self, change: ReadModifyWrite) -> Boxed<Row> {
        let store = self.clone();
        Box::pin(async move { Store::read_modify_write(&store, change).await })
    }

    fn read_rows(&self, request: ReadRequest) -> RowStream {
        Store::read_rows(self, request)
    }

    fn read_keys(&self, keys: Vec<Vec<u8>>, columns: Option<Columns>) -> RowStream {
        Store::read_keys(self, keys, columns)
    }

    fn type_name(&self) -> &'static str {
        std::any::type_name::<S>()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Any [`Store`], chosen at run time: `Box<dyn Store>` for a trait that
/// is not object safe.
///
/// [`Store`]'s futures are `impl Future` and it is `Clone`, so `dyn Store`
/// does not exist; `DynStore` boxes each write's future instead (reads
/// are boxed streams already) and is itself a [`Store`], so every typed
/// operation of [`StoreExt`](crate::StoreExt), index tables and the
/// blocking layer work on it unchanged. The cost is one allocation per
/// write or delete call, none per row.
///
/// Clones share the store underneath, as the store's own clones do.
///
/// ```
/// use futures::TryStreamExt;
/// use rowkey::store::{Cell, DynStore, KeyLimit, MemStore, Store, StoreError, StoreExt};
/// use rowkey::RowKey;
///
/// /// The backend named in the configuration. With the `bigtable`
/// /// feature, `"bigtable"` would be
/// /// `DynStore::new(BigtableStore::connect(project, instance, table).await?)`.
/// fn open(backend: &str) -> Result<DynStore, StoreError> {
///     match backend {
///         "memory" => Ok(DynStore::new(MemStore::new())),
///         "memory-hbase" => Ok(DynStore::new(MemStore::with_key_limit(KeyLimit::HBASE))),
///         other => Err(StoreError::backend("open a store", format!("no backend {other:?}"))),
///     }
/// }
///
/// #[derive(RowKey)]
/// struct Op { uid: u64, seq: u32 }
///
/// # futures::executor::block_on(async {
/// let store = open("memory")?;
/// store.put(&Op { uid: 1, seq: 1 }, vec![Cell::new("d", "v", "x")]).await?;
/// let rows: Vec<_> = store.query(&Op::scan().uid.eq(1).plan()?).try_collect().await?;
/// assert_eq!(rows.len(), 1);
/// assert_eq!(open("memory-hbase")?.key_limit(), KeyLimit::HBASE);
/// assert!(open("carrier pigeon").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Clone)]
pub struct DynStore {
    store: Arc<dyn ErasedStore>,
}

impl DynStore {
    /// `store` behind a `DynStore`. A `DynStore` given here is returned as
    /// it is, not boxed again.
    pub fn new<S: Store>(store: S) -> Self {
        if let Some(boxed) = (&store as &dyn Any).downcast_ref::<DynStore>() {
            return boxed.clone();
        }
        DynStore {
            store: Arc::new(store),
        }
    }

    /// The store underneath, if it is an `S`.
    pub fn downcast_ref<S: Store>(&self) -> Option<&S> {
        self.store.as_any().downcast_ref()
    }
}

impl Store for DynStore {
    fn key_limit(&self) -> KeyLimit {
        self.store.key_limit()
    }

    fn write_rows(&self, rows: Vec<Row>) -> impl Future<Output = Result<(), StoreError>> + Send {
        self.store.write_rows(rows)
    }

    fn delete_rows(
        &self,
        keys: Vec<Vec<u8>>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        self.store.delete_rows(keys)
    }

    fn read_rows(&self, request: ReadRequest) -> RowStream {
        self.store.read_rows(request)
    }

    /// The boxed store's own batched point read (a multi-get where it has
    /// one).
    fn read_keys(&self, keys: Vec<Vec<u8>>, columns: Option<Columns>) -> RowStream {
        self.store.read_keys(keys, columns)
    }

    fn parked_walks(&self) -> Option<&ParkedWalks> {
        self.store.parked_walks()
    }

    fn check_and_write(
        &self,
        write: ConditionalWrite,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        self.store.check_and_write(write)
    }

    fn read_modify_write(
        &self,
        change: ReadModifyWrite,
    ) -> impl Future<Output = Result<Row, StoreError>> + Send {
        self.store.read_modify_write(change)
    }
}

/// The type of the store underneath.
impl fmt::Debug for DynStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("DynStore")
            .field(&format_args!("{}", self.store.type_name()))
            .finish()
    }
}
