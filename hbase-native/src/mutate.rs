//! Batched writes: mutations grouped by region and the regions by server,
//! one `Multi` per server, all servers at once; each row all or nothing
//! (a row that both clears and writes goes as one atomic `RegionAction`);
//! the actions that failed retried alone, after their regions are looked
//! up again. Puts carry their cells in the call's cell block
//! (`KeyValueCodec`), as HBase's Java client sends them: the region server
//! reads them as they are, with no protobuf message per cell.

use crate::cluster::Cluster;
use crate::error::{Error, RemoteException, Result};
use crate::options::CallPolicy;
use crate::proto::{self, mutation_proto as mp};
use crate::servers::{Servers, CLIENT_SERVICE};
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
    check_mutations(mutations)?;
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
                // Progress resets the count: only repeated failures of the
                // same actions use the budget up.
                failures = if left.len() < pending.len() {
                    1
                } else {
                    failures + 1
                };
                pending = left;
                tokio::time::sleep(policy.retry_after(failures, e)?).await;
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
        let (request, cells, sent) = multi_request(mutations, &regions);
        let answer = cluster
            .call_with_cells::<proto::MultiResponse>(
                server,
                CLIENT_SERVICE,
                "Multi",
                &request,
                &cells,
                policy.timeout(),
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
    /// Per region action, whether it is one row's atomic action.
    atomic: Vec<bool>,
    /// Per region action, how many actions it holds.
    counts: Vec<usize>,
}

/// Refuses a mutation whose row or family a cell cannot carry (HBase
/// takes rows of at most 32,767 bytes, families of at most 127): it would
/// break the cell block's framing, not just be refused by the server. And
/// one whose deletes would hide its own puts ([`check_deletes`]).
pub(crate) fn check_mutations(mutations: &[RowMutation]) -> Result<()> {
    for m in mutations {
        check_deletes(m)?;
        if m.row.len() > crate::wire::MAX_ROW {
            return Err(Error::InvalidMutation {
                why: format!(
                    "a row key of {} bytes; HBase takes at most {}",
                    m.row.len(),
                    crate::wire::MAX_ROW
                ),
            });
        }
        if let Some((family, _, _)) = m
            .puts
            .iter()
            .find(|(f, _, _)| f.len() > crate::wire::MAX_FAMILY)
        {
            return Err(Error::InvalidMutation {
                why: format!(
                    "a family name of {} bytes; HBase takes at most {}",
                    family.len(),
                    crate::wire::MAX_FAMILY
                ),
            });
        }
    }
    Ok(())
}

/// Refuses a mutation that deletes and puts where its deletes cannot go
/// before its puts: the whole row without a timestamp (the server stamps
/// the delete and the cells at one time, and the delete hides them), or
/// at timestamp 0 (no time is before it).
pub(crate) fn check_deletes(m: &RowMutation) -> Result<()> {
    let deletes = m.delete_row || !m.clears.is_empty();
    if m.puts.is_empty() || !deletes {
        return Ok(());
    }
    match m.timestamp {
        None if m.delete_row => Err(Error::InvalidMutation {
            why: "a delete of the whole row with cells to write, and no timestamp: HBase \
                  stamps both at one time and the delete hides the cells; give the \
                  mutation a timestamp (RowMutation::at)"
                .into(),
        }),
        Some(0) => Err(Error::InvalidMutation {
            why: "deletes and cells to write at timestamp 0: the deletes go just before \
                  the cells, and no time is before 0"
                .into(),
        }),
        _ => Ok(()),
    }
}

/// One `Multi` for the regions of one server, and its cell block: the rows
/// that only write or only delete in one action list per region; each row
/// that clears and writes in an atomic action of its own (a delete and a
/// put). The server reads the cell block in the order of the request's
/// region actions and their actions, each put taking its
/// `associated_cell_count` cells.
fn multi_request(
    mutations: &[RowMutation],
    regions: &BTreeMap<&[u8], Vec<usize>>,
) -> (proto::MultiRequest, Vec<u8>, Sent) {
    let mut request = proto::MultiRequest::default();
    let mut cells = Vec::new();
    let mut sent = Sent {
        actions: Vec::new(),
        regions: Vec::new(),
        atomic: Vec::new(),
        counts: Vec::new(),
    };
    for (name, rows) in regions {
        let mut plain = proto::RegionAction {
            region: Servers::region(name),
            atomic: None,
            condition: None,
            action: Vec::new(),
        };
        // The plain action list goes after the atomic ones: its cells too.
        let mut plain_cells = Vec::new();
        let mut plain_rows = Vec::new();
        for &i in rows {
            let m = &mutations[i];
            let mut row_cells = Vec::new();
            let protos = protos_of(m, Some(&mut row_cells));
            if protos.len() == 1 {
                plain.action.push(action(
                    plain.action.len(),
                    protos.into_iter().next().unwrap(),
                ));
                plain_cells.extend_from_slice(&row_cells);
                plain_rows.push(i);
            } else {
                cells.extend_from_slice(&row_cells);
                let atomic = proto::RegionAction {
                    region: Servers::region(name),
                    atomic: Some(true),
                    condition: None,
                    action: protos
                        .into_iter()
                        .enumerate()
                        .map(|(n, p)| action(n, p))
                        .collect(),
                };
                sent.counts.push(atomic.action.len());
                request.region_action.push(atomic);
                sent.actions.push(vec![i]);
                sent.regions.push(crate::regions::binary(name));
                sent.atomic.push(true);
            }
        }
        if !plain.action.is_empty() {
            sent.counts.push(plain.action.len());
            request.region_action.push(plain);
            cells.extend_from_slice(&plain_cells);
            sent.actions.push(plain_rows);
            sent.regions.push(crate::regions::binary(name));
            sent.atomic.push(false);
        }
    }
    (request, cells, sent)
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
/// Given a cell block, the put's cells go there (after what it holds) and
/// the put only counts them; else they go inline.
pub(crate) fn protos_of(
    m: &RowMutation,
    cell_block: Option<&mut Vec<u8>>,
) -> Vec<proto::MutationProto> {
    let mut out = Vec::new();
    let ts = m.timestamp;
    // Deletes beside puts go just before them: a delete marker hides
    // every version at or before its time, the puts' own included. HBase
    // reads a column's own timestamp before the mutation's: a column the
    // mutation also sets is cleared just before, any other at the
    // mutation's time (a version of it stamped then is gone too).
    let delete_ts = match ts {
        // At 0 with deletes and puts: refused before (`check_deletes`).
        Some(t) if !m.puts.is_empty() => Some(t.saturating_sub(1)),
        t => t,
    };
    // Without a timestamp the server stamps the deletes and the puts at
    // one time, and a clear would hide the new value of its own column:
    // a clear of a column the mutation sets too is left out (the set's
    // version is the newest, what every read sees).
    let sets = |family: &[u8], qualifier: &[u8]| {
        m.puts
            .iter()
            .any(|(f, q, _)| f.as_slice() == family && q.as_slice() == qualifier)
    };
    let clears: Vec<&(Vec<u8>, Vec<u8>)> = m
        .clears
        .iter()
        .filter(|(f, q)| ts.is_some() || !sets(f, q))
        .collect();
    if m.delete_row || !clears.is_empty() {
        let mut columns: BTreeMap<&[u8], Vec<mp::column_value::QualifierValue>> = BTreeMap::new();
        if !m.delete_row {
            for (family, qualifier) in clears {
                let set = sets(family, qualifier);
                columns
                    .entry(family)
                    .or_default()
                    .push(mp::column_value::QualifierValue {
                        qualifier: Some(qualifier.clone()),
                        value: None,
                        timestamp: if set { delete_ts } else { ts },
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
    if let (false, Some(block)) = (m.puts.is_empty(), cell_block) {
        let stamp = ts.unwrap_or(crate::wire::LATEST_TIMESTAMP);
        for (family, qualifier, value) in &m.puts {
            crate::wire::put_cell(block, &m.row, family, qualifier, stamp, value);
        }
        out.push(proto::MutationProto {
            row: Some(m.row.clone()),
            mutate_type: Some(mp::MutationType::Put as i32),
            column_value: Vec::new(),
            timestamp: ts,
            durability: None,
            associated_cell_count: Some(m.puts.len() as i32),
            nonce: None,
        });
    } else if !m.puts.is_empty() {
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
    for ((((result, rows), region), &atomic), &count) in response
        .region_action_result
        .iter()
        .zip(&sent.actions)
        .zip(&sent.regions)
        .zip(&sent.atomic)
        .zip(&sent.counts)
    {
        if let Some(e) = &result.exception {
            fail(&mut rows.iter().copied(), region, e);
            continue;
        }
        // Each action answered once, by index: a row left out is a write
        // nobody confirmed, never one taken as done. (A failed atomic
        // action may answer only its first failure.)
        let failed = result
            .result_or_exception
            .iter()
            .any(|r| r.exception.is_some());
        if !(atomic && failed) {
            if let Err(why) = answered_once(&result.result_or_exception, count) {
                let error = Error::protocol(server, format!("region {region}: {why}"));
                return (all(), Some(error));
            }
        }
        // An atomic action's results are its one row's; a plain one's, a
        // row each, by index.
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

/// Whether `results` answer each of `asked` actions exactly once.
pub(crate) fn answered_once(
    results: &[proto::ResultOrException],
    asked: usize,
) -> std::result::Result<(), String> {
    let mut answered = vec![false; asked];
    for r in results {
        match r.index.map(|i| i as usize) {
            Some(i) if i < asked && !answered[i] => answered[i] = true,
            index => {
                return Err(format!(
                    "an answer to action {index:?} of {asked}, which was not sent or was \
                     answered already"
                ))
            }
        }
    }
    let missing = answered.iter().filter(|a| !**a).count();
    if missing > 0 {
        return Err(format!("{} of {asked} actions answered", asked - missing));
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;

    fn put(row: &[u8], cells: usize) -> RowMutation {
        let mut m = RowMutation::put(row.to_vec());
        for c in 0..cells {
            m.puts
                .push((b"d".to_vec(), vec![b'q', c as u8], vec![b'v', c as u8]));
        }
        m
    }

    /// The cell block holds each put's cells in the order the server reads
    /// them: region action by region action (an atomic row's before the
    /// region's plain list), action by action, as many as each counts.
    #[test]
    fn the_cell_block_follows_the_actions_in_order() {
        let mut clearing = put(b"b", 2);
        clearing.clears.push((b"d".to_vec(), b"old".to_vec()));
        let mutations = vec![put(b"a", 1), clearing, put(b"c", 3), put(b"x", 2)];
        let mut regions = BTreeMap::new();
        regions.insert(&b"t,,1.r1."[..], vec![0, 1, 2]);
        regions.insert(&b"t,m,2.r2."[..], vec![3]);
        let (request, cells, _) = multi_request(&mutations, &regions);
        let mut block = Bytes::from(cells);
        let mut seen = Vec::new();
        for region_action in &request.region_action {
            for action in &region_action.action {
                let m = action.mutation.as_ref().unwrap();
                let n = m.associated_cell_count.unwrap_or(0) as usize;
                assert!(
                    m.column_value.is_empty() || n == 0,
                    "inline or in the block"
                );
                for cell in crate::wire::cells(&mut block, n, "s").unwrap() {
                    assert_eq!(Some(&cell.row), m.row.as_ref(), "a cell of its own row");
                    assert_eq!(cell.kind, 4);
                    assert_eq!(cell.cell.timestamp, crate::wire::LATEST_TIMESTAMP);
                    seen.push((cell.row, cell.cell.qualifier));
                }
            }
        }
        assert!(block.is_empty(), "no cell left over");
        let rows: Vec<&[u8]> = seen.iter().map(|(r, _)| r.as_slice()).collect();
        // Region 1: row b's atomic action, then the plain list (a, c).
        assert_eq!(rows, [&b"b"[..], b"b", b"a", b"c", b"c", b"c", b"x", b"x"]);
    }

    /// Every delete's time, at the mutation and at each column: HBase
    /// takes a column's own before the mutation's.
    fn delete_times(m: &RowMutation) -> Vec<Option<u64>> {
        let protos = protos_of(m, None);
        let delete = protos
            .iter()
            .filter(|p| p.mutate_type == Some(mp::MutationType::Delete as i32));
        delete
            .flat_map(|p| {
                std::iter::once(p.timestamp).chain(
                    p.column_value
                        .iter()
                        .flat_map(|c| c.qualifier_value.iter().map(|q| q.timestamp)),
                )
            })
            .collect()
    }

    #[test]
    fn a_clear_beside_a_set_goes_just_before_it_at_every_level() {
        let m = RowMutation::put(b"r".to_vec())
            .clear(b"d", b"a")
            .set(b"d", b"a", b"new")
            .at(100);
        assert_eq!(delete_times(&m), [Some(99), Some(99)]);
        // Only clears: at the mutation's time.
        let m = RowMutation::put(b"r".to_vec()).clear(b"d", b"a").at(100);
        assert_eq!(delete_times(&m), [Some(100), Some(100)]);
        // A clear of a column not set goes at the mutation's time.
        let m = RowMutation::put(b"r".to_vec())
            .clear(b"d", b"a")
            .clear(b"d", b"b")
            .set(b"d", b"a", b"new")
            .at(100);
        assert_eq!(delete_times(&m), [Some(99), Some(99), Some(100)]);
        // Puts alone at 0: no delete, and no time below 0 asked for.
        assert!(delete_times(&put(b"r", 1).at(0)).is_empty());
        assert_eq!(protos_of(&put(b"r", 1).at(0), None).len(), 1);
        let m = RowMutation::delete_row(b"r".to_vec())
            .set(b"d", b"a", b"new")
            .at(100);
        assert_eq!(delete_times(&m), [Some(99)]);
    }

    #[test]
    fn without_a_timestamp_a_clear_of_a_column_it_sets_is_left_out() {
        let m = RowMutation::put(b"r".to_vec())
            .clear(b"d", b"a")
            .clear(b"d", b"b")
            .set(b"d", b"a", b"new");
        let protos = protos_of(&m, None);
        assert_eq!(protos.len(), 2);
        let cleared: Vec<&[u8]> = protos[0].column_value[0]
            .qualifier_value
            .iter()
            .map(|q| q.qualifier.as_deref().unwrap())
            .collect();
        assert_eq!(cleared, [b"b"]);
        let only_set = RowMutation::put(b"r".to_vec())
            .clear(b"d", b"a")
            .set(b"d", b"a", b"new");
        let protos = protos_of(&only_set, None);
        assert_eq!(protos.len(), 1);
        assert_eq!(protos[0].mutate_type, Some(mp::MutationType::Put as i32));
    }

    #[test]
    fn deletes_that_would_hide_their_own_cells_are_refused() {
        let row_and_cells = RowMutation::delete_row(b"r".to_vec()).set(b"d", b"a", b"v");
        let e = check_mutations(std::slice::from_ref(&row_and_cells))
            .unwrap_err()
            .to_string();
        assert!(e.contains("RowMutation::at"), "{e}");
        assert!(check_mutations(&[row_and_cells.at(5)]).is_ok());
        let at_zero = RowMutation::put(b"r".to_vec())
            .clear(b"d", b"a")
            .set(b"d", b"b", b"v")
            .at(0);
        assert!(check_mutations(&[at_zero]).is_err());
        // Deletes alone, or cells alone, at 0 or without a time: fine.
        assert!(check_mutations(&[RowMutation::delete_row(b"r".to_vec()).at(0)]).is_ok());
        assert!(check_mutations(&[RowMutation::delete_row(b"r".to_vec())]).is_ok());
        assert!(check_mutations(&[put(b"r", 1).at(0)]).is_ok());
    }

    #[test]
    fn rows_and_families_a_cell_cannot_carry_are_refused() {
        let longest = put(&vec![7; crate::wire::MAX_ROW], 1);
        assert!(check_mutations(&[longest]).is_ok());
        let too_long = put(&vec![7; crate::wire::MAX_ROW + 1], 1);
        let e = check_mutations(&[too_long]).unwrap_err().to_string();
        assert!(e.contains("32768 bytes") && e.contains("32767"), "{e}");
        let mut family = put(b"r", 0);
        family
            .puts
            .push((vec![b'f'; 128], b"q".to_vec(), b"v".to_vec()));
        let e = check_mutations(&[family]).unwrap_err().to_string();
        assert!(e.contains("family name of 128 bytes"), "{e}");
    }
}
