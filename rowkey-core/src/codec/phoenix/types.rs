//! [`PhoenixType`]: a Phoenix SQL type as a column declares it. Data only:
//! what a layout records and the derive writes in constants.

use core::fmt;

/// A Phoenix 5.2 SQL type, with its length, precision and scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PhoenixType {
    /// `VARCHAR` or `VARCHAR(n)`: UTF-8, at most `n` characters.
    Varchar {
        /// The most characters (`None`: no limit).
        max_chars: Option<u32>,
    },
    /// `CHAR(n)`: `n` single-byte characters, padded with spaces.
    Char {
        /// The width in bytes.
        len: u32,
    },
    /// `BINARY(n)`: `n` bytes, padded with zero bytes.
    Binary {
        /// The width in bytes.
        len: u32,
    },
    /// `VARBINARY`: bytes (only the last key column, ascending).
    Varbinary,
    /// `TINYINT`: `i8`.
    TinyInt,
    /// `SMALLINT`: `i16`.
    SmallInt,
    /// `INTEGER`: `i32`.
    Integer,
    /// `BIGINT`: `i64`.
    BigInt,
    /// `UNSIGNED_TINYINT`: `0..=127`.
    UnsignedTinyInt,
    /// `UNSIGNED_SMALLINT`: `0..=32767`.
    UnsignedSmallInt,
    /// `UNSIGNED_INT`: `0..=i32::MAX`.
    UnsignedInt,
    /// `UNSIGNED_LONG`: `0..=i64::MAX`.
    UnsignedLong,
    /// `FLOAT`: `f32`.
    Float,
    /// `DOUBLE`: `f64`.
    Double,
    /// `UNSIGNED_FLOAT`: an `f32` not below 0.
    UnsignedFloat,
    /// `UNSIGNED_DOUBLE`: an `f64` not below 0.
    UnsignedDouble,
    /// `DECIMAL` or `DECIMAL(p, s)`.
    Decimal {
        /// The most significant digits (1..=38; `None`: 38, any scale).
        precision: Option<u8>,
        /// Digits after the point.
        scale: Option<u8>,
    },
    /// `BOOLEAN`.
    Boolean,
    /// `DATE`: milliseconds since the epoch.
    Date,
    /// `TIME`: milliseconds since the epoch.
    Time,
    /// `TIMESTAMP`: milliseconds and nanoseconds.
    Timestamp,
    /// `UNSIGNED_DATE`: `DATE` from the epoch on.
    UnsignedDate,
    /// `UNSIGNED_TIME`: `TIME` from the epoch on.
    UnsignedTime,
    /// `UNSIGNED_TIMESTAMP`: `TIMESTAMP` from the epoch on.
    UnsignedTimestamp,
}

impl PhoenixType {
    /// Bytes of every value, for a fixed-width type; `None` for
    /// `VARCHAR`, `VARBINARY` and `DECIMAL`.
    pub const fn fixed_width(&self) -> Option<usize> {
        Some(match *self {
            PhoenixType::Varchar { .. } | PhoenixType::Varbinary | PhoenixType::Decimal { .. } => {
                return None
            }
            PhoenixType::Char { len } | PhoenixType::Binary { len } => len as usize,
            PhoenixType::TinyInt | PhoenixType::UnsignedTinyInt | PhoenixType::Boolean => 1,
            PhoenixType::SmallInt | PhoenixType::UnsignedSmallInt => 2,
            PhoenixType::Integer
            | PhoenixType::UnsignedInt
            | PhoenixType::Float
            | PhoenixType::UnsignedFloat => 4,
            PhoenixType::BigInt
            | PhoenixType::UnsignedLong
            | PhoenixType::Double
            | PhoenixType::UnsignedDouble
            | PhoenixType::Date
            | PhoenixType::Time
            | PhoenixType::UnsignedDate
            | PhoenixType::UnsignedTime => 8,
            PhoenixType::Timestamp | PhoenixType::UnsignedTimestamp => 12,
        })
    }

    /// The most bytes a value takes: `None` for a `VARCHAR` without a
    /// limit and `VARBINARY`.
    pub const fn max_width(&self) -> Option<usize> {
        match *self {
            PhoenixType::Varchar { max_chars: Some(n) } => Some(4 * n as usize),
            PhoenixType::Decimal { .. } => Some(super::MAX_DECIMAL_BYTES),
            PhoenixType::Varchar { max_chars: None } | PhoenixType::Varbinary => None,
            _ => self.fixed_width(),
        }
    }

    /// The type's place in [`PhoenixValue::HOLDS`](super::PhoenixValue::HOLDS).
    pub const fn bit(&self) -> u32 {
        1 << match *self {
            PhoenixType::Varchar { .. } => 0,
            PhoenixType::Char { .. } => 1,
            PhoenixType::Binary { .. } => 2,
            PhoenixType::Varbinary => 3,
            PhoenixType::TinyInt => 4,
            PhoenixType::SmallInt => 5,
            PhoenixType::Integer => 6,
            PhoenixType::BigInt => 7,
            PhoenixType::UnsignedTinyInt => 8,
            PhoenixType::UnsignedSmallInt => 9,
            PhoenixType::UnsignedInt => 10,
            PhoenixType::UnsignedLong => 11,
            PhoenixType::Float => 12,
            PhoenixType::Double => 13,
            PhoenixType::UnsignedFloat => 14,
            PhoenixType::UnsignedDouble => 15,
            PhoenixType::Decimal { .. } => 16,
            PhoenixType::Boolean => 17,
            PhoenixType::Date => 18,
            PhoenixType::Time => 19,
            PhoenixType::Timestamp => 20,
            PhoenixType::UnsignedDate => 21,
            PhoenixType::UnsignedTime => 22,
            PhoenixType::UnsignedTimestamp => 23,
        }
    }

    /// The name Phoenix gives the type, without length or precision.
    pub const fn name(&self) -> &'static str {
        match *self {
            PhoenixType::Varchar { .. } => "VARCHAR",
            PhoenixType::Char { .. } => "CHAR",
            PhoenixType::Binary { .. } => "BINARY",
            PhoenixType::Varbinary => "VARBINARY",
            PhoenixType::TinyInt => "TINYINT",
            PhoenixType::SmallInt => "SMALLINT",
            PhoenixType::Integer => "INTEGER",
            PhoenixType::BigInt => "BIGINT",
            PhoenixType::UnsignedTinyInt => "UNSIGNED_TINYINT",
            PhoenixType::UnsignedSmallInt => "UNSIGNED_SMALLINT",
            PhoenixType::UnsignedInt => "UNSIGNED_INT",
            PhoenixType::UnsignedLong => "UNSIGNED_LONG",
            PhoenixType::Float => "FLOAT",
            PhoenixType::Double => "DOUBLE",
            PhoenixType::UnsignedFloat => "UNSIGNED_FLOAT",
            PhoenixType::UnsignedDouble => "UNSIGNED_DOUBLE",
            PhoenixType::Decimal { .. } => "DECIMAL",
            PhoenixType::Boolean => "BOOLEAN",
            PhoenixType::Date => "DATE",
            PhoenixType::Time => "TIME",
            PhoenixType::Timestamp => "TIMESTAMP",
            PhoenixType::UnsignedDate => "UNSIGNED_DATE",
            PhoenixType::UnsignedTime => "UNSIGNED_TIME",
            PhoenixType::UnsignedTimestamp => "UNSIGNED_TIMESTAMP",
        }
    }
}

impl PhoenixType {
    /// The Rust types a column of the type is (see
    /// [`PhoenixValue`](super::PhoenixValue)), for messages.
    pub const fn rust_types(&self) -> &'static str {
        match *self {
            PhoenixType::Varchar { .. } | PhoenixType::Char { .. } => "String",
            PhoenixType::Binary { .. } | PhoenixType::Varbinary => "Vec<u8>",
            PhoenixType::TinyInt => "i8",
            PhoenixType::SmallInt => "i16",
            PhoenixType::Integer => "i32",
            PhoenixType::BigInt => "i64",
            PhoenixType::UnsignedTinyInt => "u8",
            PhoenixType::UnsignedSmallInt => "u16",
            PhoenixType::UnsignedInt => "u32",
            PhoenixType::UnsignedLong => "u64",
            PhoenixType::Float | PhoenixType::UnsignedFloat => "f32",
            PhoenixType::Double | PhoenixType::UnsignedDouble => "f64",
            PhoenixType::Decimal { .. } => "rust_decimal::Decimal",
            PhoenixType::Boolean => "bool",
            PhoenixType::Date | PhoenixType::Time => "i64 (milliseconds)",
            PhoenixType::UnsignedDate | PhoenixType::UnsignedTime => "u64 (milliseconds)",
            PhoenixType::Timestamp | PhoenixType::UnsignedTimestamp => "PhoenixTimestamp",
        }
    }
}

/// The type as Phoenix's DDL writes it: `VARCHAR(10)`, `DECIMAL(10,2)`.
impl fmt::Display for PhoenixType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        match *self {
            PhoenixType::Varchar { max_chars: Some(n) }
            | PhoenixType::Char { len: n }
            | PhoenixType::Binary { len: n } => write!(f, "({n})"),
            PhoenixType::Decimal {
                precision: Some(p),
                scale,
            } => write!(f, "({p},{})", scale.unwrap_or(0)),
            _ => Ok(()),
        }
    }
}
