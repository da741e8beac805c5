//! Apache Phoenix 5.2's types and row keys, byte for byte: a table
//! Phoenix made is read and written as Phoenix reads and writes it.
//!
//! - [`PhoenixType`]: a column's SQL type (`VARCHAR(10)`, `DECIMAL(10,2)`,
//!   `UNSIGNED_INT`...).
//! - [`PhoenixValue`]: the Rust types a column's value can be, each with
//!   its bytes in the types it holds (the ascending form, which is also
//!   what a cell holds).
//! - The key ([`put_column`], [`take_column`], [`PhoenixKeyLen`]): each
//!   column's bytes, inverted for `DESC`, a separator after a
//!   variable-length column, trailing NULLs dropped.
//! - The cells ([`cell_bytes`], [`cell_value`], [`encoded_qualifier`],
//!   [`empty_column_qualifier`]): a non-key column's qualifier and bytes,
//!   and the empty column every row carries.
//!
//! Checked against Phoenix 5.2.1's own `PDataType` encoders and tables
//! (`tests/it/phoenix*`); what Phoenix's code does, with the bytes, is in
//! `testing/phoenix/notes/`. Two of Phoenix's DESC forms are refused
//! rather than copied: a `DESC BOOLEAN` key (Phoenix 5.2.1 writes `FE`
//! for true and reads it back as false) and values a `DECIMAL(p,s)`
//! would cut to its scale (Phoenix writes some of those DESC keys
//! uninverted).

mod arg;
mod cell;
mod decimal;
mod decimal_digits;
mod dynamic;
mod field;
mod key;
mod number;
mod single_cell;
mod temporal;
mod text;
mod types;
mod value;

pub(crate) use arg::with_types_taken_as_themselves;
pub use arg::{PhoenixPut, PhoenixScanArg};
pub use cell::{
    cell_bytes, cell_value, empty_column_qualifier, encoded_qualifier, qualifier_number,
    DEFAULT_FAMILY, EMPTY_COLUMN_VALUE, FIRST_ENCODED_QUALIFIER,
};
pub use decimal::{
    decimal_bytes, decimal_from, DecimalBytes, DecimalDigits, DECIMAL_OUT_OF_RANGE,
    MAX_DECIMAL_BYTES, MAX_DECIMAL_DIGITS,
};
pub use field::PhoenixField;
pub use key::{
    column_value, finish_key, finish_read, put_column, take_column, PhoenixColumn, PhoenixKeyLen,
};
pub use number::{
    double_bytes, double_from, float_bytes, float_from, java_double_bits, java_float_bits,
};
pub use single_cell::{pack_single_cell, single_cell_slot, SingleCell, SINGLE_CELL_QUALIFIER};
pub use temporal::PhoenixTimestamp;
pub use types::PhoenixType;
pub use value::PhoenixValue;
#[cfg(test)]
mod tests;
