//! Reading and writing keys by their [`Layout`] alone, for tools that do
//! not have the derived type: the `rowkey` CLI, a service handed a layout
//! as JSON, a cursor checked against the layout it came from.
//!
//! The interpreter calls the codec functions the derived code calls, with
//! the parameters the layout records, so both accept the same keys and
//! write the same bytes (`tests/differential`, a property test over a
//! generated matrix of every codec and attribute, holds them to it).
//! Values come and go as [`Value`]s, which read and print the way a person
//! writes them.
//!
//! ```
//! use rowkey::{KeyPart, RowKey};
//!
//! #[derive(KeyPart, Debug, PartialEq)]
//! enum Metric { Temp, Humidity }
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Reading {
//!     #[salt(buckets = 16)] #[pad(width = 8)] device: String,
//!     metric: Metric,
//!     #[desc_ts] at: i64,
//! }
//!
//! let layout = Reading::layout();
//! let values = layout.parse_assignments(&["device=dev-7", "metric=Humidity", "at=1700000000"])?;
//! let key = layout.encode_key(&values, None)?;
//! let derived = Reading { device: "dev-7".into(), metric: Metric::Humidity, at: 1_700_000_000 };
//! assert_eq!(key, derived.to_vec()?);
//!
//! let decoded = layout.decode_key(&key)?;
//! assert_eq!(decoded.get("metric").unwrap().to_string(), "Humidity");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod decode;
mod decoded;
mod encode;
pub(crate) mod neutral;
mod parse;
mod prefix;
mod salt;

pub use crate::values::Value;
pub(crate) use decode::take_field;
pub use decoded::{BucketCheck, DecodedField, DecodedKey, PrefixReport};
pub use prefix::KeyRangeBytes;

use super::Layout;
use crate::{DecodeError, EncodeError};
use core::fmt;

/// Why [`Layout::encode_key`] wrote no key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncodeValuesError {
    /// A value the field's codec refuses: where and why.
    Key(EncodeError),
    /// The values are not one per field, or not of the fields' types.
    Values(String),
    /// The salt bucket cannot be computed from the layout (a user
    /// function picks it) and was not given, or the one given is wrong.
    Bucket(String),
}

impl fmt::Display for EncodeValuesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeValuesError::Key(e) => e.fmt(f),
            EncodeValuesError::Values(why) | EncodeValuesError::Bucket(why) => f.write_str(why),
        }
    }
}

/// No `source()`: `Display` already says what the key error says, and
/// saying it twice would print it twice under `{:#}`.
impl std::error::Error for EncodeValuesError {}

impl From<EncodeError> for EncodeValuesError {
    fn from(e: EncodeError) -> Self {
        EncodeValuesError::Key(e)
    }
}

impl Layout {
    /// Reads `key` field by field, then checks its salt bucket or hash
    /// prefix as the derived `decode` does (a bucket a user function
    /// picks cannot be recomputed: [`BucketCheck`] says how far it was
    /// checked). Any byte string gives a key or an error naming the
    /// field, the byte offset and the reason.
    pub fn decode_key(&self, key: &[u8]) -> Result<DecodedKey, DecodeError> {
        decode::decode(self, key)
    }

    /// Writes the key of `values`, one per field in field order. `bucket`
    /// is the salt bucket where a user function picks it; where the
    /// layout can compute the bucket, a given one must agree.
    pub fn encode_key(
        &self,
        values: &[Value],
        bucket: Option<u32>,
    ) -> Result<Vec<u8>, EncodeValuesError> {
        encode::encode(self, values, bucket)
    }

    /// The value of field `field` from what a person typed: `42`, `1.5`,
    /// `true`, `Temp` (an enum's variant), `2026-11-01`,
    /// `2026-11-01T07:30:00Z` (an instant; an offset such as `+02:00` is
    /// taken to UTC), `12.50`, a UUID, text as it is, bytes as
    /// `toStringBinary` or `0x` hex; `None` or `Some(v)` (or a bare `v`)
    /// for an `Option`. A `#[text(format)]` date also takes the text the
    /// key holds (`2021-12` for `%Y-%m`).
    pub fn parse_value(&self, field: &str, text: &str) -> Result<Value, String> {
        let f = self.field(field).ok_or_else(|| self.no_field(field))?;
        parse::field_value(f, text)
            .map_err(|why| format!("field `{field}` ({}): {why}", f.rust_type))
    }

    /// One value per field, in field order, from `field=value` texts in
    /// any order. Unknown, repeated and missing fields are errors that
    /// name them.
    pub fn parse_assignments<S: AsRef<str>>(&self, args: &[S]) -> Result<Vec<Value>, String> {
        let mut values: Vec<Option<Value>> = vec![None; self.fields.len()];
        for arg in args {
            let arg = arg.as_ref();
            let Some((name, text)) = arg.split_once('=') else {
                return Err(format!(
                    "`{arg}` is not field=value (fields: {})",
                    self.field_names()
                ));
            };
            let i = self
                .fields
                .iter()
                .position(|f| f.name == name)
                .ok_or_else(|| self.no_field(name))?;
            if values[i].is_some() {
                return Err(format!("field `{name}` is given twice"));
            }
            values[i] = Some(self.parse_value(name, text)?);
        }
        let missing: Vec<&str> = self
            .fields
            .iter()
            .zip(&values)
            .filter(|(_, v)| v.is_none())
            .map(|(f, _)| f.name)
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "missing {}: every field of {} needs a value",
                missing.join(", "),
                self.name
            ));
        }
        Ok(values.into_iter().flatten().collect())
    }

    fn field_names(&self) -> String {
        let names: Vec<&str> = self.fields.iter().map(|f| f.name).collect();
        names.join(", ")
    }

    fn no_field(&self, name: &str) -> String {
        format!(
            "{} has no field `{name}` (fields: {})",
            self.name,
            self.field_names()
        )
    }
}
