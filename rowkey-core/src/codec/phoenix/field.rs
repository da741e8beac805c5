//! [`PhoenixField`]: a Phoenix key column as a layout names it
//! ([`FieldCodec::Phoenix`](crate::layout::FieldCodec::Phoenix)): its
//! format rules, and what the interpreter and `explain` do with it.
//!
//! The interpreter writes and reads a Phoenix key's columns itself
//! (`layout/dynamic`), with [`put_column`] and [`take_column`] and the
//! key's [`PhoenixKeyLen`]: where the key ends depends on every column.
//! A field alone (a layout diff reading one field's bytes) goes through
//! [`LayoutCodec`] here.

use super::key::{column_value, put_column, take_column, PhoenixColumn, PhoenixKeyLen};
use super::PhoenixType;
use crate::layout::dynamic::Value;
use crate::layout::rules::{
    ByteSet, CodecRules, Ends, Lengths, PrefixScan, RangeScan, ScanRefusal, Sorts,
};
use crate::layout::{FieldLayout, LayoutCodec};
use crate::{DecodeError, EncodeError, KeyReader, KeyWriter};
use core::fmt::{self, Write};

/// A Phoenix key column's codec: its type, `DESC`, whether it ends the
/// key, and the most bytes a value takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhoenixField {
    /// The column's type.
    pub ty: PhoenixType,
    /// `DESC`.
    pub desc: bool,
    /// The last key column.
    pub last: bool,
    /// The most bytes a value takes (its separator not counted).
    pub max_len: usize,
}

impl PhoenixField {
    /// The column as the key functions take it.
    pub const fn column(&self) -> PhoenixColumn {
        PhoenixColumn::of(self.ty, self.desc, self.last, self.max_len)
    }

    /// The format rules: a fixed width or a variable one with its
    /// separator; sorted as Phoenix sorts (`DESC` inverts); ranges on
    /// every column and a text prefix on a `VARCHAR` or `CHAR`
    /// (`scan::phoenix`'s steps write them).
    pub(crate) const fn rules(&self) -> CodecRules {
        let len = match self.ty.fixed_width() {
            Some(n) => Lengths::Fixed(n),
            // A separator after it, or a DESC value's FF at the end.
            None => Lengths::UpTo(self.max_len + 1),
        };
        CodecRules {
            len,
            sorts: Sorts::LikeValues,
            prefix_scan: match self.ty {
                PhoenixType::Varchar { .. } | PhoenixType::Char { .. } => Ok(PrefixScan::Bytes),
                _ => Err(ScanRefusal::PhoenixNotText),
            },
            range_scan: Ok(RangeScan::Values),
            borrows: false,
            writes: ByteSet::ALL,
            ends: Ends::Itself,
        }
    }
}

impl LayoutCodec for PhoenixField {
    fn put_value(
        &self,
        w: &mut KeyWriter<'_>,
        _: &FieldLayout,
        v: &Value,
    ) -> Result<(), EncodeError> {
        put_column(w, v, &self.column(), &mut PhoenixKeyLen::new(0))
    }

    fn take_value(
        &self,
        r: &mut KeyReader<'_>,
        _: &FieldLayout,
        _: bool,
    ) -> Result<Value, DecodeError> {
        let col = self.column();
        let at = r.position();
        let raw = take_column(r, &col, &mut PhoenixKeyLen::new(0))?;
        column_value::<Value>(raw, &col).map_err(|e| r.error_at(at, e))
    }

    fn explain(&self, s: &mut String, ty: &str) -> fmt::Result {
        write!(s, "{ty} as Phoenix's {}", self.ty)?;
        if self.desc {
            s.push_str(" DESC (inverted)");
        }
        match (self.ty.fixed_width(), self.last) {
            (Some(_), _) => Ok(()),
            (None, false) if self.desc => s.write_str(", then FF (00 after a NULL)"),
            (None, false) => s.write_str(", then 00"),
            (None, true) if self.desc => s.write_str(", then FF"),
            (None, true) => Ok(()),
        }
    }
}
