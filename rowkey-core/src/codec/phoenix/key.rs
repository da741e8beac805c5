//! A Phoenix row key of columns (`PTableImpl.newKey`, `RowKeySchema`):
//! each column's bytes (inverted for DESC), a separator after a
//! variable-length one (`VARCHAR`, `DECIMAL`, `VARBINARY`) that another
//! follows, and trailing NULLs dropped.
//!
//! - The separator is `00`, or `FF` after a DESC value that is not NULL;
//!   the last column has none, except `FF` after a DESC value.
//! - A NULL is no bytes; trailing NULLs are dropped with their separators
//!   (and the `00` before them): `('a', NULL, NULL)` is `61`.
//! - Only variable-length columns may be NULL (Phoenix refuses a nullable
//!   fixed-width key column), and a `VARBINARY` is only last, ascending.
//!
//! [`PhoenixKeyLen`] counts a key as these rules write it; the same
//! counting decides where an encoder stops ([`put_column`]), so the
//! length derived code states and the bytes it writes agree.

use super::arg::PhoenixPut;
use super::value::PhoenixValue;
use super::PhoenixType;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::reader::KeyReader;
use crate::writer::KeyWriter;

/// One key column as a Phoenix table declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PhoenixColumn {
    /// Its type.
    pub ty: PhoenixType,
    /// `DESC` in the primary key.
    pub desc: bool,
    /// The last column of the key.
    pub last: bool,
    /// The most bytes a value takes, for a variable-length column
    /// (`None`: unchecked, bounded only by the buffer).
    pub max_len: Option<usize>,
}

impl PhoenixColumn {
    /// The column a layout's field records: `max_len` is held for a
    /// variable-length type only (a fixed one's width is its type's).
    pub const fn of(ty: PhoenixType, desc: bool, last: bool, max_len: usize) -> Self {
        PhoenixColumn {
            ty,
            desc,
            last,
            max_len: match ty.fixed_width() {
                Some(_) => None,
                None => Some(max_len),
            },
        }
    }

    fn var(&self) -> bool {
        self.ty.fixed_width().is_none()
    }

    /// The separator after a value of this column (`None`: none).
    fn separator(&self, null: bool) -> Option<u8> {
        match (self.var(), self.last, self.desc && !null) {
            (false, _, _) => None,
            (true, false, true) | (true, true, true) => Some(0xFF),
            (true, false, false) => Some(0x00),
            (true, true, false) => None,
        }
    }
}

/// A key's length as its columns are added: where it ends (after the
/// last column that is not NULL, with its `FF` if it has one), and the
/// `00` separators owed after that, written only when a later column is
/// not NULL (trailing NULLs drop theirs). An encoder writes no byte the
/// key then loses, so a buffer of the counted length is enough.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PhoenixKeyLen {
    end: usize,
    pending: usize,
    prefix: usize,
}

impl PhoenixKeyLen {
    /// Owing `pending` `00` separators, for a key written in parts (a
    /// scan's prefix, whose end is not counted here).
    pub const fn owing(pending: usize) -> Self {
        PhoenixKeyLen {
            end: 0,
            pending,
            prefix: 0,
        }
    }

    /// Starts after `prefix` bytes (a salt byte).
    pub const fn new(prefix: usize) -> Self {
        PhoenixKeyLen {
            end: prefix,
            pending: 0,
            prefix,
        }
    }

    /// Adds a column whose value is `len` bytes (`null`: NULL).
    pub fn add(&mut self, col: &PhoenixColumn, len: usize, null: bool) {
        let sep = col.separator(null);
        if null {
            self.pending += usize::from(sep.is_some());
        } else {
            self.end += self.pending + len + usize::from(sep == Some(0xFF));
            self.pending = usize::from(sep == Some(0x00));
        }
    }

    /// The `00` separators owed before the next column that is not NULL.
    pub const fn pending(&self) -> usize {
        self.pending
    }

    /// The key's length.
    pub const fn len(&self) -> usize {
        self.end
    }

    /// Whether no column is written (every one NULL): Phoenix refuses
    /// such a key.
    pub const fn is_empty(&self) -> bool {
        self.end == self.prefix
    }
}

/// Why a column's value cannot be written, before any byte is.
fn refuse<V: PhoenixPut + ?Sized>(v: &V, col: &PhoenixColumn) -> Option<EncodeErrorKind> {
    if V::HOLDS & col.ty.bit() == 0 {
        return Some(EncodeErrorKind::Invalid(
            "this Rust type does not hold the column's Phoenix type",
        ));
    }
    if v.is_null() {
        return (!col.var()).then_some(EncodeErrorKind::Invalid(
            "a fixed-width Phoenix key column is never NULL",
        ));
    }
    if let Err(e) = v.check(&col.ty) {
        return Some(e);
    }
    if matches!(col.ty, PhoenixType::Boolean) && col.desc {
        return Some(EncodeErrorKind::Invalid(
            "Phoenix 5.2.1 writes a DESC BOOLEAN key true as FE and reads that back as false: \
             make the column ASC",
        ));
    }
    if matches!(col.ty, PhoenixType::Varbinary) && (col.desc || !col.last) {
        return Some(EncodeErrorKind::Invalid(
            "Phoenix keys a VARBINARY only as the last column, ascending",
        ));
    }
    None
}

/// Writes one key column: the value (inverted for DESC) and its
/// separator; `len` is the key so far, and says where it ends. A
/// `VARCHAR` holding U+0000 is refused: Phoenix reads the key as ending
/// the value there.
pub fn put_column<V: PhoenixPut + ?Sized>(
    w: &mut KeyWriter<'_>,
    v: &V,
    col: &PhoenixColumn,
    len: &mut PhoenixKeyLen,
) -> Result<(), EncodeError> {
    if let Some(kind) = refuse(v, col) {
        return Err(w.error(kind));
    }
    let null = v.is_null();
    if null {
        len.add(col, 0, true);
        return Ok(());
    }
    // The separators of the NULLs and the value before this one.
    w.put_repeated(0x00, len.pending())?;
    let start = w.position();
    let mut failed = None;
    let mut zero = false;
    v.put_phoenix(&col.ty, &mut |bytes| {
        zero |= bytes.contains(&0);
        if failed.is_none() {
            failed = w.put(bytes).err();
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    // VARCHAR and DECIMAL bytes hold no 00 but a VARCHAR's U+0000; only
    // the last ascending column, read to the key's end, may. A DESC one's
    // U+0000 is an FF, the byte that ends the value: the key would sort
    // out of its value's order (and a scan's bounds with it).
    if zero && col.var() && (!col.last || col.desc) && !matches!(col.ty, PhoenixType::Varbinary) {
        return Err(w.error_at(
            start,
            EncodeErrorKind::Invalid(
                "a zero byte (U+0000) in a Phoenix VARCHAR key column before the last or DESC: \
                 Phoenix reads it as the column's end (a DESC one's FF), and the key sorts out \
                 of order",
            ),
        ));
    }
    let n = w.position() - start;
    if let Some(max) = col.max_len.filter(|m| n > *m) {
        return Err(w.error_at(start, EncodeErrorKind::TooLong { len: n, max }));
    }
    if col.desc {
        w.invert_since(start);
    }
    if col.separator(false) == Some(0xFF) {
        w.put_byte(0xFF)?;
    }
    len.add(col, n, false);
    Ok(())
}

/// Ends a key written with [`put_column`]: refuses a key of only NULLs
/// (Phoenix's "Primary key may not be null", and HBase has no empty
/// key).
pub fn finish_key(w: &mut KeyWriter<'_>, len: &PhoenixKeyLen) -> Result<(), EncodeError> {
    if len.is_empty() {
        return Err(w.error(EncodeErrorKind::Invalid(
            "every key column is NULL: Phoenix refuses such a key (primary key may not be null)",
        )));
    }
    // put_column writes no separator the key then drops: the writer
    // stands at the key's end.
    debug_assert_eq!(w.position(), len.len());
    Ok(())
}

/// The bytes of one key column as stored (a DESC column's still
/// inverted; `None` for NULL), read as Phoenix's `RowKeySchema` does:
/// a missing trailing column is NULL. `end` tracks where a key written by
/// these rules ends, for [`finish_read`].
pub fn take_column<'k>(
    r: &mut KeyReader<'k>,
    col: &PhoenixColumn,
    end: &mut PhoenixKeyLen,
) -> Result<Option<&'k [u8]>, DecodeError> {
    let rest = r.remaining();
    let start = r.position();
    let raw: &'k [u8] = match col.ty.fixed_width() {
        Some(n) => r.take(n)?,
        None if rest.is_empty() => &[],
        None if col.last => {
            let v = r.take_rest();
            match (col.desc, v.split_last()) {
                (true, Some((0xFF, value))) => value,
                (true, Some(_)) => {
                    return Err(r.error_at(
                        start,
                        DecodeErrorKind::Invalid(
                            "a DESC Phoenix column at the key's end without its FF",
                        ),
                    ))
                }
                _ => v,
            }
        }
        None => {
            let stop = if col.desc {
                rest.iter().position(|&b| b == 0xFF || b == 0x00)
            } else {
                rest.iter().position(|&b| b == 0x00)
            };
            let n = stop.unwrap_or(rest.len());
            let v = r.take(n)?;
            if stop.is_some() {
                let sep = r.take_byte()?;
                // A DESC value ends with FF; its NULL (no bytes) with 00.
                if col.desc && (sep == 0xFF) == v.is_empty() {
                    return Err(r.error_at(
                        start + n,
                        DecodeErrorKind::Invalid("a DESC Phoenix column with the wrong separator"),
                    ));
                }
            }
            v
        }
    };
    // What put_column refuses to write: a separator byte inside the value.
    let sep = if col.desc { 0xFF } else { 0x00 };
    if col.var()
        && (!col.last || col.desc)
        && !matches!(col.ty, PhoenixType::Varbinary)
        && raw.contains(&sep)
    {
        return Err(r.error_at(
            start,
            DecodeErrorKind::Invalid(
                "a separator byte inside a Phoenix VARCHAR or DECIMAL key column",
            ),
        ));
    }
    if let Some(max) = col.max_len.filter(|m| raw.len() > *m) {
        return Err(r.error_at(
            start,
            DecodeErrorKind::TooLong {
                len: raw.len(),
                max,
            },
        ));
    }
    let null = raw.is_empty() && col.var();
    end.add(col, raw.len(), null);
    Ok((!null).then_some(raw))
}

/// The value of a column read by [`take_column`]: a DESC column's bytes
/// inverted back (on the stack up to 64 bytes), then `V`'s.
pub fn column_value<V: PhoenixValue>(
    raw: Option<&[u8]>,
    col: &PhoenixColumn,
) -> Result<V, DecodeErrorKind> {
    match raw {
        Some(raw) if col.desc => {
            let mut stack = [0u8; 64];
            if raw.len() <= stack.len() {
                for (d, s) in stack.iter_mut().zip(raw) {
                    *d = !s;
                }
                V::from_phoenix(Some(&stack[..raw.len()]), &col.ty)
            } else {
                let heap: Vec<u8> = raw.iter().map(|b| !b).collect();
                V::from_phoenix(Some(&heap), &col.ty)
            }
        }
        raw => V::from_phoenix(raw, &col.ty),
    }
}

/// Checks a key read with [`take_column`] ends where these rules end it:
/// no separator or NULL left that Phoenix drops.
pub fn finish_read(r: &KeyReader<'_>, end: &PhoenixKeyLen) -> Result<(), DecodeError> {
    let at = r.position();
    if at < end.len() {
        return Err(r.error_at(
            at,
            DecodeErrorKind::Invalid("the key ends where Phoenix writes a DESC column's FF"),
        ));
    }
    if at > end.len() || !r.remaining().is_empty() {
        return Err(r.error_at(
            end.len(),
            DecodeErrorKind::Invalid(
                "bytes after the key's last non-NULL column: Phoenix drops trailing separators",
            ),
        ));
    }
    Ok(())
}
