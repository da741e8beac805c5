//! Batched point reads: the rows grouped by region and the regions by
//! server, one `Multi` of `Get`s per server, all servers at once; the
//! gets that failed (a moved region) sent again alone.

use crate::cluster::Cluster;
use crate::error::{Error, Result};
use crate::options::CallPolicy;
use crate::proto;
use crate::servers::{Servers, CLIENT_SERVICE};
use crate::types::{Get, RowResult};
use bytes::Bytes;

/// Reads `rows` of `table` as `spec` says (its columns, filter and cells
/// per family): one answer per row, in the order asked, `None` for a row
/// that is not there (or that the filter leaves with no cell).
pub(crate) async fn get(
    cluster: &Cluster,
    policy: &CallPolicy,
    table: &str,
    rows: &[Vec<u8>],
    spec: &Get,
) -> Result<Vec<Option<RowResult>>> {
    let mut out: Vec<Option<RowResult>> = vec![None; rows.len()];
    let mut pending: Vec<usize> = (0..rows.len()).collect();
    let mut failures = 0;
    while !pending.is_empty() {
        let (left, error) = get_once(cluster, policy, table, rows, spec, &pending, &mut out).await;
        let Some(e) = error else {
            break;
        };
        if !e.is_retryable() {
            return Err(e);
        }
        cluster.forget(Some(table), &e);
        failures = if left.len() < pending.len() {
            1
        } else {
            failures + 1
        };
        pending = left;
        tokio::time::sleep(policy.retry_after(failures, e)?).await;
    }
    Ok(out)
}

/// Sends the `pending` gets once, filling `out`; what is left, and why.
async fn get_once(
    cluster: &Cluster,
    policy: &CallPolicy,
    table: &str,
    rows: &[Vec<u8>],
    spec: &Get,
    pending: &[usize],
    out: &mut [Option<RowResult>],
) -> (Vec<usize>, Option<Error>) {
    let regions = match cluster.regions(table).await {
        Ok(r) => r,
        Err(e) => return (pending.to_vec(), Some(e)),
    };
    let plan = regions.group(pending, |i| rows[i].as_slice());
    let column = crate::scan::columns_of(&spec.columns);
    let filter = spec.filter.as_ref().map(crate::filter::to_proto);
    let calls = plan.into_iter().map(|(server, regions)| {
        let column = column.clone();
        let filter = filter.clone();
        async move {
            let mut request = proto::MultiRequest::default();
            let mut sent = Vec::new();
            for (name, indexes) in &regions {
                request.region_action.push(proto::RegionAction {
                    region: Servers::region(name),
                    atomic: None,
                    condition: None,
                    action: indexes
                        .iter()
                        .enumerate()
                        .map(|(n, &i)| proto::Action {
                            index: Some(n as u32),
                            mutation: None,
                            get: Some(proto::Get {
                                row: rows[i].clone(),
                                column: column.clone(),
                                filter: filter.clone(),
                                time_range: None,
                                max_versions: Some(1),
                                store_limit: spec.cells_per_family,
                            }),
                        })
                        .collect(),
                });
                sent.push((crate::regions::binary(name), indexes.clone()));
            }
            let answer = cluster
                .call::<proto::MultiResponse>(
                    server,
                    CLIENT_SERVICE,
                    "Multi",
                    &request,
                    policy.timeout(),
                )
                .await;
            (server, sent, answer)
        }
    });
    let mut left = Vec::new();
    let mut first: Option<Error> = None;
    let keep = |e: Error, first: &mut Option<Error>| {
        if first
            .as_ref()
            .is_none_or(|f| f.is_retryable() && !e.is_retryable())
        {
            *first = Some(e);
        }
    };
    for (server, sent, answer) in futures_util::future::join_all(calls).await {
        let (response, mut block) = match answer {
            Ok(a) => a,
            Err(e) => {
                left.extend(sent.iter().flat_map(|(_, i)| i.iter().copied()));
                keep(e, &mut first);
                continue;
            }
        };
        if response.region_action_result.len() != sent.len() {
            left.extend(sent.iter().flat_map(|(_, i)| i.iter().copied()));
            keep(
                Error::protocol(server, "a Multi answered another count of region actions"),
                &mut first,
            );
            continue;
        }
        for (result, (region, indexes)) in response.region_action_result.iter().zip(&sent) {
            if let Some(e) = &result.exception {
                left.extend(indexes.iter().copied());
                keep(remote(server, region, e), &mut first);
                continue;
            }
            // Every get answered once: a get left out is no absent row.
            if let Err(why) =
                crate::mutate::answered_once(&result.result_or_exception, indexes.len())
            {
                let why = format!("region {region}: {why}");
                return (pending.to_vec(), Some(Error::protocol(server, why)));
            }
            for r in &result.result_or_exception {
                let n = r.index.unwrap_or_default() as usize;
                let i = indexes[n];
                if let Some(e) = &r.exception {
                    left.push(i);
                    keep(remote(server, region, e), &mut first);
                    continue;
                }
                match r
                    .result
                    .as_ref()
                    .map(|x| row_of(x, &rows[i], &mut block, server))
                {
                    Some(Ok(row)) => out[i] = row,
                    Some(Err(e)) => return (pending.to_vec(), Some(e)),
                    None => {
                        let why = format!(
                            "a Multi answered get {n} of region {region} with neither a row \
                             nor an exception"
                        );
                        return (pending.to_vec(), Some(Error::protocol(server, why)));
                    }
                }
            }
        }
    }
    left.sort_unstable();
    (left, first)
}

/// A get's result: its inline cells, or its count of cells from the
/// front of the answer's cell block (results take theirs in order).
fn row_of(
    result: &proto::Result,
    row: &[u8],
    block: &mut Bytes,
    server: &str,
) -> Result<Option<RowResult>> {
    let count = result.associated_cell_count.unwrap_or(0);
    if count > 0 {
        let cells = crate::wire::cells(block, count as usize, server)?;
        if cells.iter().any(|c| c.row != row) {
            return Err(Error::protocol(server, "a get's cells name another row"));
        }
        return Ok(Some(RowResult {
            row: row.to_vec(),
            cells: cells.into_iter().map(|c| c.cell).collect(),
        }));
    }
    crate::scanner::inline_row(result, server)
}

fn remote(server: &str, region: &str, e: &proto::NameBytesPair) -> Error {
    Error::Remote {
        server: server.to_owned(),
        region: Some(region.to_owned()),
        call: "Multi",
        exception: crate::mutate::exception_of(e),
    }
}
