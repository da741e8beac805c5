//! Field codecs: one module per way of writing a value.
//!
//! | module | writes | order |
//! | --- | --- | --- |
//! | [`int`] | integers big-endian, sign bit flipped for signed types | kept |
//! | [`float`] | `f32`/`f64` bits in total order; `-0.0` stored as `0.0`, NaN refused | kept |
//! | [`decimal`] | integers as zero-padded digits (`#[text]`) | kept |
//! | [`escaped`] | variable bytes, `00`→`00 FF`, terminator `00 01` | kept |
//! | [`framing`] | text/bytes escaped, raw, padded or delimited | kept, but left padding sorts by length first |
//! | [`reverse`] | characters, digits or segments back to front | none |
//! | [`desc`] | `i64::MAX - ts`, inverted parts | reversed |
//! | `chrono` (feature `chrono`) | `NaiveDate` as epoch days, `NaiveDateTime` and `DateTime<Utc>` as epoch nanoseconds, sign bit flipped | kept |
//! | `time` (feature `time`), `jiff` (feature `jiff`) | dates as epoch days, datetimes and instants as epoch nanoseconds, as chrono's | kept |
//! | `rust_decimal` (feature `rust_decimal`) | `Decimal` as a sign and exponent byte, then base-100 digits; normalised | kept |
//! | `uuid` (feature `uuid`) | `uuid::Uuid` as its 16 bytes | kept (`Uuid`'s `Ord`) |
//! | `Option<T>` | `None` = `00`, `Some(v)` = `01` + v | kept |

pub mod bytes;
#[cfg(feature = "chrono")]
pub mod chrono;
pub mod decimal;
pub mod desc;
pub(crate) mod desc_part;
#[cfg(any(feature = "chrono", feature = "time", feature = "jiff"))]
mod epoch;
pub mod escaped;
pub mod float;
pub mod framing;
pub mod int;
#[cfg(feature = "jiff")]
pub mod jiff;
pub(crate) mod option;
pub mod reverse;
#[cfg(feature = "rust_decimal")]
pub mod rust_decimal;
#[cfg(test)]
mod test_util;
#[cfg(feature = "time")]
pub mod time;
#[cfg(feature = "uuid")]
pub mod uuid;

pub use bytes::{DecodeBytes, DecodeBytesOwned, KeyBytes};
pub use decimal::{Digits, TextInt};
pub use desc::{DescTs, Timestamp};
pub use framing::{BytesCodec, Framing};
pub use reverse::Reverse;
