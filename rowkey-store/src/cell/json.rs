//! `#[cell(json)]` (feature `serde`): a field stored as its JSON text.

use super::CellError;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The value's JSON. A value serde_json cannot write (a map with keys
/// that are not strings, a `Serialize` impl that fails) is stored as
/// `null`, which reads back as an error unless the type accepts `null`.
pub fn to_json<T: Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_else(|_| b"null".to_vec())
}

/// The value the JSON holds; serde_json's error as the reason.
pub fn from_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CellError> {
    serde_json::from_slice(bytes).map_err(CellError::refused)
}
