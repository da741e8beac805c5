//! [`RecordError`]: a row that does not read back as a record, naming the
//! record, the cell and the row.

use crate::cell::CellError;
use core::fmt;
use rowkey_core::{DecodeError, KeyDisplay};

/// A row that does not read back as its record: what
/// `#[derive(Record)]`'s `from_row` returns (boxed, as
/// [`Record::from_row`](crate::Record::from_row)'s error; downcast it to
/// look inside). It names the record type, the column (`family:qualifier`)
/// or the key, the row key as `toStringBinary` shows it, and the reason.
///
/// ```
/// use rowkey::store::cell::CellError;
/// use rowkey::store::RecordError;
/// let e = RecordError::Cell {
///     record: "Reading",
///     family: "d".into(),
///     qualifier: b"v".to_vec(),
///     key: b"dev\x00\x01".to_vec(),
///     reason: CellError::width(8, 3, "an f64"),
/// };
/// assert_eq!(e.to_string(), r"cannot read Reading from row dev\x00\x01: cell d:v: expected 8 bytes (an f64), found 3");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum RecordError {
    /// The row key does not decode as the record's key.
    Key {
        /// The record type's name.
        record: &'static str,
        /// The row key.
        key: Vec<u8>,
        /// Why.
        source: DecodeError,
    },
    /// A cell is missing or does not hold its field's value.
    Cell {
        /// The record type's name.
        record: &'static str,
        /// The cell's family.
        family: String,
        /// The cell's qualifier.
        qualifier: Vec<u8>,
        /// The row key.
        key: Vec<u8>,
        /// Why.
        reason: CellError,
    },
}

impl RecordError {
    /// The record type's name.
    pub fn record(&self) -> &'static str {
        match self {
            RecordError::Key { record, .. } | RecordError::Cell { record, .. } => record,
        }
    }

    /// The row key.
    pub fn key(&self) -> &[u8] {
        match self {
            RecordError::Key { key, .. } | RecordError::Cell { key, .. } => key,
        }
    }
}

/// At most this many bytes of a key go into a message.
const SHOWN: usize = 64;

fn shown(key: &[u8]) -> String {
    let head = KeyDisplay(&key[..key.len().min(SHOWN)]).to_string();
    if key.len() > SHOWN {
        head + "..."
    } else {
        head
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Key {
                record,
                key,
                source,
            } => write!(
                f,
                "cannot read {record} from row {}: the key does not decode: {source}",
                shown(key)
            ),
            RecordError::Cell {
                record,
                family,
                qualifier,
                key,
                reason,
            } => write!(
                f,
                "cannot read {record} from row {}: cell {family}:{}: {reason}",
                shown(key),
                KeyDisplay(qualifier)
            ),
        }
    }
}

impl std::error::Error for RecordError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RecordError::Key { source, .. } => Some(source),
            // The reason is in the message; a refusal's cause is its source.
            RecordError::Cell { reason, .. } => reason.source(),
        }
    }
}
