//! Batched writes: mutations grouped by region and the regions by server,
//! one `Multi` per server, all servers at once; each row all or nothing
//! (a row that both clears and writes goes as one atomic `RegionAction`);
//! the actions that failed retried alone, after their regions are looked
//! up again.

use crate::cluster::{Cluster, CLIENT_SERVICE};
use crate::error::{Error, RemoteException, Result};
use crate::options::CallPolicy;
use crate::proto::{self, mutation_proto as mp};
use crate::types::RowMutation;
use std::collections::BTreeMap;

/// Applies `mutations` to `table`. A row's mutations are applied in the
/// order given only when they carry increasing timestamps: HBase orders
/// versions by timestamp, not by arrival.
pub(crate) async fn mutate(
    cluster: &Cluster,
    policy: &CallPolicy,
    table: &str,
    mutations: &[RowMutation],
) -> Result<()> {
    let mut pending: Vec<usize> = (0..mutations.len()).collect();
    let mut failures = 0;
    while !pending.is_empty() {
        match send_once(cluster, policy, table, mutations, &pending).await {
            Ok(()) => return Ok(()),
            Err((left, e)) => {
                if !e.is_retryable() {
                    return Err(e);
                }
                cluster.forget(Some(table), &e);
                failures += 1;
                if failures >= policy.attempts {
                    return Err(Error::RetriesExhausted {
                        attempts: failures,
                        last: Box::new(e),
                    });
                }
                // Progress resets the count: only repeated failures of the
                // same actions use the budget up.
                if left.len() < pending.len() {
                    failures = 1;
                }
                pending = left;
                tokio::time::sleep(policy.backoff(failures)).await;
            }
        }
    }
    Ok(())
}

/// Sends the `pending` mutations once; what is left to send, and the
/// failure that left it, when some failed.
async fn send_once(
    cluster: &Cluster,
    policy: &CallPolicy,
    table: &str,
    mutations: &[RowMutation],
    pending: &[usize],
) -> std::result::Result<(), (Vec<usize>, Error)> {
    let regions = cluster
        .regions(table)
        .await
        .map_err(|e| (pending.to_vec(), e))?;
    // server -> region name -> mutation indexes
    let plan = regions.group(pending, |i| mutations[i].row.as_slice());
    let calls = plan.into_iter().map(|(server, regions)| async move {
        let (request, sent) = multi_request(mutations, &regions);
        let answer = cluster
            .call::<proto::MultiResponse>(
                server,
                CLIENT_SERVICE,
                "Multi",
                &request,
                policy.call_timeout,
            )
            .await;
        failed_of(server, &sent, answer)
    });
    let mut left = Vec::new();
    let mut worst: Option<Error> = None;
    for (failed, error) in futures_util::future::join_all(calls).await {
        left.extend(failed);
        if let Some(e) = error {
            // A failure not worth retrying wins: it ends the write.
            if worst
                .as_ref()
                .is_none_or(|w| w.is_retryable() && !e.is_retryable())
            {
                worst = Some(e);
            }
        }
    }
    match worst {
        None => Ok(()),
        Some(e) => {
            left.sort_unstable();
            Err((left, e))
        }
    }
}

/// Which region action carries which mutations.
struct Sent {
    /// Per region action, the mutation indexes of its actions.
    actions: Vec<Vec<usize>>,
    /// Per region action, the region's name (for errors).
    regions: Vec<String>,
}

/// One `Multi` for the regions of one server: the rows that only write or
/// only delete in one action list per region; each row that clears and
/// writes in an atomic action of its own (a delete and a put).
fn multi_request(
    mutations: &[RowMutation],
    regions: &BTreeMap<&[u8], Vec<usize>>,
) -> (proto::MultiRequest, Sent) {
    let mut request = proto::MultiRequest::default();
    let mut sent = Sent {
        actions: Vec::new(),
        regions: Vec::new(),
    };
    for (name, rows) in regions {
        let mut plain = proto::RegionAction {
            region: Cluster::region(name),
            atomic: None,
            condition: None,
            action: Vec::new(),
        };
        let mut plain_rows = Vec::new();
        for &i in rows {
            let m = &mutations[i];
            let protos = protos_of(m);
            if protos.len() == 1 {
                plain.action.push(action(
                    plain.action.len(),
                    protos.into_iter().next().unwrap(),
                ));
                plain_rows.push(i);
            } else {
                let atomic = proto::RegionAction {
                    region: Cluster::region(name),
                    atomic: Some(true),
                    condition: None,
                    action: protos
                        .into_iter()
                        .enumerate()
                        .map(|(n, p)| action(n, p))
                        .collect(),
                };
                request.region_action.push(atomic);
                sent.actions.push(vec![i]);
                sent.regions.push(crate::regions::binary(name));
            }
        }
        if !plain.action.is_empty() {
            request.region_action.push(plain);
            sent.actions.push(plain_rows);
            sent.regions.push(crate::regions::binary(name));
        }
    }
    (request, sent)
}

fn action(index: usize, mutation: proto::MutationProto) -> proto::Action {
    proto::Action {
        index: Some(index as u32),
        mutation: Some(mutation),
        get: None,
    }
}

/// A row's mutation as HBase's messages: a delete (of the row, or of its
/// cleared columns) and a put, whichever it has (an empty put is none).
pub(crate) fn protos_of(m: &RowMutation) -> Vec<proto::MutationProto> {
    let mut out = Vec::new();
    let ts = m.timestamp;
    // Deletes beside puts go just before them: a delete marker hides
    // every version at or before its time, the puts' own included.
    let delete_ts = match ts {
        Some(t) if !m.puts.is_empty() => Some(t.saturating_sub(1)),
        t => t,
    };
    if m.delete_row || !m.clears.is_empty() {
        let mut columns: BTreeMap<&[u8], Vec<mp::column_value::QualifierValue>> = BTreeMap::new();
        if !m.delete_row {
            for (family, qualifier) in &m.clears {
                columns
                    .entry(family)
                    .or_default()
                    .push(mp::column_value::QualifierValue {
                        qualifier: Some(qualifier.clone()),
                        value: None,
                        timestamp: ts,
                        delete_type: Some(mp::DeleteType::DeleteMultipleVersions as i32),
                    });
            }
        }
        out.push(proto::MutationProto {
            row: Some(m.row.clone()),
            mutate_type: Some(mp::MutationType::Delete as i32),
            column_value: columns
                .into_iter()
                .map(|(family, qualifier_value)| mp::ColumnValue {
                    family: family.to_vec(),
                    qualifier_value,
                })
                .collect(),
            timestamp: delete_ts,
            durability: None,
            associated_cell_count: None,
            nonce: None,
        });
    }
    if !m.puts.is_empty() {
        let mut columns: BTreeMap<&[u8], Vec<mp::column_value::QualifierValue>> = BTreeMap::new();
        for (family, qualifier, value) in &m.puts {
            columns
                .entry(family)
                .or_default()
                .push(mp::column_value::QualifierValue {
                    qualifier: Some(qualifier.clone()),
                    value: Some(value.clone()),
                    timestamp: ts,
                    delete_type: None,
                });
        }
        out.push(proto::MutationProto {
            row: Some(m.row.clone()),
            mutate_type: Some(mp::MutationType::Put as i32),
            column_value: columns
                .into_iter()
                .map(|(family, qualifier_value)| mp::ColumnValue {
                    family: family.to_vec(),
                    qualifier_value,
                })
                .collect(),
            timestamp: ts,
            durability: None,
            associated_cell_count: None,
            nonce: None,
        });
    }
    out
}

/// The mutations of one `Multi` that failed, and the first failure.
fn failed_of(
    server: &str,
    sent: &Sent,
    answer: Result<(proto::MultiResponse, bytes::Bytes)>,
) -> (Vec<usize>, Option<Error>) {
    let all = || sent.actions.iter().flatten().copied().collect::<Vec<_>>();
    let response = match answer {
        Ok((response, _)) => response,
        Err(e) => return (all(), Some(e)),
    };
    if response.region_action_result.len() != sent.actions.len() {
        return (
            all(),
            Some(Error::protocol(
                server,
                format!(
                    "{} results for {} region actions",
                    response.region_action_result.len(),
                    sent.actions.len()
                ),
            )),
        );
    }
    let mut failed = Vec::new();
    let mut first: Option<Error> = None;
    let mut fail =
        |rows: &mut dyn Iterator<Item = usize>, region: &str, e: &proto::NameBytesPair| {
            failed.extend(rows);
            let error = Error::Remote {
                server: server.to_owned(),
                region: Some(region.to_owned()),
                call: "Multi",
                exception: exception_of(e),
            };
            if first
                .as_ref()
                .is_none_or(|f| f.is_retryable() && !error.is_retryable())
            {
                first = Some(error);
            }
        };
    for ((result, rows), region) in response
        .region_action_result
        .iter()
        .zip(&sent.actions)
        .zip(&sent.regions)
    {
        if let Some(e) = &result.exception {
            fail(&mut rows.iter().copied(), region, e);
            continue;
        }
        // An atomic action's results are its one row's; a plain one's, a
        // row each, by index.
        let atomic = rows.len() == 1;
        for r in &result.result_or_exception {
            if let Some(e) = &r.exception {
                let row = if atomic {
                    rows.first().copied()
                } else {
                    r.index.and_then(|i| rows.get(i as usize).copied())
                };
                fail(&mut row.into_iter(), region, e);
                if atomic {
                    break;
                }
            }
        }
    }
    failed.sort_unstable();
    failed.dedup();
    (failed, first)
}

/// A `NameBytesPair` exception (class name, message as UTF-8).
pub(crate) fn exception_of(pair: &proto::NameBytesPair) -> RemoteException {
    let message = pair
        .value
        .as_deref()
        .map(|v| {
            String::from_utf8_lossy(v)
                .lines()
                .next()
                .unwrap_or_default()
                .to_owned()
        })
        .unwrap_or_default();
    let message = message
        .strip_prefix(pair.name.as_str())
        .map(|m| m.trim_start_matches(':').trim().to_owned())
        .unwrap_or(message);
    RemoteException {
        class: pair.name.clone(),
        message,
        do_not_retry: false,
    }
}
