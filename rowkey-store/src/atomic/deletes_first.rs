//! [`DeletesFirst`]: a branch of [`RowEdit`]s in the one shape a store
//! that applies a row's deletes before its sets can send (HBase's
//! `RowMutations`: a delete and a put of one row, in one step), with the
//! same effect as the edits applied in order.

use super::RowEdit;
use crate::Cell;

/// Edits of one row as a delete of the row, clears of columns and sets of
/// cells, applied in that order, that leave the row as the original edits
/// applied one after the other would.
///
/// A set that a later clear or row delete undoes is left out, as is a
/// clear that a row delete makes moot; a clear followed by a set of the
/// same column keeps both (the store must put the clear just before the
/// set, as HBase does with a timestamp one below the set's).
///
/// ```
/// use rowkey::store::{DeletesFirst, RowEdit};
/// let edits = [
///     RowEdit::set("d", "a", "1"),
///     RowEdit::DeleteRow,
///     RowEdit::clear("d", "b"),
///     RowEdit::set("d", "b", "2"),
/// ];
/// let plan = DeletesFirst::of(&edits);
/// assert!(plan.delete_row);
/// assert!(plan.clears.is_empty()); // the row delete clears b already
/// assert_eq!(plan.sets.len(), 1); // a's set came before the delete
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct DeletesFirst {
    /// Delete the whole row first.
    pub delete_row: bool,
    /// Then clear these columns: (family, qualifier), each once.
    pub clears: Vec<(String, Vec<u8>)>,
    /// Then set these cells, each column once.
    pub sets: Vec<Cell>,
}

impl DeletesFirst {
    /// `edits` in deletes-first shape.
    pub fn of(edits: &[RowEdit]) -> DeletesFirst {
        let mut out = DeletesFirst::default();
        for edit in edits {
            match edit {
                RowEdit::Set(cell) => {
                    out.sets
                        .retain(|c| !(c.family == cell.family && c.qualifier == cell.qualifier));
                    out.sets.push(cell.clone());
                }
                RowEdit::Clear { family, qualifier } => {
                    out.sets
                        .retain(|c| !(c.family == *family && c.qualifier == *qualifier));
                    let cleared = out
                        .clears
                        .iter()
                        .any(|(f, q)| f == family && q == qualifier);
                    if !out.delete_row && !cleared {
                        out.clears.push((family.clone(), qualifier.clone()));
                    }
                }
                RowEdit::DeleteRow => {
                    out.delete_row = true;
                    out.clears.clear();
                    out.sets.clear();
                }
            }
        }
        out
    }

    /// The same edits as a list in deletes-first order.
    pub fn into_edits(self) -> Vec<RowEdit> {
        let delete = self.delete_row.then_some(RowEdit::DeleteRow);
        let clears = self
            .clears
            .into_iter()
            .map(|(family, qualifier)| RowEdit::Clear { family, qualifier });
        delete
            .into_iter()
            .chain(clears)
            .chain(self.sets.into_iter().map(RowEdit::Set))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atomic::apply_edits;
    use proptest::prelude::*;

    fn edit() -> impl Strategy<Value = RowEdit> {
        let column = (0..2u8, 0..3u8).prop_map(|(f, q)| (format!("f{f}"), vec![b'q', q]));
        prop_oneof![
            (column.clone(), 0..4u8).prop_map(|((f, q), v)| RowEdit::set(f, q, [v])),
            column.prop_map(|(f, q)| RowEdit::clear(f, q)),
            Just(RowEdit::DeleteRow),
        ]
    }

    fn sorted(mut cells: Vec<Cell>) -> Vec<Cell> {
        cells.sort_by(|a, b| (&a.family, &a.qualifier).cmp(&(&b.family, &b.qualifier)));
        cells
    }

    proptest! {
        /// Deletes first, then sets: the row the edits in order leave,
        /// from any row.
        #[test]
        fn deletes_first_leaves_the_row_the_edits_in_order_leave(
            before in proptest::collection::vec(edit(), 0..6),
            edits in proptest::collection::vec(edit(), 0..10),
        ) {
            let mut row = Vec::new();
            apply_edits(&mut row, &before);
            let mut in_order = row.clone();
            apply_edits(&mut in_order, &edits);
            let plan = DeletesFirst::of(&edits);
            // The shape the stores rely on: each column set once, cleared
            // once, and no clear beside a row delete.
            for (i, c) in plan.sets.iter().enumerate() {
                prop_assert!(!plan.sets[..i]
                    .iter()
                    .any(|d| d.family == c.family && d.qualifier == c.qualifier));
            }
            prop_assert!(!plan.delete_row || plan.clears.is_empty());
            let mut deletes_first = row;
            apply_edits(&mut deletes_first, &plan.into_edits());
            prop_assert_eq!(sorted(deletes_first), sorted(in_order));
        }
    }

    #[test]
    fn a_clear_then_a_set_of_one_column_keeps_both() {
        let plan = DeletesFirst::of(&[RowEdit::clear("d", "a"), RowEdit::set("d", "a", "new")]);
        assert_eq!(plan.clears, [("d".to_owned(), b"a".to_vec())]);
        assert_eq!(plan.sets, [Cell::new("d", "a", "new")]);
        let plan = DeletesFirst::of(&[RowEdit::set("d", "a", "old"), RowEdit::clear("d", "a")]);
        assert!(plan.sets.is_empty());
        assert_eq!(plan.clears.len(), 1);
    }
}
