//! [`Value`]: one field's value, decoded from a key or parsed from a
//! command-line argument.

use crate::keytext;
use rowkey_core::KeyDisplay;
use std::fmt;

/// A field's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A signed integer (any width).
    Int(i128),
    /// An unsigned integer (any width).
    UInt(u128),
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
    /// A `bool`.
    Bool(bool),
    /// A `char`.
    Char(char),
    /// Text.
    Text(String),
    /// Bytes (`Vec<u8>`, `&[u8]`, `[u8; N]`).
    Bytes(Vec<u8>),
    /// `()`.
    Unit,
    /// A `uuid::Uuid`.
    Uuid(uuid::Uuid),
    /// A chrono `NaiveDate`.
    Date(chrono::NaiveDate),
    /// A chrono `NaiveDateTime`.
    DateTime(chrono::NaiveDateTime),
    /// A chrono `DateTime<Utc>`.
    DateTimeUtc(chrono::DateTime<chrono::Utc>),
    /// A `rust_decimal::Decimal`.
    Decimal(rust_decimal::Decimal),
    /// An `Option`.
    Option(Option<Box<Value>>),
    /// The bytes of a type the layout cannot describe.
    Opaque(Vec<u8>),
}

impl Value {
    /// The value as Rust's `{:?}` shows the field's type (`"a\n"`,
    /// `Some(3)`, `[1, 2]`, `'x'`, `2021-12-01`): what a derived
    /// `#[derive(Debug)]` struct prints for the field.
    pub fn rust_debug(&self) -> String {
        match self {
            Value::Int(v) => v.to_string(),
            Value::UInt(v) => v.to_string(),
            Value::F32(v) => format!("{v:?}"),
            Value::F64(v) => format!("{v:?}"),
            Value::Bool(v) => v.to_string(),
            Value::Char(v) => format!("{v:?}"),
            Value::Text(v) => format!("{v:?}"),
            Value::Bytes(v) | Value::Opaque(v) => format!("{v:?}"),
            Value::Unit => "()".into(),
            Value::Uuid(u) => format!("{u:?}"),
            Value::Date(d) => format!("{d:?}"),
            Value::Decimal(d) => format!("{d:?}"),
            Value::DateTime(d) => format!("{d:?}"),
            Value::DateTimeUtc(d) => format!("{d:?}"),
            Value::Option(None) => "None".into(),
            Value::Option(Some(v)) => format!("Some({})", v.rust_debug()),
        }
    }

    /// The value as an `i128`, for integers that fit.
    pub fn as_i128(&self) -> Option<i128> {
        match *self {
            Value::Int(v) => Some(v),
            Value::UInt(v) => i128::try_from(v).ok(),
            _ => None,
        }
    }

    /// A number on a time axis: integers as they are, dates as days,
    /// times as milliseconds since the epoch.
    pub fn as_time_axis(&self) -> Option<f64> {
        match self {
            Value::Int(v) => Some(*v as f64),
            Value::UInt(v) => Some(*v as f64),
            Value::Date(d) => Some(f64::from(
                d.signed_duration_since(chrono::NaiveDate::default())
                    .num_days() as i32,
            )),
            Value::DateTime(d) => Some(d.and_utc().timestamp_millis() as f64),
            Value::DateTimeUtc(d) => Some(d.timestamp_millis() as f64),
            Value::Option(Some(v)) => v.as_time_axis(),
            _ => None,
        }
    }
}

/// For people: text quoted with escapes, bytes as `toStringBinary` in
/// quotes, UUIDs hyphenated, opaque bytes as hex with their length.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bytes(b) => write!(f, "\"{}\"", KeyDisplay(b)),
            Value::Opaque(b) => write!(f, "0x{} ({} bytes)", keytext::hex(b), b.len()),
            Value::Date(d) => write!(f, "{d}"),
            Value::DateTime(d) => write!(f, "{d}"),
            Value::DateTimeUtc(d) => write!(f, "{}", d.format("%Y-%m-%dT%H:%M:%S%.fZ")),
            Value::Option(Some(v)) => write!(f, "Some({v})"),
            other => f.write_str(&other.rust_debug()),
        }
    }
}

/// Whether a date is in time's and jiff's range, years -9999..=9999.
pub fn within_9999(d: chrono::NaiveDate) -> bool {
    use chrono::Datelike;
    (-9999..=9999).contains(&d.year())
}
