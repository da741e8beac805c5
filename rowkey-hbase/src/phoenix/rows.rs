//! [`PhoenixRows`]: a Phoenix table's rows as records, in a store, opened
//! against the table's catalog definition: the record is checked to be
//! the table's row, and writes are refused where writing the table's
//! cells from outside Phoenix would leave it other than Phoenix's own
//! writes do (its indexes, a transaction, a view's `WHERE`, a
//! `ROW_TIMESTAMP` column).

use super::catalog::PhoenixTable;
use super::check::KeyMismatch;
use rowkey_core::RowKey;
use rowkey_store::{Record, Store, StoreError, StoreExt};
use std::fmt;
use std::marker::PhantomData;

/// The rows of one Phoenix table as records `R` in the store `S`
/// ([`PhoenixTable::rows`]).
#[derive(Debug, Clone)]
pub struct PhoenixRows<S, R> {
    store: S,
    table: String,
    refusal: Option<String>,
    record: PhantomData<fn() -> R>,
}

/// Why a write to a Phoenix table did not happen.
#[derive(Debug)]
#[non_exhaustive]
pub enum PhoenixWriteError {
    /// Cells written from outside Phoenix would leave the table other
    /// than Phoenix's writes do; nothing was sent. Write through Phoenix.
    Refused {
        /// The table.
        table: String,
        /// Why ([`PhoenixTable::write_refusal`]).
        why: String,
    },
    /// The store refused or failed the write.
    Store(StoreError),
}

impl fmt::Display for PhoenixWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PhoenixWriteError::Refused { table, why } => write!(
                f,
                "cannot write Phoenix table {table} from outside Phoenix: {why}; write it \
                 through Phoenix"
            ),
            PhoenixWriteError::Store(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl std::error::Error for PhoenixWriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PhoenixWriteError::Refused { .. } => None,
            PhoenixWriteError::Store(e) => e.source(),
        }
    }
}

impl From<StoreError> for PhoenixWriteError {
    fn from(e: StoreError) -> Self {
        PhoenixWriteError::Store(e)
    }
}

impl PhoenixTable {
    /// The table's rows as records `R` in `store` (the table's HBase
    /// table): refused when `R` is not the table's row
    /// ([`check_record`](Self::check_record)), and their writes refused
    /// where [`write_refusal`](Self::write_refusal) says why.
    ///
    /// # Errors
    /// Every way `R` differs from the table.
    pub fn rows<S: Store, R: Record>(
        &self,
        store: S,
    ) -> Result<PhoenixRows<S, R>, Vec<KeyMismatch>> {
        self.check_record::<R>()?;
        Ok(PhoenixRows {
            store,
            table: self.full_name(),
            refusal: self.write_refusal(),
            record: PhantomData,
        })
    }
}

impl<S: Store, R: Record + Sync> PhoenixRows<S, R> {
    /// The record of the row with this key, if there is one.
    pub async fn get(&self, key: &R::Key) -> Result<Option<R>, StoreError> {
        self.store.get_record::<R>(key).await
    }

    /// Writes `records` ([`StoreExt::put_records`]), unless the table's
    /// writes are refused.
    pub async fn put(&self, records: &[R]) -> Result<(), PhoenixWriteError> {
        self.refuse()?;
        Ok(self.store.put_records(records).await?)
    }

    /// Deletes the rows with these keys, every cell of each, as
    /// Phoenix's `DELETE .. WHERE` of each whole key does (a key with no
    /// row is not an error), unless the table's writes are refused: a
    /// delete from outside Phoenix would leave its index rows behind.
    pub async fn delete(&self, keys: &[R::Key]) -> Result<(), PhoenixWriteError> {
        self.refuse()?;
        let keys = keys
            .iter()
            .map(|k| k.to_vec())
            .collect::<Result<Vec<_>, _>>()
            .map_err(StoreError::from)?;
        Ok(self.store.delete_rows(keys).await?)
    }

    fn refuse(&self) -> Result<(), PhoenixWriteError> {
        match &self.refusal {
            Some(why) => Err(PhoenixWriteError::Refused {
                table: self.table.clone(),
                why: why.clone(),
            }),
            None => Ok(()),
        }
    }

    /// Why the table's writes are refused, if they are.
    pub fn write_refusal(&self) -> Option<&str> {
        self.refusal.as_deref()
    }

    /// The store, for reads of the table's rows (`read_rows`, then
    /// [`Record::from_row`]).
    pub fn store(&self) -> &S {
        &self.store
    }
}
