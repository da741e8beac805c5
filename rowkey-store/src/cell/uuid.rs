//! `uuid::Uuid` in a cell: its 16 bytes, most significant first, as Java
//! writes a `UUID` with `Bytes.toBytes(u.getMostSignificantBits())` then
//! `Bytes.toBytes(u.getLeastSignificantBits())`.

use super::{CellError, CellValue};
use uuid::Uuid;

impl CellValue for Uuid {
    fn to_cell(&self) -> Vec<u8> {
        self.as_bytes().to_vec()
    }
    fn from_cell(bytes: &[u8]) -> Result<Self, CellError> {
        Uuid::from_slice(bytes).map_err(|_| CellError::width(16, bytes.len(), "a UUID"))
    }
}
