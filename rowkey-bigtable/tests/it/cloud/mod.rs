//! What Cloud Bigtable does and the emulator does not, against a scripted
//! server (`rowkey_fixtures::bigtable_mock`): statuses that carry
//! `RetryInfo`, routing cookies, `last_scanned_row_key`, partial
//! `MutateRows` failures, slow answers. Each test is one of the store's
//! answers to Google's client conformance suite, checked without Go:
//! reads and what every call carries (`reads.rs`), writes (`writes.rs`).

mod reads;
mod writes;

use futures::{StreamExt, TryStreamExt};
use rowkey::store::{KeyRange, ReadRequest, RetryPolicy, Store, StoreError, StoreExt};
use rowkey_bigtable::{BigtableStore, Mutation, RowMutation};
use rowkey_fixtures::bigtable_mock::{
    retry_info, row, scanned, with_cookie, MockBigtable, Received, Step,
};
use std::time::{Duration, Instant};
use tonic::{Code, Status};

use bigtable_rs::google::bigtable::v2::mutate_rows_response::Entry as Reported;
use bigtable_rs::google::bigtable::v2::row_range::{EndKey, StartKey};
use bigtable_rs::google::bigtable::v2::{
    MutateRowsResponse, ReadRowsRequest, RowRange, SampleRowKeysResponse,
};

pub(super) const TABLE: &str = "projects/p/instances/i/tables/t";

pub(super) async fn store(mock: &MockBigtable) -> BigtableStore {
    BigtableStore::connect_emulator(&mock.addr, "p", "i", "t")
        .await
        .unwrap()
        .with_retry(
            RetryPolicy::default()
                .backoff_between(Duration::from_millis(10), Duration::from_millis(100)),
        )
}

pub(super) fn whole_table() -> ReadRequest {
    ReadRequest::new([KeyRange::new(Vec::new(), None)])
}

pub(super) fn reads(mock: &MockBigtable) -> Vec<ReadRowsRequest> {
    mock.calls()
        .into_iter()
        .filter_map(|c| match c.request {
            Received::ReadRows(r) => Some(r),
            _ => None,
        })
        .collect()
}

pub(super) fn keys(rows: &[rowkey::store::Row]) -> Vec<String> {
    rows.iter()
        .map(|r| String::from_utf8_lossy(&r.key).into_owned())
        .collect()
}

pub(super) fn code(e: &StoreError) -> Option<Code> {
    e.backend_source()?
        .downcast_ref::<Status>()
        .map(Status::code)
}

pub(super) fn unavailable() -> Status {
    Status::unavailable("try again")
}
