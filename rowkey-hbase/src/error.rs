//! [`ThriftDataError`]: Thrift data that does not convert, precisely.

use rowkey_core::KeyDisplay;
use std::fmt;

/// Why a Thrift struct does not convert to or from a [`Row`]. The
/// conversions return it inside
/// [`StoreError::Backend`](rowkey_store::StoreError::Backend) (not
/// transient), whose `source` it is, for the operation `"read rows"` or
/// `"write rows"`.
///
/// Keys and column names are shown as HBase's `Bytes.toStringBinary`
/// shows them (as [`StoreError`](rowkey_store::StoreError) shows
/// keys), cut after 64 bytes.
///
/// [`Row`]: rowkey_store::Row
///
/// ```
/// use rowkey_hbase::ThriftDataError;
///
/// let e = ThriftDataError::ColumnWithoutColon { row: b"k".to_vec(), column: b"d".to_vec() };
/// assert_eq!(
///     e.to_string(),
///     "column d of row k has no ':' between family and qualifier"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ThriftDataError {
    /// A column name (`family:qualifier`) without the `:`.
    ColumnWithoutColon {
        /// The row's key.
        row: Vec<u8>,
        /// The column name.
        column: Vec<u8>,
    },
    /// A column whose family (the bytes before the first `:`) is not
    /// UTF-8, which a [`Cell`](rowkey_store::Cell)'s `String`
    /// family cannot hold.
    FamilyNotUtf8 {
        /// The row's key.
        row: Vec<u8>,
        /// The column name.
        column: Vec<u8>,
    },
    /// A `TColumn` without its `TCell`, or a `TCell` without its value.
    MissingValue {
        /// The row's key.
        row: Vec<u8>,
        /// The column name.
        column: Vec<u8>,
    },
    /// A `TRowResult` with both `columns` and `sorted_columns`: HBase
    /// sends one or the other, and which cells the row has is ambiguous.
    BothColumnForms {
        /// The row's key.
        row: Vec<u8>,
    },
    /// A cell to write whose family HBase would not read back as written:
    /// empty, or containing `:` (HBase splits `family:qualifier` at the
    /// first `:`, so the cell would land in another family and qualifier).
    BadFamily {
        /// The row's key.
        row: Vec<u8>,
        /// The family.
        family: String,
    },
}

impl fmt::Display for ThriftDataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThriftDataError::ColumnWithoutColon { row, column } => write!(
                f,
                "column {} of row {} has no ':' between family and qualifier",
                Shown(column),
                Shown(row)
            ),
            ThriftDataError::FamilyNotUtf8 { row, column } => write!(
                f,
                "column {} of row {} has a family that is not UTF-8",
                Shown(column),
                Shown(row)
            ),
            ThriftDataError::MissingValue { row, column } => write!(
                f,
                "column {} of row {} has no value",
                Shown(column),
                Shown(row)
            ),
            ThriftDataError::BothColumnForms { row } => write!(
                f,
                "row {} has both `columns` and `sorted_columns`",
                Shown(row)
            ),
            ThriftDataError::BadFamily { row, family } if family.is_empty() => write!(
                f,
                "a cell of row {} has an empty family; HBase has no such family",
                Shown(row)
            ),
            ThriftDataError::BadFamily { row, family } => write!(
                f,
                "family {} of row {} contains ':'; HBase would split the column at it \
                 and write another family and qualifier",
                Shown(family.as_bytes()),
                Shown(row)
            ),
        }
    }
}

impl std::error::Error for ThriftDataError {}

/// At most this many bytes of a key or column go into a message.
const SHOWN: usize = 64;

/// Bytes as `toStringBinary` shows them, cut after [`SHOWN`] bytes.
struct Shown<'a>(&'a [u8]);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = &self.0[..self.0.len().min(SHOWN)];
        let more = if self.0.len() > SHOWN { "..." } else { "" };
        write!(f, "{}{more}", KeyDisplay(head))
    }
}
