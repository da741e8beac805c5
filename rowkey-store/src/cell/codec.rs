//! [`CellValue`] (a type's own cell codec) and [`CellCodec`] (a codec
//! named by `#[cell(with = ..)]`).

use super::CellError;
use crate::BoxError;

/// A type with a cell codec of its own: how `#[derive(Record)]` stores a
/// field of it when no `#[cell(with = ..)]` or `#[cell(json)]` says
/// otherwise. See [the module](super) for the built-in forms; implement it
/// for a type of yours to give every field of that type a codec.
///
/// `from_cell(&v.to_cell())` must give back `v`, and `from_cell` must
/// return an error, never panic, on any bytes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no cell codec",
    label = "no cell codec for this field's type",
    note = "give the field #[cell(with = MyCodec)] (a type implementing rowkey::store::cell::CellCodec<{Self}>), #[cell(json)] (feature `serde`), or implement rowkey::store::cell::CellValue for the type; usize and isize have none (their width depends on the platform): use u64 or i64"
)]
pub trait CellValue: Sized {
    /// The cell's bytes.
    fn to_cell(&self) -> Vec<u8>;

    /// The value the bytes hold.
    fn from_cell(bytes: &[u8]) -> Result<Self, CellError>;
}

/// A custom cell codec for values of `T`, named by `#[cell(with = C)]`
/// (`C` is a type, usually a unit struct).
///
/// `decode(&encode(v))` must give back `v`; `decode` returns an error,
/// never panics, on bytes it refuses: the record's read then fails with a
/// [`RecordError`](crate::RecordError) naming the record, the cell and the
/// row, with the codec's error as [`CellError::Refused`].
///
/// ```
/// use rowkey::store::cell::CellCodec;
/// use rowkey::store::BoxError;
///
/// /// Celsius stored as text, as a legacy writer did: "21.5".
/// struct DecimalText;
///
/// impl CellCodec<f64> for DecimalText {
///     fn encode(value: &f64) -> Vec<u8> {
///         value.to_string().into_bytes()
///     }
///     fn decode(bytes: &[u8]) -> Result<f64, BoxError> {
///         Ok(std::str::from_utf8(bytes)?.parse()?)
///     }
/// }
///
/// assert_eq!(DecimalText::decode(&DecimalText::encode(&21.5))?, 21.5);
/// assert!(DecimalText::decode(b"warm").is_err());
/// # Ok::<(), BoxError>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a cell codec for `{T}`",
    label = "#[cell(with = ..)] names a type implementing CellCodec<{T}>",
    note = "implement rowkey::store::cell::CellCodec<{T}> for `{Self}`"
)]
pub trait CellCodec<T> {
    /// The cell's bytes for `value`.
    fn encode(value: &T) -> Vec<u8>;

    /// The value `bytes` hold, or why they hold none.
    fn decode(bytes: &[u8]) -> Result<T, BoxError>;
}
