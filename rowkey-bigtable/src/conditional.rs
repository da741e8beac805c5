//! Bigtable's writes that depend on what a row holds: `CheckAndMutateRow`
//! and `ReadModifyWriteRow`, each one call, never sent twice once it may
//! have reached the server; and the [`Store`](rowkey_store::Store)'s
//! conditional writes and read-modify-writes expressed in them.

use crate::call::Call;
use crate::mutate::{not_resent, Mutation};
use crate::status::store_error;
use crate::target::Target;
use crate::versions::{VersionedCell, VersionedRow};
use bigtable_rs::google::bigtable::v2::column_range::{EndQualifier, StartQualifier};
use bigtable_rs::google::bigtable::v2::read_modify_write_rule::Rule;
use bigtable_rs::google::bigtable::v2::row_filter::{Chain, Filter};
use bigtable_rs::google::bigtable::v2::value_range::{EndValue, StartValue};
use bigtable_rs::google::bigtable::v2::{
    self as v2, CheckAndMutateRowRequest, ColumnRange, ReadModifyWriteRowRequest, RowFilter,
    ValueRange,
};
use rowkey_store::{
    CellCheck, CellCondition, ConditionalWrite, ModifyRule, Row, RowEdit, StoreError,
};

/// One `CheckAndMutateRow` call: `on_true` applied when `predicate`
/// yields a cell of the row (`None`: when the row has any cell), else
/// `on_false`; whether it did. Never sent again once it may have reached
/// the server.
pub(crate) async fn check_and_mutate(
    target: &Target,
    key: Vec<u8>,
    predicate: Option<RowFilter>,
    on_true: &[Mutation],
    on_false: &[Mutation],
) -> Result<bool, StoreError> {
    let _writing = target.epoch.writing();
    let op = "check and mutate row";
    let message = CheckAndMutateRowRequest {
        table_name: target.table.to_string(),
        app_profile_id: target.app_profile.to_string(),
        row_key: key,
        predicate_filter: predicate,
        true_mutations: on_true.iter().map(Mutation::to_proto).collect(),
        false_mutations: on_false.iter().map(Mutation::to_proto).collect(),
        ..CheckAndMutateRowRequest::default()
    };
    let response = once(target, op, message, |mut client, request| async move {
        client.get_client().check_and_mutate_row(request).await
    })
    .await?;
    Ok(response.predicate_matched)
}

/// One `ReadModifyWriteRow` call: `rules` applied in order; the cells
/// they changed, with their new timestamps. Never sent again once it may
/// have reached the server.
pub(crate) async fn read_modify_write(
    target: &Target,
    key: Vec<u8>,
    rules: &[ModifyRule],
) -> Result<VersionedRow, StoreError> {
    let rules = rules_to_proto(rules)?;
    let _writing = target.epoch.writing();
    let op = "read-modify-write row";
    let message = ReadModifyWriteRowRequest {
        table_name: target.table.to_string(),
        app_profile_id: target.app_profile.to_string(),
        row_key: key.clone(),
        rules,
        ..ReadModifyWriteRowRequest::default()
    };
    let response = once(target, op, message, |mut client, request| async move {
        client.get_client().read_modify_write_row(request).await
    })
    .await?;
    Ok(versioned(key, response.row))
}

/// Sends `message` once through `send` (given a client and the request
/// with its deadline and headers), within the store's idle timeout: the
/// answer, or an error that says whether the call may have been applied
/// (no answer: `OutcomeUnknown`; a refusal: not sent again).
async fn once<M, R, F>(
    target: &Target,
    op: &'static str,
    message: M,
    send: impl FnOnce(bigtable_rs::bigtable::BigTable, tonic::Request<M>) -> F,
) -> Result<R, StoreError>
where
    F: std::future::Future<Output = Result<tonic::Response<R>, tonic::Status>>,
{
    let call = Call::start(target, op);
    let request = call.request(target, message);
    let idle = target.retry.idle_timeout;
    match call
        .within(idle, "the request", send(target.client.clone(), request))
        .await
    {
        Ok(Ok(response)) => Ok(response.into_inner()),
        Ok(Err(_)) if call.past_deadline() => Err(unanswered(call.expired())),
        Ok(Err(status)) => Err(not_resent(store_error(op, status))),
        Err(e) => Err(unanswered(e)),
    }
}

/// A call that got no answer in time (idle, or past the operation's
/// deadline): it may have been applied.
fn unanswered(e: StoreError) -> StoreError {
    match e {
        StoreError::Backend {
            op,
            attempts,
            source,
            ..
        } => StoreError::OutcomeUnknown {
            op,
            attempts,
            source,
        },
        e => e,
    }
}

/// The rules on the wire; a rule this client does not know is refused
/// before anything is sent.
fn rules_to_proto(rules: &[ModifyRule]) -> Result<Vec<v2::ReadModifyWriteRule>, StoreError> {
    rules
        .iter()
        .map(|rule| {
            let (family, qualifier) = rule.column();
            let rule = match rule {
                ModifyRule::Increment { by, .. } => Rule::IncrementAmount(*by),
                ModifyRule::Append { bytes, .. } => Rule::AppendValue(bytes.clone()),
                other => return Err(unknown(format!("{other:?}"))),
            };
            Ok(v2::ReadModifyWriteRule {
                family_name: family.to_owned(),
                column_qualifier: qualifier.to_vec(),
                rule: Some(rule),
            })
        })
        .collect()
}

/// A condition, edit or rule of a newer `rowkey-store` than this client
/// knows: refused, never dropped.
fn unknown(what: String) -> StoreError {
    StoreError::Unsupported {
        op: "check and write",
        store: "BigtableStore",
        what: format!("express {what}"),
        supported_by: None,
    }
}

/// A `ReadModifyWriteRow` answer as a [`VersionedRow`] of `key`.
fn versioned(key: Vec<u8>, row: Option<v2::Row>) -> VersionedRow {
    let mut out = VersionedRow {
        key,
        ..VersionedRow::default()
    };
    for family in row.map(|r| r.families).unwrap_or_default() {
        for column in family.columns {
            for cell in column.cells {
                out.cells.push(VersionedCell {
                    family: family.name.clone(),
                    qualifier: column.qualifier.clone(),
                    timestamp_micros: cell.timestamp_micros,
                    labels: cell.labels,
                    value: cell.value,
                });
            }
        }
    }
    out
}

/// The newest value of each cell of a versioned row, as a [`Row`].
pub(crate) fn newest(row: VersionedRow) -> Row {
    let mut cells: Vec<rowkey_store::Cell> = Vec::new();
    for c in row.cells {
        if !cells
            .iter()
            .any(|o| o.family == c.family && o.qualifier == c.qualifier)
        {
            cells.push(rowkey_store::Cell::new(c.family, c.qualifier, c.value));
        }
    }
    Row::new(row.key, cells)
}

/// A store's conditional write as a `CheckAndMutateRow`: the predicate
/// that yields the checked cell's newest version when it meets the
/// condition, and the branches in Bigtable's terms (swapped for
/// [`CellCondition::Absent`], whose predicate finds the cell).
/// `stamp_micros` stamps the cells set (the store's write clock).
pub(crate) struct Conditional {
    pub(crate) predicate: RowFilter,
    pub(crate) on_match: Vec<Mutation>,
    pub(crate) on_no_match: Vec<Mutation>,
    /// Whether the condition holds when the predicate matches.
    pub(crate) holds_on_match: bool,
}

impl Conditional {
    pub(crate) fn of(
        write: &ConditionalWrite,
        stamp_micros: i64,
    ) -> Result<Conditional, StoreError> {
        let on_true = mutations(&write.on_true, stamp_micros)?;
        let on_false = mutations(&write.on_false, stamp_micros)?;
        let predicate = predicate(&write.check)?;
        Ok(if write.check.condition == CellCondition::Absent {
            Conditional {
                predicate,
                on_match: on_false,
                on_no_match: on_true,
                holds_on_match: false,
            }
        } else {
            Conditional {
                predicate,
                on_match: on_true,
                on_no_match: on_false,
                holds_on_match: true,
            }
        })
    }
}

/// The checked cell (its exact family and qualifier: a closed column
/// range, no regex to escape), its newest version only, then the value
/// range of the condition.
fn predicate(check: &CellCheck) -> Result<RowFilter, StoreError> {
    let filter = |f: Filter| RowFilter { filter: Some(f) };
    let mut filters = vec![
        filter(Filter::ColumnRangeFilter(ColumnRange {
            family_name: check.family.clone(),
            start_qualifier: Some(StartQualifier::StartQualifierClosed(
                check.qualifier.clone(),
            )),
            end_qualifier: Some(EndQualifier::EndQualifierClosed(check.qualifier.clone())),
        })),
        filter(Filter::CellsPerColumnLimitFilter(1)),
    ];
    let range = match &check.condition {
        CellCondition::Equals(v) => Some(ValueRange {
            start_value: Some(StartValue::StartValueClosed(v.clone())),
            end_value: Some(EndValue::EndValueClosed(v.clone())),
        }),
        CellCondition::Less(v) => Some(ValueRange {
            start_value: None,
            end_value: Some(EndValue::EndValueOpen(v.clone())),
        }),
        CellCondition::Greater(v) => Some(ValueRange {
            start_value: Some(StartValue::StartValueOpen(v.clone())),
            end_value: None,
        }),
        CellCondition::Absent => None,
        other => return Err(unknown(format!("{other:?}"))),
    };
    filters.extend(range.map(|r| filter(Filter::ValueRangeFilter(r))));
    Ok(filter(Filter::Chain(Chain { filters })))
}

/// Edits as mutations, cells set at `stamp_micros`.
fn mutations(edits: &[RowEdit], stamp_micros: i64) -> Result<Vec<Mutation>, StoreError> {
    edits
        .iter()
        .map(|edit| match edit {
            RowEdit::Set(cell) => Ok(Mutation::set_cell_at(
                &cell.family,
                &cell.qualifier,
                stamp_micros,
                &cell.value,
            )),
            RowEdit::Clear { family, qualifier } => Ok(Mutation::DeleteCells {
                family: family.clone(),
                qualifier: qualifier.clone(),
                start_micros: None,
                end_micros: None,
            }),
            RowEdit::DeleteRow => Ok(Mutation::DeleteRow),
            other => Err(unknown(format!("{other:?}"))),
        })
        .collect()
}
