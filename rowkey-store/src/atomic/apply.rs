//! How a row's cells change under a [`ConditionalWrite`]'s edits and a
//! [`ReadModifyWrite`]'s rules: what [`MemStore`](crate::MemStore) does
//! under its lock, and the reference the conformance suite compares
//! every store with.
//!
//! [`ConditionalWrite`]: super::ConditionalWrite
//! [`ReadModifyWrite`]: super::ReadModifyWrite

use super::{counter_value, ModifyRule, RowEdit};
use crate::{Cell, StoreError};

/// Applies `edits` in order to a row's `cells`.
pub(crate) fn apply_edits(cells: &mut Vec<Cell>, edits: &[RowEdit]) {
    for edit in edits {
        match edit {
            RowEdit::Set(cell) => set_in_order(cells, cell.clone()),
            RowEdit::Clear { family, qualifier } => {
                cells.retain(|c| !(c.family == *family && c.qualifier == *qualifier));
            }
            RowEdit::DeleteRow => cells.clear(),
        }
    }
}

/// Sets `cell` in a row's `cells`, kept in family and qualifier order as
/// the servers keep a row's cells (slices and per-row caps count in that
/// order): replaces the value of the same column, or inserts it in place.
pub(crate) fn set_in_order(cells: &mut Vec<Cell>, cell: Cell) {
    match cells.binary_search_by(|c| {
        (c.family.as_str(), c.qualifier.as_slice())
            .cmp(&(cell.family.as_str(), cell.qualifier.as_slice()))
    }) {
        Ok(at) => cells[at].value = cell.value,
        Err(at) => cells.insert(at, cell),
    }
}

/// Sets `cell` in `cells`, a new column last: the changed cells in the
/// order first changed.
fn set(cells: &mut Vec<Cell>, cell: Cell) {
    match cells
        .iter_mut()
        .find(|c| c.family == cell.family && c.qualifier == cell.qualifier)
    {
        Some(old) => old.value = cell.value,
        None => cells.push(cell),
    }
}

/// Applies `rules` in order to a row's `cells` (row `key`), and returns
/// the new value of each cell changed, once, in the order first changed.
/// A counter that is not 8 bytes is refused before anything changes.
pub(crate) fn apply_rules(
    key: &[u8],
    cells: &mut Vec<Cell>,
    rules: &[ModifyRule],
) -> Result<Vec<Cell>, StoreError> {
    let mut next = cells.clone();
    let mut changed: Vec<Cell> = Vec::new();
    for rule in rules {
        let (family, qualifier) = rule.column();
        let old = next
            .iter()
            .find(|c| c.family == family && c.qualifier == qualifier)
            .map(|c| c.value.as_slice());
        let value = match rule {
            ModifyRule::Increment { by, .. } => {
                let n = match old {
                    None => 0,
                    Some(v) => counter_value(v).ok_or_else(|| StoreError::NotACounter {
                        key: key.to_vec(),
                        family: family.to_owned(),
                        qualifier: qualifier.to_vec(),
                        len: v.len(),
                    })?,
                };
                n.wrapping_add(*by).to_be_bytes().to_vec()
            }
            ModifyRule::Append { bytes, .. } => {
                let mut v = old.map(<[u8]>::to_vec).unwrap_or_default();
                v.extend_from_slice(bytes);
                v
            }
        };
        let cell = Cell::new(family, qualifier, &value);
        set_in_order(&mut next, cell.clone());
        set(&mut changed, cell);
    }
    *cells = next;
    Ok(changed)
}
