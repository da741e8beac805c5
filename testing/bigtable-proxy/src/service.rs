//! `google.bigtable.testproxy.CloudBigtableV2TestProxy` over
//! [`BigtableStore`](rowkey_bigtable::BigtableStore): each data request
//! goes through the store's own API (`read_versions`, `mutate_row`,
//! `mutate_rows`, `sample_row_keys`, `check_and_mutate_row`,
//! `read_modify_write_row`); what the store returns, rows or an
//! error, is the result, with the error as its status. A failure of the
//! proxy itself (an unknown or closed client, a request the store cannot
//! express) is the call's own gRPC error instead.

use crate::clients::Clients;
use crate::convert::{
    modify_rules, mutations, read_request, row, row_filter, row_mutation, rpc_status, status,
};
use crate::proto::google::bigtable::testproxy::cloud_bigtable_v2_test_proxy_server::CloudBigtableV2TestProxy;
use crate::proto::google::bigtable::testproxy::*;
use crate::proto::google::bigtable::v2 as pb;
use futures_util::StreamExt;
use rowkey_store::ReadRequest;
use tonic::{Code, Request, Response, Status};

/// The proxy: its clients.
#[derive(Default)]
pub struct Proxy {
    clients: Clients,
}

type Answer<T> = Result<Response<T>, Status>;

#[tonic::async_trait]
impl CloudBigtableV2TestProxy for Proxy {
    async fn create_client(
        &self,
        request: Request<CreateClientRequest>,
    ) -> Answer<CreateClientResponse> {
        self.clients.create(request.into_inner()).await?;
        Ok(Response::new(CreateClientResponse {}))
    }

    async fn close_client(
        &self,
        request: Request<CloseClientRequest>,
    ) -> Answer<CloseClientResponse> {
        self.clients.close(&request.into_inner().client_id)?;
        Ok(Response::new(CloseClientResponse {}))
    }

    async fn remove_client(
        &self,
        request: Request<RemoveClientRequest>,
    ) -> Answer<RemoveClientResponse> {
        self.clients.remove(&request.into_inner().client_id)?;
        Ok(Response::new(RemoveClientResponse {}))
    }

    async fn read_row(&self, request: Request<ReadRowRequest>) -> Answer<RowResult> {
        let request = request.into_inner();
        if let Some(filter) = &request.filter {
            return Err(Status::unimplemented(format!(
                "BigtableStore reads whole rows: it cannot express the filter {filter:?}"
            )));
        }
        let store = self
            .clients
            .store(&request.client_id, &request.table_name)?;
        let key = request.row_key.into_bytes();
        let mut rows = store.read_versions(ReadRequest::row(&key));
        Ok(Response::new(match rows.next().await {
            None => RowResult::default(),
            Some(Ok(found)) => RowResult {
                status: None,
                row: Some(row(found)),
            },
            Some(Err(e)) => RowResult {
                status: Some(rpc_status(&e)),
                row: None,
            },
        }))
    }

    async fn read_rows(&self, request: Request<ReadRowsRequest>) -> Answer<RowsResult> {
        let request = request.into_inner();
        let read = request.request.unwrap_or_default();
        let wanted = read_request(&read)?;
        let store = self.clients.store(&request.client_id, &read.table_name)?;
        let store = match read.app_profile_id.as_str() {
            "" => store,
            profile => store.with_app_profile(profile),
        };
        // Cancel after this many rows: the stream is dropped.
        let cancel_after = usize::try_from(request.cancel_after_rows)
            .ok()
            .filter(|n| *n > 0);
        let mut stream = store.read_versions(wanted);
        let mut result = RowsResult::default();
        while cancel_after.is_none_or(|n| result.rows.len() < n) {
            match stream.next().await {
                None => break,
                Some(Ok(found)) => result.rows.push(row(found)),
                Some(Err(e)) => {
                    result.status = Some(rpc_status(&e));
                    break;
                }
            }
        }
        Ok(Response::new(result))
    }

    async fn mutate_row(&self, request: Request<MutateRowRequest>) -> Answer<MutateRowResult> {
        let request = request.into_inner();
        let mutate = request.request.unwrap_or_default();
        let store = self.clients.store(&request.client_id, &mutate.table_name)?;
        let row = row_mutation(&mutate.row_key, &mutate.mutations)?;
        Ok(Response::new(MutateRowResult {
            status: store.mutate_row(row).await.err().map(|e| rpc_status(&e)),
        }))
    }

    async fn bulk_mutate_rows(
        &self,
        request: Request<MutateRowsRequest>,
    ) -> Answer<MutateRowsResult> {
        let request = request.into_inner();
        let mutate = request.request.unwrap_or_default();
        let store = self.clients.store(&request.client_id, &mutate.table_name)?;
        let rows = mutate
            .entries
            .iter()
            .map(|e| row_mutation(&e.row_key, &e.mutations))
            .collect::<Result<Vec<_>, _>>()?;
        let Err(failed) = store.mutate_rows(rows).await else {
            return Ok(Response::new(MutateRowsResult::default()));
        };
        // The call's status: the first failed row's code, and the count.
        let code = failed
            .failed()
            .first()
            .map_or(Code::Unknown as i32, |f| rpc_status(&f.error).code);
        let overall = status(Code::from_i32(code), failed.to_string());
        let entries = failed
            .into_failed()
            .into_iter()
            .map(|f| pb::mutate_rows_response::Entry {
                index: i64::try_from(f.index).unwrap_or(i64::MAX),
                status: Some(rpc_status(&f.error)),
            })
            .collect();
        Ok(Response::new(MutateRowsResult {
            status: Some(overall),
            entries,
        }))
    }

    async fn check_and_mutate_row(
        &self,
        request: Request<CheckAndMutateRowRequest>,
    ) -> Answer<CheckAndMutateRowResult> {
        let request = request.into_inner();
        let check = request.request.unwrap_or_default();
        let store = self.clients.store(&request.client_id, &check.table_name)?;
        let store = match check.app_profile_id.as_str() {
            "" => store,
            profile => store.with_app_profile(profile),
        };
        let predicate = check
            .predicate_filter
            .as_ref()
            .map(row_filter)
            .transpose()?;
        let on_true = mutations(&check.true_mutations)?;
        let on_false = mutations(&check.false_mutations)?;
        let answer = store
            .check_and_mutate_row(check.row_key, predicate, on_true, on_false)
            .await;
        Ok(Response::new(match answer {
            Ok(predicate_matched) => CheckAndMutateRowResult {
                status: None,
                result: Some(pb::CheckAndMutateRowResponse { predicate_matched }),
            },
            Err(e) => CheckAndMutateRowResult {
                status: Some(rpc_status(&e)),
                result: None,
            },
        }))
    }

    async fn sample_row_keys(
        &self,
        request: Request<SampleRowKeysRequest>,
    ) -> Answer<SampleRowKeysResult> {
        let request = request.into_inner();
        let sample = request.request.unwrap_or_default();
        let store = self.clients.store(&request.client_id, &sample.table_name)?;
        Ok(Response::new(match store.sample_row_keys().await {
            Ok(samples) => SampleRowKeysResult {
                status: None,
                samples: samples
                    .into_iter()
                    .map(|s| pb::SampleRowKeysResponse {
                        row_key: s.key,
                        offset_bytes: s.offset_bytes,
                    })
                    .collect(),
            },
            Err(e) => SampleRowKeysResult {
                status: Some(rpc_status(&e)),
                samples: Vec::new(),
            },
        }))
    }

    async fn read_modify_write_row(
        &self,
        request: Request<ReadModifyWriteRowRequest>,
    ) -> Answer<RowResult> {
        let request = request.into_inner();
        let change = request.request.unwrap_or_default();
        let store = self.clients.store(&request.client_id, &change.table_name)?;
        let store = match change.app_profile_id.as_str() {
            "" => store,
            profile => store.with_app_profile(profile),
        };
        let rules = modify_rules(&change.rules)?;
        Ok(Response::new(
            match store.read_modify_write_row(change.row_key, rules).await {
                Ok(found) => RowResult {
                    status: None,
                    row: Some(row(found)),
                },
                Err(e) => RowResult {
                    status: Some(rpc_status(&e)),
                    row: None,
                },
            },
        ))
    }

    async fn execute_query(
        &self,
        _request: Request<ExecuteQueryRequest>,
    ) -> Answer<ExecuteQueryResult> {
        Err(Status::unimplemented(
            "ExecuteQuery (Bigtable's SQL) is out of the store's scope",
        ))
    }
}
