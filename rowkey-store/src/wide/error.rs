//! [`WideCellError`]: a wide row's cell that does not read back as its
//! column's types.

use crate::BoxError;
use core::fmt;
use rowkey_core::KeyDisplay;

/// Which half of a cell did not decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CellPart {
    /// The qualifier, as the column's qualifier type.
    Qualifier,
    /// The value, as the column's value type.
    Value,
}

/// A cell of a wide row that does not decode as its
/// [`WideColumn`](crate::WideColumn)'s types: the source of the
/// [`StoreError::BadRecord`](crate::StoreError::BadRecord) a read returns
/// (the error names the row).
///
/// ```
/// use rowkey::store::{CellPart, WideCellError};
/// let e = WideCellError {
///     family: "t".into(),
///     qualifier: b"\x00".to_vec(),
///     part: CellPart::Qualifier,
///     source: "expected 2 bytes".into(),
/// };
/// assert_eq!(e.to_string(), r"cell t:\x00: its qualifier does not decode: expected 2 bytes");
/// ```
#[derive(Debug)]
pub struct WideCellError {
    /// The cell's family.
    pub family: String,
    /// The cell's qualifier.
    pub qualifier: Vec<u8>,
    /// What did not decode.
    pub part: CellPart,
    /// Why.
    pub source: BoxError,
}

impl fmt::Display for WideCellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = match self.part {
            CellPart::Qualifier => "qualifier",
            CellPart::Value => "value",
        };
        write!(
            f,
            "cell {}:{}: its {part} does not decode: {}",
            self.family,
            KeyDisplay(&self.qualifier),
            self.source
        )
    }
}

impl std::error::Error for WideCellError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}
