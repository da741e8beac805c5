//! [`PhoenixTable::read`]: a table's rows of `SYSTEM.CATALOG`, decoded.

use futures_util::TryStreamExt;
use rowkey_core::codec::phoenix::{
    column_value, finish_key, put_column, take_column, PhoenixColumn, PhoenixKeyLen, PhoenixType,
    PhoenixValue,
};
use rowkey_core::{KeyReader, KeyWriter};
use rowkey_store::{KeyRange, ReadRequest, Row, Store, StoreError};
use std::fmt;

/// Phoenix's catalog table, as HBase names it (without namespace
/// mapping).
pub const SYSTEM_CATALOG: &str = "SYSTEM.CATALOG";

/// What kind of table the catalog says it is (`TABLE_TYPE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    /// `u`: a table.
    Table,
    /// `v`: a view.
    View,
    /// `i`: an index.
    Index,
    /// `s`: one of Phoenix's own.
    System,
}

/// How the table's non-key columns are named in HBase
/// (`COLUMN_ENCODED_BYTES`, `ENCODING_SCHEME`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QualifierEncoding {
    /// The column's name.
    None,
    /// A number, in 1 to 4 bytes.
    Bytes(u8),
}

/// How the table stores its non-key columns (`IMMUTABLE_STORAGE_SCHEME`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageScheme {
    /// A cell per column.
    OneCellPerColumn,
    /// All of a family's columns in one cell.
    SingleCellArrayWithOffsets,
}

/// One column of a Phoenix table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhoenixColumnDef {
    /// Its name.
    pub name: String,
    /// Its family (none for a key column).
    pub family: Option<String>,
    /// Its type.
    pub ty: PhoenixType,
    /// May be NULL.
    pub nullable: bool,
    /// `DESC` in the primary key.
    pub desc: bool,
    /// Its place in the primary key (1-based), for a key column.
    pub key_seq: Option<u16>,
    /// Its place among all columns (1-based).
    pub ordinal: u32,
    /// Its HBase qualifier, for a non-key column.
    pub qualifier: Option<Vec<u8>>,
    /// A `ROW_TIMESTAMP` key column: the cells' timestamps are its values.
    pub row_timestamp: bool,
}

/// A Phoenix table's definition, as `SYSTEM.CATALOG` holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhoenixTable {
    /// Its schema (`None`: the default schema).
    pub schema: Option<String>,
    /// Its name.
    pub name: String,
    /// Table, view, index or system table.
    pub kind: TableKind,
    /// The key columns in key order, then the others by position.
    pub columns: Vec<PhoenixColumnDef>,
    /// `SALT_BUCKETS`.
    pub salt_buckets: Option<u32>,
    /// `COLUMN_ENCODED_BYTES`.
    pub encoding: QualifierEncoding,
    /// `IMMUTABLE_STORAGE_SCHEME`.
    pub storage: StorageScheme,
    /// `IMMUTABLE_ROWS`.
    pub immutable: bool,
    /// Transactional (`TRANSACTION_PROVIDER`, or the older
    /// `TRANSACTIONAL`).
    pub transactional: bool,
    /// A view's `SELECT .. WHERE ..`.
    pub view_statement: Option<String>,
    /// The names of its indexes.
    pub indexes: Vec<String>,
    /// `DEFAULT_COLUMN_FAMILY` (`None`: `0`).
    pub default_family: Option<String>,
}

/// Why a table's definition could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum PhoenixCatalogError {
    /// The store failed.
    Store(StoreError),
    /// `SYSTEM.CATALOG` has no such table.
    NoSuchTable(String),
    /// A catalog row this reader cannot read: its key or a cell.
    Malformed {
        /// The table.
        table: String,
        /// What is wrong.
        why: String,
    },
    /// A column of a type this crate does not write (an `ARRAY`).
    Unsupported {
        /// The table.
        table: String,
        /// The column.
        column: String,
        /// Phoenix's `DATA_TYPE` number.
        data_type: i32,
    },
}

impl fmt::Display for PhoenixCatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PhoenixCatalogError::Store(e) => write!(f, "reading {SYSTEM_CATALOG}: {e}"),
            PhoenixCatalogError::NoSuchTable(t) => {
                write!(f, "{SYSTEM_CATALOG} has no table {t}")
            }
            PhoenixCatalogError::Malformed { table, why } => {
                write!(f, "{SYSTEM_CATALOG}'s rows of {table}: {why}")
            }
            PhoenixCatalogError::Unsupported {
                table,
                column,
                data_type,
            } => write!(
                f,
                "{table}.{column} is of Phoenix type {data_type} (an ARRAY, or a type of a \
                 later Phoenix), which this crate does not read or write"
            ),
        }
    }
}

impl std::error::Error for PhoenixCatalogError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PhoenixCatalogError::Store(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StoreError> for PhoenixCatalogError {
    fn from(e: StoreError) -> Self {
        PhoenixCatalogError::Store(e)
    }
}

/// The catalog's key: `(TENANT_ID, TABLE_SCHEM, TABLE_NAME, COLUMN_NAME,
/// COLUMN_FAMILY)`, every one a `VARCHAR`, only `TABLE_NAME` NOT NULL.
const KEY: [PhoenixColumn; 5] = {
    const fn col(last: bool) -> PhoenixColumn {
        PhoenixColumn {
            ty: PhoenixType::Varchar { max_chars: None },
            desc: false,
            last,
            max_len: None,
        }
    }
    [col(false), col(false), col(false), col(false), col(true)]
};

/// A catalog row's key, as its columns.
type CatalogKey = [Option<String>; 5];

fn catalog_key(key: &CatalogKey) -> Result<Vec<u8>, String> {
    let mut out = vec![0u8; key.iter().flatten().map(|s| s.len() + 1).sum::<usize>() + 8];
    let mut w = KeyWriter::new(&mut out, "SYSTEM.CATALOG");
    let mut len = PhoenixKeyLen::new(0);
    for (v, col) in key.iter().zip(&KEY) {
        put_column(&mut w, v, col, &mut len).map_err(|e| e.to_string())?;
    }
    finish_key(&mut w, &len).map_err(|e| e.to_string())?;
    let n = w.finish();
    out.truncate(n);
    Ok(out)
}

fn decode_catalog_key(key: &[u8]) -> Result<CatalogKey, String> {
    let mut r = KeyReader::new(key, "SYSTEM.CATALOG");
    let mut end = PhoenixKeyLen::new(0);
    let mut out: CatalogKey = Default::default();
    for (slot, col) in out.iter_mut().zip(&KEY) {
        let raw = take_column(&mut r, col, &mut end).map_err(|e| e.to_string())?;
        *slot = column_value::<Option<String>>(raw, col).map_err(|e| format!("{e:?}"))?;
    }
    Ok(out)
}

/// One catalog row's cells by qualifier.
struct Cells<'r> {
    row: &'r Row,
    table: &'r str,
}

impl Cells<'_> {
    fn raw(&self, name: &str) -> Option<&[u8]> {
        self.row
            .cells
            .iter()
            .find(|c| c.family == "0" && c.qualifier == name.as_bytes())
            .map(|c| c.value.as_slice())
    }

    fn get<V: PhoenixValue>(
        &self,
        name: &str,
        ty: PhoenixType,
    ) -> Result<Option<V>, PhoenixCatalogError> {
        self.raw(name)
            .map(|b| V::from_phoenix(Some(b), &ty))
            .transpose()
            .map_err(|e| PhoenixCatalogError::Malformed {
                table: self.table.to_owned(),
                why: format!("its {name} cell: {e:?}"),
            })
    }

    fn int(&self, name: &str) -> Result<Option<i32>, PhoenixCatalogError> {
        self.get::<i32>(name, PhoenixType::Integer)
    }

    fn flag(&self, name: &str) -> Result<bool, PhoenixCatalogError> {
        Ok(self
            .get::<bool>(name, PhoenixType::Boolean)?
            .unwrap_or(false))
    }

    fn text(&self, name: &str) -> Result<Option<String>, PhoenixCatalogError> {
        self.get::<String>(name, PhoenixType::Varchar { max_chars: None })
    }
}

/// The Phoenix type of a column row (`DATA_TYPE`, `COLUMN_SIZE`,
/// `DECIMAL_DIGITS`), or `Err(DATA_TYPE)` for one this crate does not
/// write.
fn column_type(data_type: i32, size: Option<i32>, digits: Option<i32>) -> Result<PhoenixType, i32> {
    let size = size.and_then(|n| u32::try_from(n).ok()).filter(|n| *n > 0);
    Ok(match data_type {
        12 => PhoenixType::Varchar { max_chars: size },
        1 => PhoenixType::Char {
            len: size.ok_or(data_type)?,
        },
        // A BINARY without a length is an old VARBINARY (Phoenix's rule).
        -2 => match size {
            Some(len) => PhoenixType::Binary { len },
            None => PhoenixType::Varbinary,
        },
        -3 => PhoenixType::Varbinary,
        -6 => PhoenixType::TinyInt,
        5 => PhoenixType::SmallInt,
        4 => PhoenixType::Integer,
        -5 => PhoenixType::BigInt,
        11 => PhoenixType::UnsignedTinyInt,
        13 => PhoenixType::UnsignedSmallInt,
        9 => PhoenixType::UnsignedInt,
        10 => PhoenixType::UnsignedLong,
        6 => PhoenixType::Float,
        8 => PhoenixType::Double,
        14 => PhoenixType::UnsignedFloat,
        15 => PhoenixType::UnsignedDouble,
        3 => PhoenixType::Decimal {
            precision: size.and_then(|p| u8::try_from(p).ok()),
            scale: size.map(|_| digits.and_then(|s| u8::try_from(s).ok()).unwrap_or(0)),
        },
        16 => PhoenixType::Boolean,
        91 => PhoenixType::Date,
        92 => PhoenixType::Time,
        93 => PhoenixType::Timestamp,
        19 => PhoenixType::UnsignedDate,
        18 => PhoenixType::UnsignedTime,
        20 => PhoenixType::UnsignedTimestamp,
        other => return Err(other),
    })
}

impl PhoenixTable {
    /// The definition of table `name` in `schema` (`None`: the default
    /// schema), read from `catalog`, a store over `SYSTEM.CATALOG`.
    ///
    /// # Errors
    /// No such table, a row this reader cannot read, a column of a type
    /// it does not write, or the store's error.
    pub async fn read<S: Store>(
        catalog: &S,
        schema: Option<&str>,
        name: &str,
    ) -> Result<PhoenixTable, PhoenixCatalogError> {
        let full = match schema {
            Some(s) => format!("{s}.{name}"),
            None => name.to_owned(),
        };
        let malformed = |why: String| PhoenixCatalogError::Malformed {
            table: full.clone(),
            why,
        };
        let header: CatalogKey = [
            None,
            schema.map(str::to_owned),
            Some(name.to_owned()),
            None,
            None,
        ];
        let start = catalog_key(&header).map_err(malformed)?;
        // The header, then every row whose key continues with a separator.
        let mut stop = start.clone();
        stop.push(0x01);
        let rows: Vec<Row> = catalog
            .read_rows(ReadRequest::new([KeyRange::new(start.clone(), Some(stop))]))
            .try_collect()
            .await?;
        let mut table: Option<PhoenixTable> = None;
        let mut columns = Vec::new();
        let mut indexes = Vec::new();
        for row in &rows {
            let key =
                decode_catalog_key(&row.key).map_err(|e| malformed(format!("a row key: {e}")))?;
            if key[0].is_some() || key[1].as_deref() != schema || key[2].as_deref() != Some(name) {
                continue;
            }
            let cells = Cells { row, table: &full };
            match (&key[3], &key[4]) {
                (None, None) => table = Some(header_row(&cells, schema, name)?),
                // A link row: an index's, or a view's to its table.
                (None, Some(target)) => {
                    if cells.get::<u8>("LINK_TYPE", PhoenixType::UnsignedTinyInt)? == Some(1) {
                        indexes.push(target.clone());
                    }
                }
                (Some(column), family) => {
                    if cells.raw("QUALIFIER_COUNTER").is_some() || cells.raw("LINK_TYPE").is_some()
                    {
                        continue;
                    }
                    columns.push(column_row(&cells, column, family.clone(), &full)?);
                }
            }
        }
        let mut table = table.ok_or_else(|| PhoenixCatalogError::NoSuchTable(full.clone()))?;
        // Key columns in key order, then the rest by position.
        columns.sort_by_key(|c| (c.key_seq.is_none(), c.key_seq.unwrap_or(0), c.ordinal));
        table.columns = columns;
        table.indexes = indexes;
        Ok(table)
    }

    /// The key columns, in key order.
    pub fn key_columns(&self) -> impl Iterator<Item = &PhoenixColumnDef> {
        self.columns.iter().filter(|c| c.key_seq.is_some())
    }

    /// The columns outside the key.
    pub fn value_columns(&self) -> impl Iterator<Item = &PhoenixColumnDef> {
        self.columns.iter().filter(|c| c.key_seq.is_none())
    }

    /// `SCHEMA.NAME`, or `NAME`.
    pub fn full_name(&self) -> String {
        match &self.schema {
            Some(s) => format!("{s}.{}", self.name),
            None => self.name.clone(),
        }
    }

    /// Why writing this table's rows from outside Phoenix would leave it
    /// other than Phoenix would, if it would: its index rows would go
    /// stale, a transaction manager would not see the writes, a view's
    /// `WHERE` would not be enforced, cells would need a `ROW_TIMESTAMP`'s
    /// time. `None`: cells written as Phoenix writes them are all it
    /// needs.
    pub fn write_refusal(&self) -> Option<String> {
        let t = self.full_name();
        if !self.indexes.is_empty() {
            return Some(format!(
                "{t} has indexes ({}): Phoenix updates their rows with each write, a write \
                 from outside Phoenix would leave them stale",
                self.indexes.join(", ")
            ));
        }
        if self.transactional {
            return Some(format!(
                "{t} is transactional: its writes go through Phoenix's transaction manager"
            ));
        }
        if self.kind == TableKind::View && self.view_statement.is_some() {
            return Some(format!(
                "{t} is a view with a WHERE ({}): write to its table",
                self.view_statement.as_deref().unwrap_or_default()
            ));
        }
        if self.kind == TableKind::Index {
            return Some(format!("{t} is an index: Phoenix writes it"));
        }
        if let Some(c) = self.columns.iter().find(|c| c.row_timestamp) {
            return Some(format!(
                "{t}.{} is a ROW_TIMESTAMP column: each cell's timestamp is its value",
                c.name
            ));
        }
        None
    }
}

fn header_row(
    cells: &Cells<'_>,
    schema: Option<&str>,
    name: &str,
) -> Result<PhoenixTable, PhoenixCatalogError> {
    let kind = match cells
        .get::<String>("TABLE_TYPE", PhoenixType::Char { len: 1 })?
        .as_deref()
    {
        Some("u") => TableKind::Table,
        Some("v") => TableKind::View,
        Some("i") => TableKind::Index,
        Some("s") => TableKind::System,
        other => {
            return Err(PhoenixCatalogError::Malformed {
                table: cells.table.to_owned(),
                why: format!("TABLE_TYPE {other:?}"),
            })
        }
    };
    // TINYINT cells (sign bit flipped); missing: not encoded, a cell per
    // column.
    let encoding = match cells.get::<i8>("ENCODING_SCHEME", PhoenixType::TinyInt)? {
        None | Some(0) => QualifierEncoding::None,
        Some(n @ 1..=4) => QualifierEncoding::Bytes(n as u8),
        Some(n) => {
            return Err(PhoenixCatalogError::Malformed {
                table: cells.table.to_owned(),
                why: format!("ENCODING_SCHEME {n}"),
            })
        }
    };
    let storage = match cells.get::<i8>("IMMUTABLE_STORAGE_SCHEME", PhoenixType::TinyInt)? {
        Some(2) => StorageScheme::SingleCellArrayWithOffsets,
        _ => StorageScheme::OneCellPerColumn,
    };
    Ok(PhoenixTable {
        schema: schema.map(str::to_owned),
        name: name.to_owned(),
        kind,
        columns: Vec::new(),
        salt_buckets: cells
            .int("SALT_BUCKETS")?
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| *n > 0),
        encoding,
        storage,
        immutable: cells.flag("IMMUTABLE_ROWS")?,
        transactional: cells.raw("TRANSACTION_PROVIDER").is_some()
            || cells.flag("TRANSACTIONAL")?,
        view_statement: cells.text("VIEW_STATEMENT")?,
        indexes: Vec::new(),
        default_family: cells.text("DEFAULT_COLUMN_FAMILY")?,
    })
}

fn column_row(
    cells: &Cells<'_>,
    column: &str,
    family: Option<String>,
    table: &str,
) -> Result<PhoenixColumnDef, PhoenixCatalogError> {
    let missing = |what: &str| PhoenixCatalogError::Malformed {
        table: table.to_owned(),
        why: format!("column {column} has no {what}"),
    };
    let data_type = cells
        .int("DATA_TYPE")?
        .ok_or_else(|| missing("DATA_TYPE"))?;
    let ty = column_type(
        data_type,
        cells.int("COLUMN_SIZE")?,
        cells.int("DECIMAL_DIGITS")?,
    )
    .map_err(|data_type| PhoenixCatalogError::Unsupported {
        table: table.to_owned(),
        column: column.to_owned(),
        data_type,
    })?;
    let key_seq = cells
        .get::<i16>("KEY_SEQ", PhoenixType::SmallInt)?
        .and_then(|n| u16::try_from(n).ok());
    Ok(PhoenixColumnDef {
        name: column.to_owned(),
        family: family.filter(|_| key_seq.is_none()),
        ty,
        nullable: cells.int("NULLABLE")?.ok_or_else(|| missing("NULLABLE"))? == 1,
        // SortOrder's system values: ASC 2, DESC 1.
        desc: cells.int("SORT_ORDER")? == Some(1),
        key_seq,
        ordinal: cells
            .int("ORDINAL_POSITION")?
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| missing("ORDINAL_POSITION"))?,
        qualifier: cells
            .get::<Vec<u8>>("COLUMN_QUALIFIER", PhoenixType::Varbinary)?
            .or_else(|| key_seq.is_none().then(|| column.as_bytes().to_vec())),
        row_timestamp: cells.flag("IS_ROW_TIMESTAMP")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_keys_are_phoenixs() {
        // testing/phoenix/notes/cells.md §6.2: no tenant, S.T, column K.
        let k: CatalogKey = [
            None,
            Some("S".into()),
            Some("T".into()),
            Some("K".into()),
            None,
        ];
        assert_eq!(
            catalog_key(&k).unwrap(),
            [0x00, b'S', 0x00, b'T', 0x00, b'K']
        );
        assert_eq!(
            decode_catalog_key(&[0x00, b'S', 0x00, b'T', 0x00, b'K']).unwrap(),
            k
        );
        let v: CatalogKey = [
            None,
            Some("S".into()),
            Some("T".into()),
            Some("V".into()),
            Some("0".into()),
        ];
        assert_eq!(
            catalog_key(&v).unwrap(),
            [0x00, b'S', 0x00, b'T', 0x00, b'V', 0x00, b'0']
        );
        let header: CatalogKey = [None, None, Some("M".into()), None, None];
        assert_eq!(catalog_key(&header).unwrap(), [0x00, 0x00, b'M']);
        assert_eq!(
            column_type(12, Some(10), None),
            Ok(PhoenixType::Varchar {
                max_chars: Some(10)
            })
        );
        assert_eq!(column_type(3012, None, None), Err(3012));
    }
}
