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
//! | [`date_text`] | dates and times as fixed-width text in a [`DateFormat`] (`#[text(format = "..")]`) | kept (of the units written) |
//! | `uuid_text` (feature `uuid`) | `uuid::Uuid` as 36 lowercase hyphenated characters (`#[text]`) | kept |
//! | `decimal_text` (feature `rust_decimal`) | `Decimal` as zero-padded digits of a fixed scale (`#[text(width, scale)]`); negatives refused | kept |
//! | `Option<T>` | `None` = `00`, `Some(v)` = `01` + v | kept |

mod byte_search;
pub mod bytes;
#[cfg(feature = "chrono")]
pub mod chrono;
pub(crate) mod civil;
pub mod date_format;
#[cfg(any(feature = "chrono", feature = "time", feature = "jiff"))]
mod date_impls;
pub mod date_text;
pub mod decimal;
#[cfg(feature = "rust_decimal")]
pub mod decimal_text;
pub mod desc;
pub(crate) mod desc_part;
pub(crate) mod epoch;
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
#[cfg(feature = "uuid")]
pub mod uuid_text;

pub use bytes::{DecodeBytes, DecodeBytesOwned, KeyBytes};
pub use date_format::{DateFormat, FormatError, FormatItem};
pub use date_text::{CivilTime, TextDate};
pub use decimal::{Digits, TextInt};
#[cfg(feature = "rust_decimal")]
pub use decimal_text::DecimalText;
pub use desc::{DescTs, Timestamp};
pub use framing::{BytesCodec, Framing};
pub use reverse::Reverse;
#[cfg(feature = "uuid")]
pub use uuid_text::UuidText;
