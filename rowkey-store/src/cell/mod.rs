//! Cell values: how `#[derive(Record)]` stores a field in a cell, and
//! reads it back. Row format, not key format: a cell's bytes need not
//! sort, so values are written as Java clients write them with HBase's
//! `Bytes`, and read back by them.
//!
//! | field type | cell | HBase's Java reads it with |
//! | --- | --- | --- |
//! | `i8`..`i128`, `u8`..`u128` | big-endian, the type's width (unsigned: the same bits) | `Bytes.toShort`, `toInt`, `toLong` (2, 4, 8 bytes) |
//! | `f32`, `f64` | the IEEE 754 bits, big-endian; NaN kept as its bits | `Bytes.toFloat`, `toDouble` |
//! | `bool` | one byte: `0xFF` true, `0x00` false; any byte but `0x00` reads as true | `Bytes.toBoolean` |
//! | `String`, `Box<str>`, `char` | UTF-8; bytes that are not UTF-8 are an error | `Bytes.toString` |
//! | `Vec<u8>`, `Box<[u8]>`, `[u8; N]` | the bytes | the bytes |
//! | `Option<T>` | no cell for `None`; `T`'s cell for `Some` | |
//! | dates (chrono, time, jiff) | days since 1970-01-01, `i32` | `LocalDate.ofEpochDay(Bytes.toInt(v))` |
//! | date-times and instants | seconds since the epoch (`i64`), then nanoseconds (`u32`): 12 bytes | `Instant.ofEpochSecond(Bytes.toLong(v, 0), Bytes.toInt(v, 8))` |
//! | `uuid::Uuid` | its 16 bytes | two `Bytes.toLong`s: most, then least significant bits |
//! | `rust_decimal::Decimal` | 4-byte scale, then the unscaled two's complement | `Bytes.toBigDecimal` |
//! | `#[cell(json)]` (feature `serde`) | the value's JSON | |
//! | `#[cell(with = C)]` | `C`'s: a [`CellCodec`] | |
//!
//! Fixed-width values are read only from cells of exactly their width
//! (HBase's `Bytes.toLong` reads the first 8 bytes of a longer array); a
//! cell that does not hold a value gives a [`CellError`], never a panic.
//! A type of yours gets a codec by implementing [`CellValue`]; one field
//! gets another codec with `#[cell(with = C)]`.

mod codec;
#[cfg(any(feature = "chrono", feature = "time", feature = "jiff"))]
mod dates;
#[cfg(feature = "rust_decimal")]
mod decimal;
mod error;
#[cfg(feature = "serde")]
pub(crate) mod json;
#[cfg(feature = "uuid")]
mod uuid;
mod value;

pub use codec::{CellCodec, CellValue};
pub use error::CellError;
