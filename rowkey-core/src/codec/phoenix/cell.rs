//! A Phoenix row's non-key columns, one cell each
//! (`ONE_CELL_PER_COLUMN`): the qualifier Phoenix gives a column
//! (`COLUMN_ENCODED_BYTES`, `QualifierEncodingScheme.encode`), a value's
//! bytes (its type's ascending form), and the empty column Phoenix writes
//! with every row, without which Phoenix does not see the row.
//! `testing/phoenix/notes/cells.md` §2 and §3 have Phoenix's code for each.

use super::{PhoenixType, PhoenixValue};
use crate::error::{DecodeErrorKind, EncodeErrorKind};

/// The family of a column that names none (`QueryConstants.DEFAULT_COLUMN_FAMILY`).
pub const DEFAULT_FAMILY: &str = "0";

/// The value of the empty column (`QueryConstants.EMPTY_COLUMN_VALUE_BYTES`).
pub const EMPTY_COLUMN_VALUE: &[u8] = b"x";

/// The first number Phoenix gives a non-key column
/// (`ENCODED_CQ_COUNTER_INITIAL_VALUE`; 0 to 10 are reserved, 0 for the
/// empty column).
pub const FIRST_ENCODED_QUALIFIER: u32 = 11;

/// The empty column's qualifier in a table of `encoded_bytes`
/// (`COLUMN_ENCODED_BYTES`): `00 00 00 00` in an encoded table (a
/// reserved number is always written in four bytes), `_0` in one that
/// names its columns (0).
pub const fn empty_column_qualifier(encoded_bytes: u8) -> &'static [u8] {
    if encoded_bytes == 0 {
        b"_0"
    } else {
        &[0, 0, 0, 0]
    }
}

/// The qualifier of column number `n` in a table of `encoded_bytes`
/// (1 to 4), as Phoenix's `QualifierEncodingScheme.encode` writes it
/// (`11` is `8B`, `80 0B`, `00 00 0B`, `00 00 00 0B`); `None` for a
/// reserved number (below 11) or one the width does not hold.
pub fn encoded_qualifier(encoded_bytes: u8, n: u32) -> Option<Vec<u8>> {
    if n < FIRST_ENCODED_QUALIFIER {
        return None;
    }
    let be = n.to_be_bytes();
    match encoded_bytes {
        // ONE and TWO are the number less 2^7 or 2^15, as a signed byte
        // or short: its top bit flipped.
        1 if n <= 0xFF => Some(vec![be[3] ^ 0x80]),
        2 if n <= 0xFFFF => Some(vec![be[2] ^ 0x80, be[3]]),
        3 if n <= 0xFF_FFFF => Some(be[1..].to_vec()),
        4 if n <= i32::MAX as u32 => Some(be.to_vec()),
        _ => None,
    }
}

/// The column number of an encoded qualifier (the inverse of
/// [`encoded_qualifier`]); `None` where `q` is not one of that width.
pub fn qualifier_number(encoded_bytes: u8, q: &[u8]) -> Option<u32> {
    let n = match (encoded_bytes, q) {
        (1, [a]) => u32::from(a ^ 0x80),
        (2, [a, b]) => u32::from_be_bytes([0, 0, a ^ 0x80, *b]),
        (3, [a, b, c]) => u32::from_be_bytes([0, *a, *b, *c]),
        (4, [a, b, c, d]) => u32::from_be_bytes([*a, *b, *c, *d]),
        _ => return None,
    };
    (n >= FIRST_ENCODED_QUALIFIER && n <= i32::MAX as u32).then_some(n)
}

/// The cell of `value` as a column of type `ty`: its ascending bytes, or
/// `None` for NULL (Phoenix writes no cell, and a mutable table's write
/// clears the column's cell). An empty `VARCHAR` or `VARBINARY` is
/// refused: Phoenix reads an empty value as NULL.
pub fn cell_bytes<V: PhoenixValue>(
    value: &V,
    ty: &PhoenixType,
) -> Result<Option<Vec<u8>>, EncodeErrorKind> {
    if value.is_null() {
        return Ok(None);
    }
    value.check(ty)?;
    let mut out = Vec::with_capacity(value.phoenix_len(ty));
    value.put_phoenix(ty, &mut |b| out.extend_from_slice(b));
    Ok(Some(out))
}

/// The value of a column of type `ty` whose cell holds `bytes` (`None`:
/// no cell). No cell and an empty cell are NULL, as Phoenix reads them
/// (a `STORE_NULLS` table writes a NULL as an empty value).
pub fn cell_value<V: PhoenixValue>(
    bytes: Option<&[u8]>,
    ty: &PhoenixType,
) -> Result<V, DecodeErrorKind> {
    V::from_phoenix(bytes.filter(|b| !b.is_empty()), ty)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn qualifiers_are_phoenix_s() {
        // testing/phoenix/notes/cells.md §3.3, and what a live Phoenix's
        // catalog gives (rowkey-hbase/tests/phoenix/).
        let q = |b, n| encoded_qualifier(b, n);
        assert_eq!(q(1, 11), Some(vec![0x8b]));
        assert_eq!(q(2, 11), Some(vec![0x80, 0x0b]));
        assert_eq!(q(2, 300), Some(vec![0x81, 0x2c]));
        assert_eq!(q(3, 300), Some(vec![0x00, 0x01, 0x2c]));
        assert_eq!(q(4, 11), Some(vec![0, 0, 0, 0x0b]));
        // Reserved numbers, and numbers the width does not hold.
        assert_eq!(q(2, 0), None);
        assert_eq!(q(2, 10), None);
        assert_eq!(q(1, 256), None);
        assert_eq!(q(2, 65_536), None);
        assert_eq!(q(4, 1 << 31), None);
        assert_eq!(q(0, 11), None);
        assert_eq!(q(5, 11), None);
        assert_eq!(empty_column_qualifier(2), [0, 0, 0, 0]);
        assert_eq!(empty_column_qualifier(0), b"_0");
    }

    #[test]
    fn nulls_and_empty_cells() {
        let ty = PhoenixType::Varchar { max_chars: None };
        assert_eq!(cell_bytes(&None::<String>, &ty), Ok(None));
        assert!(cell_bytes(&String::new(), &ty).is_err());
        assert_eq!(cell_value::<Option<String>>(Some(b""), &ty), Ok(None));
        assert_eq!(cell_value::<Option<String>>(None, &ty), Ok(None));
        assert!(cell_value::<String>(Some(b""), &ty).is_err());
    }

    proptest! {
        #[test]
        fn qualifiers_round_trip(bytes in 1u8..=4, n in 11u32..=i32::MAX as u32) {
            match encoded_qualifier(bytes, n) {
                Some(q) => {
                    prop_assert_eq!(q.len(), usize::from(bytes));
                    prop_assert_eq!(qualifier_number(bytes, &q), Some(n));
                }
                None => prop_assert!(bytes < 4 && n >= 1 << (8 * u32::from(bytes))),
            }
        }

        #[test]
        fn qualifier_numbers_are_canonical(bytes in 0u8..=5, q in proptest::collection::vec(any::<u8>(), 0..6)) {
            if let Some(n) = qualifier_number(bytes, &q) {
                prop_assert_eq!(encoded_qualifier(bytes, n), Some(q));
            }
        }

        #[test]
        fn cells_round_trip(v in proptest::option::of(any::<i64>())) {
            let cell = cell_bytes(&v, &PhoenixType::BigInt).unwrap();
            prop_assert_eq!(cell_value::<Option<i64>>(cell.as_deref(), &PhoenixType::BigInt), Ok(v));
        }
    }
}
