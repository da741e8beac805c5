//! Which scans a field's encoding supports: a prefix scan needs the stored
//! bytes of a value to start with the stored bytes of its prefix; a range
//! scan needs stored bytes that sort like the values. Each refusal names a
//! `rowkey::scan` reason type, which the compile error shows.

use crate::model::{Codec, FieldModel, Framing, Reverse};

/// What a field's `_starts_with` writes, or why it has none.
pub enum PrefixScan {
    Digits,
    Bytes,
}

/// How a field's range bounds are written, or why it has none.
pub enum RangeScan {
    /// Encoded like exact values, through the field's codec.
    Values,
    /// A `#[desc_ts]` window.
    Time,
}

/// Fields that only take an exact value, whatever their codec.
fn exact_only(f: &FieldModel, hashed: bool) -> Result<(), &'static str> {
    if hashed {
        Err("HashedFieldsAreSetExactly")
    } else if f.optional {
        Err("OptionalFieldsAreSetExactly")
    } else {
        Ok(())
    }
}

/// `Err` holds the name of the reason type in `rowkey::scan`.
pub fn prefix_scan(f: &FieldModel, hashed: bool) -> Result<PrefixScan, &'static str> {
    exact_only(f, hashed)?;
    match f.codec {
        Codec::Text { reverse: true, .. } => Err("ReversedFieldsHaveNoPrefixOrRangeOrder"),
        Codec::Text { .. } => Ok(PrefixScan::Digits),
        Codec::DescTs { .. } => Err("ReversedTimestampsHaveNoPrefix"),
        Codec::Part => Err("BinaryFieldsHaveNoTextPrefix"),
        Codec::TextDate { .. } | Codec::TextUuid | Codec::TextDecimal { .. } => {
            Err("TextFormsTakeARangeNotAPrefix")
        }
        Codec::Bytes { reverse, .. } if reverse != Reverse::No => {
            Err("ReversedFieldsHaveNoPrefixOrRangeOrder")
        }
        Codec::Bytes {
            framing: Framing::Padded { left: true, .. },
            ..
        } => Err("LeftPaddedFieldsHaveNoPrefixOrRangeOrder"),
        Codec::Bytes {
            framing: Framing::Escaped,
            ..
        } if f.desc => Err("DescendingEscapedFieldsHaveNoPrefix"),
        Codec::Bytes { .. } => Ok(PrefixScan::Bytes),
    }
}

pub fn range_scan(f: &FieldModel, hashed: bool) -> Result<RangeScan, &'static str> {
    exact_only(f, hashed)?;
    match f.codec {
        Codec::Text { reverse: true, .. } => Err("ReversedFieldsHaveNoPrefixOrRangeOrder"),
        Codec::DescTs { .. } => Ok(RangeScan::Time),
        // A hand-written KeyPart's order is checked where the range is
        // built (`KeyPart::ORDERED`).
        Codec::Text { .. } | Codec::Part => Ok(RangeScan::Values),
        // Fixed-width text that sorts like the units it writes: bounds are
        // written as values are (a `%Y%m` bound is its month).
        Codec::TextDate { .. } | Codec::TextUuid | Codec::TextDecimal { .. } => {
            Ok(RangeScan::Values)
        }
        Codec::Bytes { reverse, .. } if reverse != Reverse::No => {
            Err("ReversedFieldsHaveNoPrefixOrRangeOrder")
        }
        Codec::Bytes { framing, .. } => match framing {
            Framing::Escaped | Framing::Raw => Ok(RangeScan::Values),
            Framing::Padded { left: true, .. } => Err("LeftPaddedFieldsHaveNoPrefixOrRangeOrder"),
            Framing::Padded { fill: 0, .. } => Ok(RangeScan::Values),
            Framing::Padded { .. } => Err("PaddedFieldsWithNonZeroFillHaveNoRangeOrder"),
            Framing::Delimited => Err("SeparatorJoinedTextHasNoRangeOrder"),
        },
    }
}
