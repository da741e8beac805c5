//! [`CellError`]: why a cell's bytes are not a field's value.

use crate::BoxError;
use core::fmt;

/// Why a cell's value does not read back as a field's value: the reason
/// part of a [`RecordError`](crate::RecordError), which adds the record,
/// the column and the row.
///
/// ```
/// use rowkey::store::cell::{CellError, CellValue};
/// let e = u64::from_cell(b"\x00\x01").unwrap_err();
/// assert_eq!(e.to_string(), "expected 8 bytes (a u64), found 2");
/// assert!(matches!(e, CellError::Width { expected: 8, found: 2, .. }));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum CellError {
    /// The row has no cell for a field that is not an `Option`.
    Missing,
    /// A fixed-width value of another width.
    Width {
        /// The value's width in bytes.
        expected: usize,
        /// The cell's length.
        found: usize,
        /// What the width is of: "a u64", "an f64".
        what: &'static str,
    },
    /// Text that is not UTF-8.
    Utf8 {
        /// How many bytes from the start are valid UTF-8.
        valid_up_to: usize,
    },
    /// Bytes of the right shape that hold no value of the type (a decimal
    /// scale over 28, a date out of range).
    Invalid(String),
    /// A custom codec's (`#[cell(with = ..)]`) or JSON's refusal; the
    /// codec's error is the [`source`](std::error::Error::source).
    Refused(BoxError),
}

impl CellError {
    /// [`CellError::Width`].
    pub fn width(expected: usize, found: usize, what: &'static str) -> Self {
        CellError::Width {
            expected,
            found,
            what,
        }
    }

    /// [`CellError::Invalid`].
    pub fn invalid(why: impl Into<String>) -> Self {
        CellError::Invalid(why.into())
    }

    /// [`CellError::Refused`].
    pub fn refused(source: impl Into<BoxError>) -> Self {
        CellError::Refused(source.into())
    }
}

impl fmt::Display for CellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellError::Missing => write!(
                f,
                "the row has no such cell, and the field is not an Option"
            ),
            CellError::Width {
                expected,
                found,
                what,
            } => write!(f, "expected {expected} bytes ({what}), found {found}"),
            CellError::Utf8 { valid_up_to } => {
                write!(f, "not UTF-8: invalid bytes after the first {valid_up_to}")
            }
            CellError::Invalid(why) => f.write_str(why),
            CellError::Refused(_) => f.write_str("the field's codec refused the value"),
        }
    }
}

impl std::error::Error for CellError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CellError::Refused(e) => Some(e.as_ref()),
            _ => None,
        }
    }
}
