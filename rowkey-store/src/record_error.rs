//! [`RecordError`]: a row that does not read back as a record, naming the
//! record, the cell and the row.

use crate::cell::CellError;
use crate::BoxError;
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
    /// A hand-written [`Record::from_row`](crate::Record::from_row)'s own
    /// reason (anything `?` turns into a `RecordError`: text, a decode or
    /// parse error, a `BoxError`).
    Other(BoxError),
}

impl RecordError {
    /// A hand-written `from_row`'s reason, of any error type.
    pub fn other(reason: impl Into<BoxError>) -> Self {
        RecordError::from(reason.into())
    }

    /// The record type's name (not known for [`Other`](Self::Other)).
    pub fn record(&self) -> Option<&'static str> {
        match self {
            RecordError::Key { record, .. } | RecordError::Cell { record, .. } => Some(record),
            RecordError::Other(_) => None,
        }
    }

    /// The row key (not known for [`Other`](Self::Other)).
    pub fn key(&self) -> Option<&[u8]> {
        match self {
            RecordError::Key { key, .. } | RecordError::Cell { key, .. } => Some(key),
            RecordError::Other(_) => None,
        }
    }
}

/// A `BoxError` holding a `RecordError` is that error again.
impl From<BoxError> for RecordError {
    fn from(e: BoxError) -> Self {
        match e.downcast::<RecordError>() {
            Ok(e) => *e,
            Err(e) => RecordError::Other(e),
        }
    }
}

impl From<&str> for RecordError {
    fn from(reason: &str) -> Self {
        RecordError::Other(reason.into())
    }
}

impl From<String> for RecordError {
    fn from(reason: String) -> Self {
        RecordError::Other(reason.into())
    }
}

/// `?` in a hand-written `from_row` on the errors it meets most: a key
/// that does not decode, text that is not UTF-8 or not a number, a cell
/// of the wrong width, a store's error. Any other error:
/// [`RecordError::other`].
macro_rules! from_errors {
    ($($t:ty),* $(,)?) => {$(
        impl From<$t> for RecordError {
            fn from(e: $t) -> Self {
                RecordError::Other(Box::new(e))
            }
        }
    )*};
}

from_errors!(
    DecodeError,
    rowkey_core::EncodeError,
    CellError,
    crate::StoreError,
    core::str::Utf8Error,
    std::string::FromUtf8Error,
    core::num::ParseIntError,
    core::num::ParseFloatError,
    core::str::ParseBoolError,
    core::num::TryFromIntError,
    core::array::TryFromSliceError,
);

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
            RecordError::Other(reason) => reason.fmt(f),
        }
    }
}

impl std::error::Error for RecordError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RecordError::Key { source, .. } => Some(source),
            // The reason is in the message; a refusal's cause is its source.
            RecordError::Cell { reason, .. } => reason.source(),
            // Its message is the reason's.
            RecordError::Other(reason) => reason.source(),
        }
    }
}
