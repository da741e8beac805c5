//! [`CellCursor`]: where the next page of a cell query starts (cells of
//! many rows merged in an order of the caller's, paged in cells), as a
//! token a client can hold. A page may end inside a row, so the token
//! holds the last cell delivered and, for each range of the plan, where
//! its reading resumes; it is checked as row cursors are.

use super::base64url;
use super::cursor::{checksum, token_body, token_bytes, InvalidCursor, CHECKSUM};
use crate::HBASE_MAX_KEY_LEN;
use core::fmt;
use core::str::FromStr;

/// The token format (distinct from row cursors' version 1).
const VERSION: u8 = 0xC1;
/// Bytes before the variable part: the version, the query's fingerprint,
/// the count.
const HEADER: usize = 1 + 8 + 8;
/// The longest qualifier a token holds: its 2-byte length.
const MAX_QUALIFIER: usize = u16::MAX as usize;
/// The longest token: two keys and a qualifier per range at most.
const MAX_TOKEN: usize = 1 << 20;

/// Where one range of a cell query resumes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RangeResume {
    /// Not read yet: from the range's start (its end, read backwards).
    Start,
    /// From this row key, inclusive (its cells were being merged).
    From(Vec<u8>),
    /// After this row key (every row up to it is delivered).
    After(Vec<u8>),
    /// Read to its end.
    Done,
}

impl RangeResume {
    /// The row key it names, if any.
    pub fn key(&self) -> Option<&[u8]> {
        match self {
            RangeResume::From(k) | RangeResume::After(k) => Some(k),
            RangeResume::Start | RangeResume::Done => None,
        }
    }
}

/// Where the next page of a cell query starts: the last cell delivered
/// (its row key and qualifier), the cells delivered so far, and where
/// each of the plan's ranges resumes. The store's cell pager makes it and
/// checks it against the query it is given (the query's fingerprint
/// covers the plan, the slice and the order): another query's cursor, or
/// one cut or changed, is an [`InvalidCursor`], never another page.
///
/// As a row [`Cursor`](super::Cursor): `to_string()` is URL-safe base64,
/// `parse()` reads it back; the checksum catches mistakes and is not a
/// signature (encrypt the bytes to hide the keys from clients).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CellCursor {
    query: u64,
    delivered: u64,
    last_row: Vec<u8>,
    last_qualifier: Vec<u8>,
    ranges: Vec<RangeResume>,
}

impl CellCursor {
    /// The most ranges a cursor resumes: its 2-byte count (a cell query of
    /// more is refused before it reads).
    pub const MAX_RANGES: usize = u16::MAX as usize;

    /// A cursor of the query whose fingerprint is `query`.
    pub fn new(
        query: u64,
        delivered: u64,
        last_row: Vec<u8>,
        last_qualifier: Vec<u8>,
        ranges: Vec<RangeResume>,
    ) -> Self {
        CellCursor {
            query,
            delivered,
            last_row,
            last_qualifier,
            ranges,
        }
    }

    /// The fingerprint of the query it pages.
    pub fn query_fingerprint(&self) -> u64 {
        self.query
    }

    /// Cells delivered by the pages before.
    pub fn delivered(&self) -> u64 {
        self.delivered
    }

    /// The last cell delivered: its row key and qualifier.
    pub fn last(&self) -> (&[u8], &[u8]) {
        (&self.last_row, &self.last_qualifier)
    }

    /// Where each range of the plan resumes, in the plan's range order.
    pub fn ranges(&self) -> &[RangeResume] {
        &self.ranges
    }

    /// The token as bytes: the version, the query's fingerprint and the
    /// count (8 bytes each), the last row key and qualifier (each a 2-byte
    /// length and the bytes), the ranges (a 2-byte count; each a tag byte
    /// and, for a key, its length and bytes), then the checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + 64);
        out.push(VERSION);
        out.extend_from_slice(&self.query.to_be_bytes());
        out.extend_from_slice(&self.delivered.to_be_bytes());
        put_bytes(&mut out, &self.last_row);
        put_bytes(&mut out, &self.last_qualifier);
        out.extend_from_slice(&(self.ranges.len() as u16).to_be_bytes());
        for r in &self.ranges {
            match r {
                RangeResume::Start => out.push(0),
                RangeResume::From(k) => {
                    out.push(1);
                    put_bytes(&mut out, k);
                }
                RangeResume::After(k) => {
                    out.push(2);
                    put_bytes(&mut out, k);
                }
                RangeResume::Done => out.push(3),
            }
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum);
        out
    }

    /// A cursor from [`to_bytes`](Self::to_bytes): an error for bytes cut
    /// short, too long, of another version, whose checksum fails or that
    /// do not hold what a cursor holds.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, InvalidCursor> {
        let min = HEADER + 2 + 2 + 2 + CHECKSUM;
        let body = token_body(bytes, VERSION, min, MAX_TOKEN)?;
        let word = |at: usize| u64::from_be_bytes(body[at..at + 8].try_into().unwrap_or_default());
        let mut r = Take {
            bytes: &body[HEADER..],
        };
        let last_row = r.bytes(HBASE_MAX_KEY_LEN)?;
        let last_qualifier = r.bytes(MAX_QUALIFIER)?;
        let n = usize::from(r.u16()?);
        let mut ranges = Vec::with_capacity(n);
        for _ in 0..n {
            ranges.push(match r.byte()? {
                0 => RangeResume::Start,
                1 => RangeResume::From(r.bytes(HBASE_MAX_KEY_LEN)?),
                2 => RangeResume::After(r.bytes(HBASE_MAX_KEY_LEN)?),
                3 => RangeResume::Done,
                _ => return Err(malformed("a range resumes in no known way")),
            });
        }
        if !r.bytes.is_empty() {
            return Err(malformed("bytes after the last range"));
        }
        Ok(CellCursor {
            query: word(1),
            delivered: word(9),
            last_row,
            last_qualifier,
            ranges,
        })
    }
}

fn malformed(why: &'static str) -> InvalidCursor {
    InvalidCursor::Malformed { why }
}

/// A 2-byte length, then the bytes (at most HBase's longest key).
fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len().min(u16::MAX as usize) as u16).to_be_bytes());
    out.extend_from_slice(&b[..b.len().min(u16::MAX as usize)]);
}

/// What is left of a token's body, read front to back.
struct Take<'a> {
    bytes: &'a [u8],
}

impl Take<'_> {
    fn byte(&mut self) -> Result<u8, InvalidCursor> {
        let (&b, rest) = self
            .bytes
            .split_first()
            .ok_or_else(|| malformed("it ends inside a field"))?;
        self.bytes = rest;
        Ok(b)
    }
    fn u16(&mut self) -> Result<u16, InvalidCursor> {
        Ok(u16::from_be_bytes([self.byte()?, self.byte()?]))
    }
    /// A 2-byte length and that many bytes, at most `max`.
    fn bytes(&mut self, max: usize) -> Result<Vec<u8>, InvalidCursor> {
        let n = usize::from(self.u16()?);
        if n > max || n > self.bytes.len() {
            return Err(malformed(
                "a key or qualifier longer than allowed, or than the token",
            ));
        }
        let (b, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(b.to_vec())
    }
}

/// The token as URL-safe base64 without padding.
impl fmt::Display for CellCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::new();
        base64url::encode(&self.to_bytes(), &mut text);
        f.write_str(&text)
    }
}

impl FromStr for CellCursor {
    type Err = InvalidCursor;

    fn from_str(s: &str) -> Result<Self, InvalidCursor> {
        let max = base64url::encoded_len(MAX_TOKEN);
        if s.len() > max {
            return Err(InvalidCursor::TooLong { len: s.len(), max });
        }
        let bytes = token_bytes(s, base64url::encoded_len(HEADER + CHECKSUM))?;
        CellCursor::from_bytes(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn resume() -> impl Strategy<Value = RangeResume> {
        let key = proptest::collection::vec(any::<u8>(), 0..12);
        prop_oneof![
            Just(RangeResume::Start),
            key.clone().prop_map(RangeResume::From),
            key.prop_map(RangeResume::After),
            Just(RangeResume::Done),
        ]
    }

    fn cursor() -> impl Strategy<Value = CellCursor> {
        (
            any::<u64>(),
            any::<u64>(),
            proptest::collection::vec(any::<u8>(), 0..12),
            proptest::collection::vec(any::<u8>(), 0..6),
            proptest::collection::vec(resume(), 0..20),
        )
            .prop_map(|(q, d, r, l, ranges)| CellCursor::new(q, d, r, l, ranges))
    }

    proptest! {
        /// Bytes and text round-trip; any change or cut is refused.
        #[test]
        fn tokens_roundtrip_and_refuse_changes(c in cursor(), at in any::<usize>(), flip in 1u8..) {
            let bytes = c.to_bytes();
            prop_assert_eq!(CellCursor::from_bytes(&bytes).unwrap(), c.clone());
            prop_assert_eq!(c.to_string().parse::<CellCursor>().unwrap(), c.clone());
            let mut changed = bytes.clone();
            let i = at % changed.len();
            changed[i] ^= flip;
            prop_assert!(CellCursor::from_bytes(&changed).is_err());
            prop_assert!(CellCursor::from_bytes(&bytes[..at % bytes.len()]).is_err());
        }

        /// Any bytes: a cursor or an error, never a panic.
        #[test]
        fn any_bytes_give_a_cursor_or_an_error(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            let _ = CellCursor::from_bytes(&bytes);
        }
    }

    #[test]
    fn a_row_cursor_is_not_a_cell_cursor() {
        let row = super::super::Cursor::from_bytes(&[1; 40]);
        assert!(row.is_err());
        let e = CellCursor::from_bytes(&[1; 40]).unwrap_err();
        assert_eq!(e, InvalidCursor::UnknownVersion { version: 1 });
    }
}
