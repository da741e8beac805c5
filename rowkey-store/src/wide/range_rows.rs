//! [`RangeRows`]: the whole rows of one range of a plan, each with every
//! cell of a slice: the rows are scanned with the slice capped at a page
//! of cells a row, and a row that fills its page has the rest of its
//! cells read a page at a time, so no read returns more than a page of a
//! row.

use super::next;
use super::stream::Pages;
use crate::{CellSlice, KeyRange, ReadRequest, Row, RowStream, Store, StoreError};
use rowkey_core::scan::{FuzzyFilter, RangeResume};

/// The rows of one range, in reading order, whole.
pub(super) struct RangeRows<S> {
    store: S,
    request: ReadRequest,
    slice: CellSlice,
    page: u32,
    rows: Option<RowStream>,
    /// The last row key returned, for where the range resumes.
    pub(super) last: Option<Vec<u8>>,
    pub(super) done: bool,
}

impl<S: Store> RangeRows<S> {
    /// The rows of `range` (backwards when `reversed`), from where
    /// `resume` says, that `fuzzy` selects, with the cells of `slice`.
    pub(super) fn new(
        store: S,
        range: KeyRange,
        reversed: bool,
        fuzzy: Option<FuzzyFilter>,
        resume: &RangeResume,
        slice: CellSlice,
        page: u32,
    ) -> Self {
        let mut request = ReadRequest::new([range]);
        if reversed {
            request = request.reversed();
        }
        if let Some(f) = fuzzy {
            request = request.with_fuzzy(f);
        }
        let mut done = false;
        match resume {
            RangeResume::Start => {}
            // Inclusive: from the key on, in reading order.
            RangeResume::From(key) => request = request.at_and_after(key),
            RangeResume::After(key) => request = request.after(key),
            RangeResume::Done => done = true,
        }
        let page = page.max(1);
        RangeRows {
            store,
            request: request.with_cells(slice.clone().per_row(page)),
            slice,
            page,
            rows: None,
            last: None,
            done,
        }
    }

    /// The next whole row, or `None` at the range's end.
    pub(super) async fn next_row(&mut self) -> Result<Option<Row>, StoreError> {
        if self.done {
            return Ok(None);
        }
        let rows = self
            .rows
            .get_or_insert_with(|| self.store.read_rows(self.request.clone()));
        let Some(row) = next(rows).await.transpose()? else {
            self.done = true;
            self.rows = None;
            return Ok(None);
        };
        let mut row = row;
        // What the slice's per-row cap leaves after this page.
        let left = self
            .slice
            .row_limit()
            .map_or(u32::MAX, |n| n.saturating_sub(row.cells.len() as u32));
        if row.cells.len() >= self.page as usize && left > 0 {
            // A full page: the rest of the row's cells, a page at a time.
            let last = row
                .cells
                .last()
                .map(|c| c.qualifier.clone())
                .unwrap_or_default();
            let rest_of_row = self.slice.after(&last).per_row(left);
            let mut rest = Pages::new(row.key.clone(), rest_of_row, self.page);
            while let Some(more) = rest.next(&self.store).await? {
                row.cells.extend(more.cells);
            }
        }
        self.last = Some(row.key.clone());
        Ok(Some(row))
    }
}
