//! `IMMUTABLE_STORAGE_SCHEME = SINGLE_CELL_ARRAY_WITH_OFFSETS` (an
//! immutable table's default): all of a family's columns in one cell, at
//! qualifier `1`, as Phoenix's `PArrayDataTypeEncoder` (serialization
//! version 3) packs them. `testing/phoenix/notes/cells.md` §4 has the
//! format and Phoenix's code:
//!
//! ```text
//! data       every present value's bytes, slot 0 first (always "x")
//! offsets    one per slot: where its value starts, or minus where the
//!            data stood for an absent (NULL) one; 2-byte shorts if the
//!            last fits, else 4-byte ints
//! start      i32: where the offsets start (the data's length)
//! count      i32: the slots, negated if the offsets are ints
//! version    03
//! ```
//!
//! A column numbered `q` (its encoded qualifier, from 11) is slot
//! `q - 10`; a cell has the slots of its family's columns up to the
//! highest number, and a slot past a cell's count (a column added after
//! the row was written) is NULL.

use super::cell::{EMPTY_COLUMN_VALUE, FIRST_ENCODED_QUALIFIER};
use crate::error::DecodeErrorKind;

/// The qualifier of a family's one cell (`SINGLE_KEYVALUE_COLUMN_QUALIFIER`).
pub const SINGLE_CELL_QUALIFIER: &[u8] = b"1";

/// The serialization version Phoenix 5.2 writes (`IMMUTABLE_SERIALIZATION_V2`).
const VERSION: u8 = 3;

/// The slot of column number `n`; `None` below 11 (Phoenix's own
/// numbers, slot 0 its `x`).
pub const fn single_cell_slot(n: u32) -> Option<usize> {
    match n.checked_sub(FIRST_ENCODED_QUALIFIER) {
        Some(i) => Some(i as usize + 1),
        None => None,
    }
}

/// The one cell of a family whose columns, by slot from 1, hold
/// `values` (`None`: NULL, or not written): slot 0 is Phoenix's `x`.
pub fn pack_single_cell(values: &[Option<&[u8]>]) -> Vec<u8> {
    let slots = values.len() + 1;
    let data_len: usize = 1 + values.iter().flatten().map(|v| v.len()).sum::<usize>();
    let mut offsets: Vec<i64> = Vec::with_capacity(slots);
    let mut out = Vec::with_capacity(data_len + 4 * slots + 9);
    offsets.push(0);
    out.extend_from_slice(EMPTY_COLUMN_VALUE);
    for v in values {
        let at = out.len() as i64;
        match v {
            Some(v) => {
                offsets.push(at);
                out.extend_from_slice(v);
            }
            None => offsets.push(-at),
        }
    }
    let start = out.len();
    // Phoenix decides the width by the last entry alone (its largest).
    let last = *offsets.last().expect("slot 0");
    let short = i16::try_from(last).is_ok();
    for o in &offsets {
        if short {
            out.extend_from_slice(&(*o as i16).to_be_bytes());
        } else {
            out.extend_from_slice(&(*o as i32).to_be_bytes());
        }
    }
    out.extend_from_slice(&(start as i32).to_be_bytes());
    let count = slots as i32;
    out.extend_from_slice(&(if short { count } else { -count }).to_be_bytes());
    out.push(VERSION);
    out
}

/// A packed cell's slots, checked once, then read by slot.
#[derive(Debug, Clone, Copy)]
pub struct SingleCell<'a> {
    data: &'a [u8],
    offsets: &'a [u8],
    wide: bool,
    count: usize,
}

const BAD: DecodeErrorKind =
    DecodeErrorKind::Invalid("not a Phoenix SINGLE_CELL_ARRAY_WITH_OFFSETS cell");

fn i32_at(b: &[u8], at: usize) -> Result<i32, DecodeErrorKind> {
    b.get(at..at + 4)
        .map(|s| i32::from_be_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or(BAD)
}

impl<'a> SingleCell<'a> {
    /// Reads a packed cell's frame; an error, never a panic, on bytes
    /// that are not one (another version, offsets past the cell).
    pub fn parse(cell: &'a [u8]) -> Result<Self, DecodeErrorKind> {
        let len = cell.len();
        if len < 9 || cell[len - 1] != VERSION {
            return Err(BAD);
        }
        let n = i32_at(cell, len - 5)?;
        let start = usize::try_from(i32_at(cell, len - 9)?).map_err(|_| BAD)?;
        let wide = n < 0;
        let count = n.unsigned_abs() as usize;
        let width = if wide { 4 } else { 2 };
        if start > len - 9 || count.checked_mul(width) != Some(len - 9 - start) || count == 0 {
            return Err(BAD);
        }
        Ok(SingleCell {
            data: &cell[..start],
            offsets: &cell[start..len - 9],
            wide,
            count,
        })
    }

    fn entry(&self, slot: usize) -> i64 {
        if self.wide {
            let s = &self.offsets[4 * slot..4 * slot + 4];
            i64::from(i32::from_be_bytes([s[0], s[1], s[2], s[3]]))
        } else {
            let s = &self.offsets[2 * slot..2 * slot + 2];
            i64::from(i16::from_be_bytes([s[0], s[1]]))
        }
    }

    /// The value in `slot` (`None`: NULL, absent, or past the cell's
    /// slots), as Phoenix's `PArrayDataTypeDecoder` finds it.
    pub fn value(&self, slot: usize) -> Result<Option<&'a [u8]>, DecodeErrorKind> {
        if slot >= self.count {
            return Ok(None);
        }
        let at = self.entry(slot);
        if at < 0 {
            return Ok(None);
        }
        let end = if slot + 1 < self.count {
            self.entry(slot + 1).unsigned_abs()
        } else {
            self.data.len() as u64
        };
        let (at, end) = (at as u64, end);
        if at > end || end > self.data.len() as u64 {
            return Err(BAD);
        }
        let v = &self.data[at as usize..end as usize];
        Ok((!v.is_empty()).then_some(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn phoenix_s_worked_example() {
        // notes/cells.md §4.5: A = 'ab', B NULL, C = 'c'.
        let cell = pack_single_cell(&[Some(b"ab"), None, Some(b"c")]);
        let hex: String = cell.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            concat!("78616263", "00000001fffd0003", "00000004", "00000004", "03")
        );
        // With B = 5 (an INTEGER's bytes).
        let cell = pack_single_cell(&[Some(b"ab"), Some(&[0x80, 0, 0, 5]), Some(b"c")]);
        let hex: String = cell.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            concat!(
                "7861628000000563",
                "0000000100030007",
                "00000008",
                "00000004",
                "03"
            )
        );
    }

    #[test]
    fn wide_offsets_past_a_short() {
        let big = vec![7u8; 40_000];
        let cell = pack_single_cell(&[Some(&big), None, Some(b"z")]);
        let c = SingleCell::parse(&cell).unwrap();
        assert!(c.wide);
        assert_eq!(c.value(1).unwrap(), Some(&big[..]));
        assert_eq!(c.value(2).unwrap(), None);
        assert_eq!(c.value(3).unwrap(), Some(&b"z"[..]));
        assert_eq!(c.value(9).unwrap(), None);
    }

    proptest! {
        #[test]
        fn packed_values_read_back(values in proptest::collection::vec(
            proptest::option::of(proptest::collection::vec(any::<u8>(), 1..40)), 0..20)) {
            let refs: Vec<Option<&[u8]>> = values.iter().map(|v| v.as_deref()).collect();
            let cell = pack_single_cell(&refs);
            let c = SingleCell::parse(&cell).unwrap();
            prop_assert_eq!(c.value(0).unwrap(), Some(&b"x"[..]));
            for (i, v) in values.iter().enumerate() {
                prop_assert_eq!(c.value(i + 1).unwrap(), v.as_deref());
            }
            prop_assert_eq!(c.value(values.len() + 1).unwrap(), None);
        }

        #[test]
        fn arbitrary_bytes_never_panic(cell in proptest::collection::vec(any::<u8>(), 0..64), slot in 0usize..40) {
            if let Ok(c) = SingleCell::parse(&cell) {
                let _ = c.value(slot);
            }
        }
    }
}
