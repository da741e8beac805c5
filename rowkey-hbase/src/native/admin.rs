//! Table admin on the native transport: tables created pre-split at a
//! spec's split keys (one region per salt bucket), and an existing
//! table's regions compared with them.

use super::store_error;
use rowkey_store::admin::{TableMismatch, TableSpec, TableStatus};
use rowkey_store::StoreError;

/// Creates the table of `spec`, pre-split at its split keys if it has any.
pub(crate) async fn create_table(
    client: &hbase_native::Client,
    spec: &TableSpec<'_>,
) -> Result<(), StoreError> {
    let splits: Vec<Vec<u8>> = spec.splits.map(|s| s.keys().to_vec()).unwrap_or_default();
    client
        .admin()
        .create_table(spec.table, spec.families, &splits)
        .await
        .map_err(|e| match e {
            hbase_native::Error::TableExists { .. } => StoreError::backend(
                "create table",
                format!("TableExistsException: table {} exists already", spec.table),
            ),
            e => store_error("create table", spec.table, e),
        })
}

/// Creates the table of `spec` if there is none; else checks that it has
/// the spec's families and a region boundary at each of its split keys.
pub(crate) async fn create_table_if_missing(
    client: &hbase_native::Client,
    spec: &TableSpec<'_>,
) -> Result<TableStatus, StoreError> {
    let admin = client.admin();
    let names = admin
        .table_names()
        .await
        .map_err(|e| store_error("list tables", spec.table, e))?;
    if !names.iter().any(|t| t == spec.table) {
        match create_table(client, spec).await {
            Ok(()) => return Ok(TableStatus::Created),
            Err(e) if e.to_string().contains("TableExistsException") => {}
            Err(e) => return Err(e),
        }
    }
    let found = families(client, spec.table).await?;
    if let Some(mismatch) = TableMismatch::between(
        spec.table,
        spec.families.iter().copied(),
        found.iter().map(String::as_str),
    ) {
        return Err(StoreError::backend("create table", mismatch));
    }
    if let Some(splits) = spec.splits {
        let regions = admin
            .regions(spec.table)
            .await
            .map_err(|e| store_error("create table", spec.table, e))?;
        let missing: Vec<&Vec<u8>> = splits
            .iter()
            .filter(|k| !regions.iter().any(|r| &r.start == *k))
            .collect();
        if !missing.is_empty() {
            return Err(StoreError::backend(
                "create table",
                format!(
                    "table {} exists without a region boundary at {} of its spec's {} split keys \
                     (first: {:02x?}); it has {} regions: split it, or re-create it",
                    spec.table,
                    missing.len(),
                    splits.len(),
                    missing[0],
                    regions.len()
                ),
            ));
        }
    }
    Ok(TableStatus::Existed)
}

pub(crate) async fn families(
    client: &hbase_native::Client,
    table: &str,
) -> Result<Vec<String>, StoreError> {
    client
        .admin()
        .families(table)
        .await
        .map_err(|e| store_error("get column families", table, e))
}

pub(crate) async fn delete_table(
    client: &hbase_native::Client,
    table: &str,
) -> Result<(), StoreError> {
    client
        .admin()
        .delete_table(table)
        .await
        .map_err(|e| store_error("delete table", table, e))
}

pub(crate) async fn table_names(client: &hbase_native::Client) -> Result<Vec<String>, StoreError> {
    client
        .admin()
        .table_names()
        .await
        .map_err(|e| store_error("list tables", "", e))
}
