//! hbase-thrift's `TRowResult`s (what `scannerGetList`, `getRow` and the
//! like return) as [`Row`]s.

use crate::error::ThriftDataError;
use hbase_thrift::hbase::{TCell, TColumn, TRowResult};
use rowkey_store::{Cell, KeyLimit, Row, StoreError};
use std::collections::HashSet;

const OP: &str = "read rows";

/// A `TRowResult` as a [`Row`]: its key, and a [`Cell`] per column, the
/// column name (`family:qualifier`) split at its first `:` (a family has
/// none; a qualifier may have any bytes, `:` included). Timestamps are
/// dropped.
///
/// Cells come in HBase's order (family, then qualifier, as unsigned
/// bytes): `sorted_columns` (a `TScan` with `sort_columns`) is kept in the
/// order HBase sent; `columns` (the default) is a map whose order is not
/// HBase's (`d0:x` sorts before `d:x` there, after it in HBase), so its
/// cells are sorted into HBase's order. Of several versions of a column
/// the first, which HBase sends newest first, is kept.
///
/// Errors, as [`StoreError::Backend`] for `"read rows"` with a
/// [`ThriftDataError`] source (except the key's, which are
/// [`StoreError::EmptyKey`] and [`StoreError::KeyTooLong`]): an empty or
/// missing key, a key over 32767 bytes, a column without `:`, a family
/// that is not UTF-8, a column without a value, or both `columns` and
/// `sorted_columns`. A row without columns converts to a row without
/// cells.
///
/// ```
/// use hbase_thrift::hbase::{TCell, TRowResult};
/// use rowkey_hbase::row_from_thrift;
/// use std::collections::BTreeMap;
///
/// let columns = BTreeMap::from([
///     (b"d:at:utc".to_vec(), TCell { value: Some(b"12".to_vec()), timestamp: Some(7) }),
///     (b"d:amount".to_vec(), TCell { value: Some(b"5".to_vec()), timestamp: Some(7) }),
/// ]);
/// let result = TRowResult { row: Some(b"k1".to_vec()), columns: Some(columns), sorted_columns: None };
/// let row = row_from_thrift(result)?;
/// assert_eq!(row.key, b"k1");
/// assert_eq!(row.value("d", "at:utc"), Some(&b"12"[..]));
/// assert_eq!(row.cells[0].qualifier, b"amount");
/// # Ok::<(), rowkey::store::StoreError>(())
/// ```
pub fn row_from_thrift(result: TRowResult) -> Result<Row, StoreError> {
    let TRowResult {
        row,
        columns,
        sorted_columns,
    } = result;
    let key = row.unwrap_or_default();
    KeyLimit::HBASE.check(OP, &key)?;
    let cells = match (columns, sorted_columns) {
        (Some(_), Some(_)) => return Err(invalid(ThriftDataError::BothColumnForms { row: key })),
        (Some(map), None) => {
            let mut cells = Vec::with_capacity(map.len());
            for (column, cell) in map {
                cells.push(cell_from(&key, column, Some(cell))?);
            }
            cells.sort_by(|a, b| {
                (a.family.as_bytes(), &a.qualifier).cmp(&(b.family.as_bytes(), &b.qualifier))
            });
            cells
        }
        (None, Some(list)) => {
            let mut cells: Vec<Cell> = Vec::with_capacity(list.len());
            let mut seen = HashSet::with_capacity(list.len());
            for TColumn { column_name, cell } in list {
                let cell = cell_from(&key, column_name.unwrap_or_default(), cell)?;
                if seen.insert((cell.family.clone(), cell.qualifier.clone())) {
                    cells.push(cell);
                }
            }
            cells
        }
        (None, None) => Vec::new(),
    };
    Ok(Row::new(key, cells))
}

/// [`row_from_thrift`] for each result, in their order; the first error
/// ends the conversion.
///
/// ```
/// use hbase_thrift::hbase::{TCell, TColumn, TRowResult};
/// use rowkey_hbase::rows_from_thrift;
///
/// let result = |key: &[u8], column: &[u8]| TRowResult {
///     row: Some(key.to_vec()),
///     columns: None,
///     sorted_columns: Some(vec![TColumn {
///         column_name: Some(column.to_vec()),
///         cell: Some(TCell { value: Some(b"v".to_vec()), timestamp: Some(1) }),
///     }]),
/// };
/// let rows = rows_from_thrift(vec![result(b"a", b"d:x"), result(b"b", b"d:")])?;
/// assert_eq!(rows[1].cells[0].qualifier, b"");
/// // A column without ':' is an error that names it (the backend's
/// // error, which ends the StoreError's message).
/// let e = rows_from_thrift(vec![result(b"a", b"dx")]).unwrap_err();
/// let why = e.backend_source().unwrap().to_string();
/// assert!(why.contains("column dx of row a has no ':'"), "{why}");
/// # Ok::<(), rowkey::store::StoreError>(())
/// ```
pub fn rows_from_thrift(results: Vec<TRowResult>) -> Result<Vec<Row>, StoreError> {
    results.into_iter().map(row_from_thrift).collect()
}

/// One column of row `key`.
fn cell_from(key: &[u8], column: Vec<u8>, cell: Option<TCell>) -> Result<Cell, StoreError> {
    let Some(colon) = column.iter().position(|&b| b == b':') else {
        return Err(invalid(ThriftDataError::ColumnWithoutColon {
            row: key.to_vec(),
            column,
        }));
    };
    let Some(value) = cell.and_then(|c| c.value) else {
        return Err(invalid(ThriftDataError::MissingValue {
            row: key.to_vec(),
            column,
        }));
    };
    let Ok(family) = std::str::from_utf8(&column[..colon]) else {
        return Err(invalid(ThriftDataError::FamilyNotUtf8 {
            row: key.to_vec(),
            column,
        }));
    };
    Ok(Cell {
        family: family.to_owned(),
        qualifier: column[colon + 1..].to_vec(),
        value,
    })
}

fn invalid(e: ThriftDataError) -> StoreError {
    StoreError::backend(OP, e)
}
