//! Writes that depend on what is there, each one step of the region
//! server: a conditional mutation of one row (`checkAndMutate`: a put, a
//! delete, or both as one `RowMutations`), and counters and appends
//! computed by the server (`increment`, `append`).
//!
//! None of them is idempotent: how each is retried, and when its outcome
//! is [`Error::OutcomeUnknown`], is `outcome.rs`'s. A conditional
//! mutation is retried only while it surely has not run; increments and
//! appends carry a nonce (a group per client, one per operation) and are
//! sent again only to the region server process that may have run them,
//! which answers a repeat without running it again.

use crate::cluster::Cluster;
use crate::error::{Error, Result};
use crate::options::CallPolicy;
use crate::outcome::{refused, send_to_row, unreadable, Resend};
use crate::proto::{self, mutation_proto as mp};
use crate::servers::Servers;
use crate::types::{RowMutation, RowResult};
use prost::Message;

/// What a conditional mutation checks of one cell, in terms of the
/// cell's value: the cell is absent (or empty: HBase takes an empty
/// value as absent), or its value is equal to, less than or greater than
/// the given bytes (compared as unsigned bytes).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Compare {
    /// The cell is absent or empty.
    Absent,
    /// The cell's value equals these bytes (not empty).
    Equal(Vec<u8>),
    /// The cell's value is less than these bytes.
    Less(Vec<u8>),
    /// The cell's value is greater than these bytes.
    Greater(Vec<u8>),
}

/// A check of one cell of the row a conditional mutation changes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Check {
    /// The cell's family.
    pub family: Vec<u8>,
    /// The cell's qualifier.
    pub qualifier: Vec<u8>,
    /// What its value must be.
    pub compare: Compare,
    /// Check the cell as of this time (milliseconds): only versions
    /// before it count. Give a mutation with a timestamp the same time,
    /// and the check and the write are one step *at that time*: a
    /// version written later by a call that reached the server first
    /// (a release of a lock stamped after this take) does not make the
    /// check hold for a write it would then hide. `None`: every version.
    pub as_of: Option<u64>,
}

/// The condition as HBase takes it. HBase compares the *given* value to
/// the cell's (`comparator.compareTo(cell)`) and applies the operator to
/// that: "the cell is less than x" is "x is greater than the cell".
fn condition(row: &[u8], check: &Check) -> proto::Condition {
    let (op, value) = match &check.compare {
        Compare::Absent => (proto::CompareType::Equal, Vec::new()),
        Compare::Equal(v) => (proto::CompareType::Equal, v.clone()),
        Compare::Less(v) => (proto::CompareType::Greater, v.clone()),
        Compare::Greater(v) => (proto::CompareType::Less, v.clone()),
    };
    proto::Condition {
        time_range: check.as_of.map(|to| proto::TimeRange {
            from: Some(0),
            to: Some(to),
        }),
        row: row.to_vec(),
        family: Some(check.family.clone()),
        qualifier: Some(check.qualifier.clone()),
        compare_type: Some(op as i32),
        comparator: Some(proto::Comparator {
            name: "org.apache.hadoop.hbase.filter.BinaryComparator".into(),
            serialized_comparator: Some(
                proto::BinaryComparator {
                    comparable: proto::ByteArrayComparable { value: Some(value) },
                }
                .encode_to_vec(),
            ),
        }),
    }
}

/// Applies `mutation` to its row of `table` if `check` holds, as one step
/// of the server; whether it held.
pub(crate) async fn check_and_mutate(
    cluster: &Cluster,
    policy: &CallPolicy,
    table: &str,
    check: &Check,
    mutation: &RowMutation,
) -> Result<bool> {
    if let Compare::Equal(v) = &check.compare {
        if v.is_empty() {
            return Err(Error::InvalidMutation {
                why: "a check for an empty value, which HBase takes as \"absent or empty\": \
                      check for Compare::Absent"
                    .into(),
            });
        }
    }
    crate::mutate::check_mutations(std::slice::from_ref(mutation))?;
    let protos = crate::mutate::protos_of(mutation, None);
    if protos.is_empty() {
        return Err(Error::InvalidMutation {
            why: "a conditional mutation with nothing to write or delete".into(),
        });
    }
    let condition = condition(&mutation.row, check);
    // One mutation: Mutate with its condition. A delete and a put: an
    // atomic region action with the condition (HBase 2.4+).
    send_to_row(
        cluster,
        policy,
        table,
        &mutation.row,
        Resend::Never,
        |region, connection| {
            let (protos, condition) = (&protos, &condition);
            async move {
                if protos.len() == 1 {
                    let request = proto::MutateRequest {
                        region: Servers::region(&region.name),
                        mutation: protos[0].clone(),
                        condition: Some(condition.clone()),
                        nonce_group: None,
                    };
                    let (m, _) = connection
                        .call_tracked("Mutate", &request, &[], policy.timeout())
                        .await?;
                    let r =
                        crate::wire::decode::<proto::MutateResponse>(m, &region.server, "Mutate")
                            .map_err(unreadable)?;
                    return Ok(r.processed.unwrap_or(false));
                }
                let request = proto::MultiRequest {
                    region_action: vec![proto::RegionAction {
                        region: Servers::region(&region.name),
                        atomic: Some(true),
                        condition: Some(condition.clone()),
                        action: protos
                            .iter()
                            .enumerate()
                            .map(|(n, p)| proto::Action {
                                index: Some(n as u32),
                                mutation: Some(p.clone()),
                                get: None,
                            })
                            .collect(),
                    }],
                    nonce_group: None,
                };
                let (m, _) = connection
                    .call_tracked("Multi", &request, &[], policy.timeout())
                    .await?;
                let r = crate::wire::decode::<proto::MultiResponse>(m, &region.server, "Multi")
                    .map_err(unreadable)?;
                let result = r.region_action_result.into_iter().next().ok_or_else(|| {
                    unreadable(Error::protocol(
                        &region.server,
                        "a conditional Multi without a result",
                    ))
                })?;
                match result.exception {
                    Some(e) => Err(refused(Error::Remote {
                        server: region.server.clone(),
                        region: Some(region.display_name()),
                        call: "Multi",
                        exception: crate::mutate::exception_of(&e),
                    })),
                    None => Ok(result.processed.unwrap_or(false)),
                }
            }
        },
    )
    .await
}

/// What a read-modify-write does to each of its columns.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Modify {
    /// Adds to 8-byte big-endian counters (Java's `Bytes.toLong`; an
    /// absent cell counts from 0): (family, qualifier, by).
    Increment(Vec<(Vec<u8>, Vec<u8>, i64)>),
    /// Appends bytes to cells (an absent cell is empty): (family,
    /// qualifier, bytes).
    Append(Vec<(Vec<u8>, Vec<u8>, Vec<u8>)>),
}

/// A column and the bytes a read-modify-write sends for it: (family,
/// qualifier, an increment's 8 bytes or an append's bytes).
type Column = (Vec<u8>, Vec<u8>, Vec<u8>);

/// Applies `modify` to `row` of `table` as one step of the server, with
/// a nonce so that a retry is not applied twice; the new values of the
/// cells it changed.
pub(crate) async fn read_modify_write(
    cluster: &Cluster,
    policy: &CallPolicy,
    table: &str,
    row: &[u8],
    modify: &Modify,
) -> Result<RowResult> {
    let (kind, columns): (mp::MutationType, Vec<Column>) = match modify {
        Modify::Increment(cols) => (
            mp::MutationType::Increment,
            cols.iter()
                .map(|(f, q, by)| (f.clone(), q.clone(), by.to_be_bytes().to_vec()))
                .collect(),
        ),
        Modify::Append(cols) => (mp::MutationType::Append, cols.clone()),
    };
    if columns.is_empty() {
        return Err(Error::InvalidMutation {
            why: "a read-modify-write of no column".into(),
        });
    }
    let mut by_family: std::collections::BTreeMap<&[u8], Vec<mp::column_value::QualifierValue>> =
        std::collections::BTreeMap::new();
    for (f, q, v) in &columns {
        by_family
            .entry(f)
            .or_default()
            .push(mp::column_value::QualifierValue {
                qualifier: Some(q.clone()),
                value: Some(v.clone()),
                timestamp: None,
                delete_type: None,
            });
    }
    let mutation = proto::MutationProto {
        row: Some(row.to_vec()),
        mutate_type: Some(kind as i32),
        column_value: by_family
            .into_iter()
            .map(|(family, qualifier_value)| mp::ColumnValue {
                family: family.to_vec(),
                qualifier_value,
            })
            .collect(),
        timestamp: None,
        durability: None,
        associated_cell_count: None,
        nonce: Some(crate::nonce::next()),
    };
    send_to_row(
        cluster,
        policy,
        table,
        row,
        Resend::SameServer,
        |region, connection| {
            let (mutation, columns) = (&mutation, &columns);
            async move {
                let request = proto::MutateRequest {
                    region: Servers::region(&region.name),
                    mutation: mutation.clone(),
                    condition: None,
                    nonce_group: Some(crate::nonce::group()),
                };
                let (m, mut block) = connection
                    .call_tracked("Mutate", &request, &[], policy.timeout())
                    .await?;
                let answer =
                    crate::wire::decode::<proto::MutateResponse>(m, &region.server, "Mutate")
                        .map_err(unreadable)?;
                let result = answer.result.unwrap_or_default();
                let count = result.associated_cell_count.unwrap_or(0) as usize;
                let cells = if count > 0 {
                    crate::wire::cells(&mut block, count, &region.server)
                        .map_err(unreadable)?
                        .into_iter()
                        .map(|c| c.cell)
                        .collect()
                } else {
                    crate::scanner::inline_row(&result, &region.server)
                        .map_err(unreadable)?
                        .map_or_else(Vec::new, |r| r.cells)
                };
                // A server answers a repeat of an operation it ran (its
                // nonce replayed from a dead server's log) with no cells:
                // applied, but its new values are not known.
                let missing = columns
                    .iter()
                    .find(|(f, q, _)| !cells.iter().any(|c| c.family == *f && c.qualifier == *q));
                if let Some((f, q, _)) = missing {
                    return Err(unreadable(Error::protocol(
                        &region.server,
                        format!(
                            "a {} answered without the new value of {}:{} (a repeat of \
                             one it ran before?)",
                            if kind == mp::MutationType::Increment {
                                "increment"
                            } else {
                                "append"
                            },
                            crate::regions::binary(f),
                            crate::regions::binary(q)
                        ),
                    )));
                }
                Ok(RowResult {
                    row: row.to_vec(),
                    cells,
                })
            }
        },
    )
    .await
}
