//! Mutations as Bigtable takes them: [`Mutation`]s of one row
//! ([`RowMutation`]), sent alone (`MutateRow`,
//! [`BigtableStore::mutate_row`](crate::BigtableStore::mutate_row)) or in
//! bulk (`MutateRows`,
//! [`BigtableStore::mutate_rows`](crate::BigtableStore::mutate_rows), each
//! row's outcome reported: [`MutateRowsError`]).

use crate::call::{chain, Call};
use crate::status::store_error;
use crate::target::Target;
use bigtable_rs::google::bigtable::v2::mutation::{
    DeleteFromColumn, DeleteFromFamily, DeleteFromRow, Mutation as Op, SetCell,
};
use bigtable_rs::google::bigtable::v2::{self as v2, MutateRowRequest, TimestampRange};
use rowkey_core::KeyDisplay;
use rowkey_store::StoreError;
use std::fmt;

/// One change to a row.
///
/// ```
/// use rowkey_bigtable::Mutation;
/// let set = Mutation::set_cell("d", "amount", "42");
/// assert!(!set.is_idempotent()); // the server's time: a retry writes a new version
/// assert!(Mutation::set_cell_at("d", "amount", 1_000, "42").is_idempotent());
/// assert!(Mutation::DeleteRow.is_idempotent());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mutation {
    /// Sets one version of a cell.
    SetCell {
        /// The column family.
        family: String,
        /// The column qualifier.
        qualifier: Vec<u8>,
        /// The version's timestamp in microseconds; `None`: the server's
        /// time when it applies the mutation.
        timestamp_micros: Option<i64>,
        /// The value.
        value: Vec<u8>,
    },
    /// Deletes the versions of a column whose timestamps are in
    /// `[start_micros, end_micros)` (`None`: unbounded on that side).
    DeleteCells {
        /// The column family.
        family: String,
        /// The column qualifier.
        qualifier: Vec<u8>,
        /// The first timestamp deleted.
        start_micros: Option<i64>,
        /// The first timestamp kept after the deleted ones.
        end_micros: Option<i64>,
    },
    /// Deletes every cell of a family.
    DeleteFamily {
        /// The column family.
        family: String,
    },
    /// Deletes the whole row.
    DeleteRow,
}

impl Mutation {
    /// A cell set at the server's time.
    pub fn set_cell(
        family: impl Into<String>,
        qualifier: impl AsRef<[u8]>,
        value: impl AsRef<[u8]>,
    ) -> Self {
        Mutation::SetCell {
            family: family.into(),
            qualifier: qualifier.as_ref().to_vec(),
            timestamp_micros: None,
            value: value.as_ref().to_vec(),
        }
    }

    /// A cell set at `timestamp_micros`.
    pub fn set_cell_at(
        family: impl Into<String>,
        qualifier: impl AsRef<[u8]>,
        timestamp_micros: i64,
        value: impl AsRef<[u8]>,
    ) -> Self {
        Mutation::SetCell {
            family: family.into(),
            qualifier: qualifier.as_ref().to_vec(),
            timestamp_micros: Some(timestamp_micros),
            value: value.as_ref().to_vec(),
        }
    }

    /// Whether applying it twice is applying it once: everything but a
    /// cell set at the server's time, which a second time writes a second
    /// version. Only idempotent mutations are retried by
    /// [`BigtableStore::mutate_row`](crate::BigtableStore::mutate_row) and
    /// [`BigtableStore::mutate_rows`](crate::BigtableStore::mutate_rows).
    pub fn is_idempotent(&self) -> bool {
        !matches!(
            self,
            Mutation::SetCell {
                timestamp_micros: None,
                ..
            }
        )
    }

    /// The mutation on the wire.
    pub(crate) fn to_proto(&self) -> v2::Mutation {
        let op = match self {
            Mutation::SetCell {
                family,
                qualifier,
                timestamp_micros,
                value,
            } => Op::SetCell(SetCell {
                family_name: family.clone(),
                column_qualifier: qualifier.clone(),
                // -1: the server's time.
                timestamp_micros: timestamp_micros.unwrap_or(-1),
                value: value.clone(),
            }),
            Mutation::DeleteCells {
                family,
                qualifier,
                start_micros,
                end_micros,
            } => Op::DeleteFromColumn(DeleteFromColumn {
                family_name: family.clone(),
                column_qualifier: qualifier.clone(),
                time_range: (start_micros.is_some() || end_micros.is_some()).then(|| {
                    TimestampRange {
                        // 0 is the first timestamp; an end of 0 is none.
                        start_timestamp_micros: start_micros.unwrap_or(0),
                        end_timestamp_micros: end_micros.unwrap_or(0),
                    }
                }),
            }),
            Mutation::DeleteFamily { family } => Op::DeleteFromFamily(DeleteFromFamily {
                family_name: family.clone(),
            }),
            Mutation::DeleteRow => Op::DeleteFromRow(DeleteFromRow {}),
        };
        v2::Mutation { mutation: Some(op) }
    }
}

/// The mutations of one row, applied together: all or none.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct RowMutation {
    /// The row key.
    pub key: Vec<u8>,
    /// Its mutations, in order.
    pub mutations: Vec<Mutation>,
}

impl RowMutation {
    /// The mutations of row `key`.
    pub fn new(key: impl Into<Vec<u8>>, mutations: Vec<Mutation>) -> Self {
        RowMutation {
            key: key.into(),
            mutations,
        }
    }

    /// Whether every mutation is idempotent.
    pub fn is_idempotent(&self) -> bool {
        self.mutations.iter().all(Mutation::is_idempotent)
    }
}

/// One row of a [`mutate_rows`](crate::BigtableStore::mutate_rows) that
/// was not written.
#[derive(Debug)]
#[non_exhaustive]
pub struct FailedMutation {
    /// Its index in the rows given.
    pub index: usize,
    /// Its key.
    pub key: Vec<u8>,
    /// Why: a [`StoreError::Backend`] whose source is the `tonic::Status`
    /// the server reported for the row (or the call's own, when the call
    /// failed before the row's was reported), after every attempt made.
    pub error: StoreError,
}

/// The rows of a [`mutate_rows`](crate::BigtableStore::mutate_rows) that
/// were not written, each with its own error; every other row was.
#[derive(Debug)]
pub struct MutateRowsError {
    pub(crate) rows: usize,
    pub(crate) failed: Vec<FailedMutation>,
}

impl MutateRowsError {
    /// The rows not written, by index.
    pub fn failed(&self) -> &[FailedMutation] {
        &self.failed
    }

    /// The rows not written, owned.
    pub fn into_failed(self) -> Vec<FailedMutation> {
        self.failed
    }

    /// How many rows the call was given.
    pub fn rows(&self) -> usize {
        self.rows
    }
}

impl fmt::Display for MutateRowsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} of {} row mutations failed",
            self.failed.len(),
            self.rows
        )?;
        if let Some(first) = self.failed.first() {
            write!(
                f,
                "; the first, row {} (#{}): {}",
                KeyDisplay(&first.key),
                first.index,
                chain(&first.error)
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for MutateRowsError {}

/// One `MutateRow` call, retried (idempotent mutations only) on transient
/// failures as the store's policy and the server's `RetryInfo` say.
pub(crate) async fn mutate_row(target: &Target, row: RowMutation) -> Result<(), StoreError> {
    let _writing = target.epoch.writing();
    let op = "mutate row";
    let idempotent = row.is_idempotent();
    let message = MutateRowRequest {
        table_name: target.table.to_string(),
        app_profile_id: target.app_profile.to_string(),
        row_key: row.key,
        mutations: row.mutations.iter().map(Mutation::to_proto).collect(),
        ..MutateRowRequest::default()
    };
    let mut call = Call::start(target, op);
    let idle = target.retry.idle_timeout;
    loop {
        let request = call.request(target, message.clone());
        let mut client = target.client.clone();
        let error = match call
            .within(idle, "the request", client.get_client().mutate_row(request))
            .await
        {
            Ok(Ok(_)) => return Ok(()),
            Ok(Err(status)) => store_error(op, status),
            Err(e) => e,
        };
        call.retry_after(if idempotent {
            error
        } else {
            // Sent again, it would write again: never retried.
            not_resent(error)
        })
        .await?;
    }
}

/// `e` of a call not sent again: a transient failure after the request
/// may have reached the server is [`StoreError::OutcomeUnknown`], any
/// other is permanent.
pub(crate) fn not_resent(e: StoreError) -> StoreError {
    match e {
        StoreError::Backend {
            op,
            transient: true,
            attempts,
            source,
        } if !never_sent_source(source.as_ref()) => StoreError::OutcomeUnknown {
            op,
            attempts,
            source,
        },
        e => permanent(e),
    }
}

fn never_sent_source(source: &(dyn std::error::Error + Send + Sync + 'static)) -> bool {
    crate::bulk::never_sent_text(&chain(source))
}

/// `e`, not to be retried.
pub(crate) fn permanent(mut e: StoreError) -> StoreError {
    if let StoreError::Backend { transient, .. } = &mut e {
        *transient = false;
    }
    e
}
