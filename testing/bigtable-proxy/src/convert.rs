//! The suite's `google.bigtable.v2` messages as the store's requests, and
//! the store's answers and errors as the suite's messages. A request the
//! store cannot express exactly is refused with the reason (UNIMPLEMENTED
//! or INVALID_ARGUMENT, from the proxy itself): the proxy never reads or
//! writes anything other than what was asked.

use crate::proto::google::bigtable::v2 as pb;
use crate::proto::google::rpc;
use pb::mutation::Mutation as PbOp;
use pb::row_range::{EndKey, StartKey};
use rowkey_bigtable::{Mutation, RowFilter, RowMutation, VersionedRow};
use rowkey_store::{KeyRange, ModifyRule, ReadRequest, StoreError};
use tonic::{Code, Status};

/// The first key after `key`: `key` and `0x00`.
fn successor(key: &[u8]) -> Vec<u8> {
    let mut next = key.to_vec();
    next.push(0);
    next
}

/// The store's request for a `ReadRows`: its row set, limit and
/// direction. A filter is refused: the store reads whole rows, and has no
/// way to say "these cells, these versions, these labels" in general.
pub fn read_request(request: &pb::ReadRowsRequest) -> Result<ReadRequest, Status> {
    if let Some(filter) = &request.filter {
        return Err(Status::unimplemented(format!(
            "BigtableStore reads whole rows (every version, or the newest): it cannot express \
             the filter {filter:?}"
        )));
    }
    if !request.authorized_view_name.is_empty() || !request.materialized_view_name.is_empty() {
        return Err(Status::unimplemented(
            "BigtableStore reads tables, not authorized or materialized views",
        ));
    }
    let ranges = match &request.rows {
        // No row set, or an empty one: the whole table, as Bigtable reads.
        None => vec![KeyRange::new(Vec::new(), None)],
        Some(set) if set.row_keys.is_empty() && set.row_ranges.is_empty() => {
            vec![KeyRange::new(Vec::new(), None)]
        }
        Some(set) => row_set(set)?,
    };
    let mut read = ReadRequest::new(ranges);
    if request.reversed {
        read = read.reversed();
    }
    match request.rows_limit {
        0 => Ok(read),
        n => u64::try_from(n)
            .map(|n| read.with_limit(n))
            .map_err(|_| Status::invalid_argument(format!("rows_limit {n} is negative"))),
    }
}

/// The key ranges of a (non-empty) row set, exactly: a closed end is the
/// key's successor, an open start too, an empty key an unbounded side.
fn row_set(set: &pb::RowSet) -> Result<Vec<KeyRange>, Status> {
    let mut ranges = Vec::with_capacity(set.row_keys.len() + set.row_ranges.len());
    for key in &set.row_keys {
        if key.is_empty() {
            return Err(Status::invalid_argument("an empty row key in row_keys"));
        }
        ranges.push(KeyRange::row(key));
    }
    for range in &set.row_ranges {
        let start = match &range.start_key {
            None => Vec::new(),
            Some(StartKey::StartKeyClosed(k)) => k.clone(),
            Some(StartKey::StartKeyOpen(k)) if k.is_empty() => Vec::new(),
            Some(StartKey::StartKeyOpen(k)) => successor(k),
        };
        let stop = match &range.end_key {
            None => None,
            Some(EndKey::EndKeyOpen(k) | EndKey::EndKeyClosed(k)) if k.is_empty() => None,
            Some(EndKey::EndKeyOpen(k)) => Some(k.clone()),
            Some(EndKey::EndKeyClosed(k)) => Some(successor(k)),
        };
        ranges.push(KeyRange::new(start, stop));
    }
    Ok(ranges)
}

/// A versioned row as the suite's `Row`: cells grouped by family, then
/// column, in the order the store returned them.
pub fn row(row: VersionedRow) -> pb::Row {
    let mut families: Vec<pb::Family> = Vec::new();
    for cell in row.cells {
        if families.last().is_none_or(|f| f.name != cell.family) {
            families.push(pb::Family {
                name: cell.family.clone(),
                columns: Vec::new(),
            });
        }
        let Some(family) = families.last_mut() else {
            continue;
        };
        if family
            .columns
            .last()
            .is_none_or(|c| c.qualifier != cell.qualifier)
        {
            family.columns.push(pb::Column {
                qualifier: cell.qualifier.clone(),
                cells: Vec::new(),
            });
        }
        if let Some(column) = family.columns.last_mut() {
            column.cells.push(pb::Cell {
                timestamp_micros: cell.timestamp_micros,
                value: cell.value,
                labels: cell.labels,
            });
        }
    }
    pb::Row {
        key: row.key,
        families,
    }
}

/// One mutation as the store's. Aggregate cells (`AddToCell`,
/// `MergeToCell`) are refused: the store does not write them.
fn mutation(m: &pb::Mutation) -> Result<Mutation, Status> {
    let nonzero = |t: i64| (t != 0).then_some(t);
    Ok(match &m.mutation {
        Some(PbOp::SetCell(c)) => Mutation::SetCell {
            family: c.family_name.clone(),
            qualifier: c.column_qualifier.clone(),
            // -1: the server's time.
            timestamp_micros: (c.timestamp_micros != -1).then_some(c.timestamp_micros),
            value: c.value.clone(),
        },
        Some(PbOp::DeleteFromColumn(c)) => {
            let range = c.time_range.unwrap_or_default();
            Mutation::DeleteCells {
                family: c.family_name.clone(),
                qualifier: c.column_qualifier.clone(),
                start_micros: nonzero(range.start_timestamp_micros),
                end_micros: nonzero(range.end_timestamp_micros),
            }
        }
        Some(PbOp::DeleteFromFamily(f)) => Mutation::DeleteFamily {
            family: f.family_name.clone(),
        },
        Some(PbOp::DeleteFromRow(_)) => Mutation::DeleteRow,
        Some(PbOp::AddToCell(_) | PbOp::MergeToCell(_)) => {
            return Err(Status::unimplemented(
                "BigtableStore does not write aggregate cells (AddToCell, MergeToCell)",
            ))
        }
        None => return Err(Status::invalid_argument("a mutation without an operation")),
    })
}

/// The mutations of one branch of a `CheckAndMutateRow`.
pub fn mutations(mutations: &[pb::Mutation]) -> Result<Vec<Mutation>, Status> {
    mutations.iter().map(mutation).collect()
}

/// A predicate as the store takes it: bigtable_rs's `RowFilter`, the
/// same message on the wire (its bytes decoded again, every filter kept).
pub fn row_filter(filter: &pb::RowFilter) -> Result<RowFilter, Status> {
    let bytes = prost::Message::encode_to_vec(filter);
    <RowFilter as prost::Message>::decode(bytes.as_slice()).map_err(|e| {
        Status::internal(format!(
            "the predicate does not decode as bigtable_rs's RowFilter: {e}"
        ))
    })
}

/// The rules of a `ReadModifyWriteRow`; a rule with neither an append
/// nor an increment is refused.
pub fn modify_rules(rules: &[pb::ReadModifyWriteRule]) -> Result<Vec<ModifyRule>, Status> {
    use pb::read_modify_write_rule::Rule;
    rules
        .iter()
        .map(|r| match &r.rule {
            Some(Rule::AppendValue(bytes)) => Ok(ModifyRule::append(
                &r.family_name,
                &r.column_qualifier,
                bytes,
            )),
            Some(Rule::IncrementAmount(by)) => Ok(ModifyRule::increment(
                &r.family_name,
                &r.column_qualifier,
                *by,
            )),
            None => Err(Status::invalid_argument(
                "a ReadModifyWriteRule with no rule",
            )),
        })
        .collect()
}

/// One row's mutations as the store's.
pub fn row_mutation(key: &[u8], mutations: &[pb::Mutation]) -> Result<RowMutation, Status> {
    let mutations = mutations.iter().map(mutation).collect::<Result<_, _>>()?;
    Ok(RowMutation::new(key, mutations))
}

/// An error of the store (or the client under it) as a `google.rpc.Status`:
/// the code of the gRPC status it came from (or what the error says:
/// INVALID_ARGUMENT for a refused key, NOT_FOUND for a missing table), and
/// the whole chain of messages.
pub fn rpc_status(e: &(dyn std::error::Error + 'static)) -> rpc::Status {
    let mut code = None;
    let mut message = String::new();
    let mut next = Some(e);
    while let Some(err) = next {
        // A store error says its backend's error in its message and
        // hands it out by `backend_source`, not as its `source`.
        if let Some(status) = err
            .downcast_ref::<StoreError>()
            .and_then(StoreError::backend_source)
            .and_then(|b| b.downcast_ref::<Status>())
        {
            code.get_or_insert(status.code());
        }
        if !message.is_empty() {
            message.push_str(": ");
        }
        match err.downcast_ref::<Status>() {
            Some(status) => {
                code.get_or_insert(status.code());
                message.push_str(status.message());
            }
            None => message.push_str(&err.to_string()),
        }
        next = err.source();
    }
    let code = code.unwrap_or_else(|| match e.downcast_ref::<StoreError>() {
        Some(
            StoreError::EmptyKey { .. }
            | StoreError::KeyTooLong { .. }
            | StoreError::TooManyCells { .. }
            | StoreError::NoCells { .. },
        ) => Code::InvalidArgument,
        Some(StoreError::NoSuchTable { .. } | StoreError::NoSuchFamily { .. }) => Code::NotFound,
        Some(e) if e.is_transient() => Code::Unavailable,
        _ => Code::Unknown,
    });
    rpc::Status {
        code: code as i32,
        message,
        details: Vec::new(),
    }
}

/// A status of `code` with `message`.
pub fn status(code: Code, message: String) -> rpc::Status {
    rpc::Status {
        code: code as i32,
        message,
        details: Vec::new(),
    }
}
