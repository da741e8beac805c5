//! [`WideCells`]: one row's cells read a page at a time, and what is
//! built on that walk (the last `n` cells, a slice deleted, a cap
//! counted).

use super::Qualifier;
use super::{next, page_request, WideColumn};
use crate::cell::CellValue;
use crate::{Cell, CellSlice, Columns, Row, Store, StoreError};
use futures_core::Stream;
use std::collections::{HashSet, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// The cells of one row in a slice, typed, in qualifier order: the
/// stream [`WideStoreExt::read_cells`](super::WideStoreExt::read_cells)
/// returns. Each page is a read of the row's cells after the last one
/// delivered, at most [`page_cells`](WideColumn::page_cells) of them (and
/// at most what the slice's per-row cap has left), so the client holds
/// one page. It ends after its first error.
pub struct WideCells<S: Store, Q, V> {
    store: S,
    column: WideColumn<Q, V>,
    /// The walk, while no page is being read.
    pages: Option<Pages>,
    /// The page being read; it gives the walk back.
    reading: Option<PageRead>,
    /// The page read last, delivered from its own allocation.
    cells: std::vec::IntoIter<Cell>,
    /// A key that did not encode, delivered first.
    failed: Option<StoreError>,
}

/// A page's read, owning the walk until it is done.
type PageRead =
    Pin<Box<dyn Future<Output = (Pages, Result<Option<Row>, StoreError>)> + Send + 'static>>;

// The store is only ever moved or cloned, never pinned in place.
impl<S: Store, Q, V> Unpin for WideCells<S, Q, V> {}

impl<S: Store, Q, V> WideCells<S, Q, V> {
    pub(super) fn new(
        store: S,
        key: Result<Vec<u8>, rowkey_core::EncodeError>,
        column: WideColumn<Q, V>,
        slice: CellSlice,
    ) -> Self {
        let (pages, failed) = match key {
            Ok(key) => (Some(Pages::new(key, slice, column.cells_per_page())), None),
            Err(e) => (None, Some(StoreError::from(e))),
        };
        WideCells {
            store,
            column,
            pages,
            reading: None,
            cells: Vec::new().into_iter(),
            failed,
        }
    }
}

impl<S: Store, Q: Qualifier, V: CellValue> Stream for WideCells<S, Q, V> {
    type Item = Result<(Q, V), StoreError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if let Some(e) = this.failed.take() {
            return Poll::Ready(Some(Err(e)));
        }
        loop {
            if let Some(cell) = this.cells.next() {
                let key = this.pages.as_ref().map_or(&[][..], |p| p.key.as_slice());
                let item = this.column.decode(key, &cell);
                if item.is_err() {
                    this.cells = Vec::new().into_iter();
                    this.pages = None;
                }
                return Poll::Ready(Some(item));
            }
            if this.reading.is_none() {
                let Some(mut pages) = this.pages.take().filter(|p| !p.is_done()) else {
                    return Poll::Ready(None);
                };
                let store = this.store.clone();
                this.reading = Some(Box::pin(async move {
                    let row = pages.next(&store).await;
                    (pages, row)
                }));
            }
            let read = this.reading.as_mut().expect("a page is being read");
            let Poll::Ready((pages, row)) = read.as_mut().poll(cx) else {
                return Poll::Pending;
            };
            this.reading = None;
            match row {
                Ok(Some(row)) => {
                    this.pages = Some(pages);
                    this.cells = row.cells.into_iter();
                }
                Ok(None) => return Poll::Ready(None),
                Err(e) => return Poll::Ready(Some(Err(e))),
            }
        }
    }
}

/// The last `n` items of a stream of cells, in order.
pub(super) async fn keep_last<S: Store, Q: Qualifier, V: CellValue>(
    mut cells: WideCells<S, Q, V>,
    n: usize,
) -> Result<Vec<(Q, V)>, StoreError> {
    let mut kept = VecDeque::with_capacity(n.min(1 << 16));
    if n == 0 {
        return Ok(Vec::new());
    }
    while let Some(cell) = next(&mut cells).await {
        if kept.len() == n {
            kept.pop_front();
        }
        kept.push_back(cell?);
    }
    Ok(kept.into())
}

/// Deletes `slice`'s cells of row `key`, a page of qualifiers at a time;
/// returns how many.
pub(super) async fn delete_slice<S: Store>(
    store: &S,
    key: Vec<u8>,
    slice: CellSlice,
    page: u32,
) -> Result<u64, StoreError> {
    let mut pages = Pages::new(key.clone(), slice, page);
    let mut deleted = 0u64;
    while let Some(row) = pages.next(store).await? {
        deleted += row.cells.len() as u64;
        let mut write = Row::new(key.clone(), Vec::new());
        write.clear = Columns::new(row.cells.into_iter().map(|c| (c.family, c.qualifier)));
        store.write_rows(vec![write]).await?;
    }
    Ok(deleted)
}

/// One row's slice read a page at a time, raw: each page the cells after
/// the last one of the page before.
pub(super) struct Pages {
    key: Vec<u8>,
    rest: CellSlice,
    left: Option<u64>,
    page: u32,
    done: bool,
}

impl Pages {
    pub(super) fn new(key: Vec<u8>, slice: CellSlice, page: u32) -> Self {
        Pages {
            key,
            left: slice.row_limit().map(u64::from),
            done: slice.is_empty(),
            rest: slice,
            page: page.max(1),
        }
    }

    fn is_done(&self) -> bool {
        self.done || self.left == Some(0)
    }

    /// The next page's row (never without cells), or `None` at the end.
    pub(super) async fn next<S: Store>(&mut self, store: &S) -> Result<Option<Row>, StoreError> {
        let want = self
            .left
            .map_or(self.page, |l| l.min(u64::from(self.page)) as u32);
        if self.done || want == 0 {
            return Ok(None);
        }
        let mut rows = store.read_rows(page_request(&self.key, self.rest.clone(), want));
        let row = next(&mut rows).await.transpose()?;
        let Some(last) = row.as_ref().and_then(|r| r.cells.last()) else {
            self.done = true;
            return Ok(None);
        };
        if row.as_ref().is_some_and(|r| r.key != self.key) || next(&mut rows).await.is_some() {
            self.done = true;
            return Err(StoreError::backend(
                "read cells",
                "a read of one row returned another row",
            ));
        }
        let got = row.as_ref().map_or(0, |r| r.cells.len());
        self.rest = self.rest.after(&last.qualifier);
        if let Some(l) = &mut self.left {
            *l = l.saturating_sub(got as u64);
        }
        self.done = got < want as usize;
        Ok(row)
    }
}

/// Refuses `row` if writing it would take the row past `cap` cells of
/// `family`: counts what is there (at most `cap + 1` cells read).
pub(super) async fn check_cap<S: Store>(
    store: &S,
    row: &Row,
    family: &str,
    cap: u64,
) -> Result<(), StoreError> {
    let new: HashSet<&[u8]> = row.cells.iter().map(|c| c.qualifier.as_slice()).collect();
    let mut there = 0u64;
    let mut overlap = 0u64;
    // At most cap + 1 cells counted, a page at a time.
    let slice =
        CellSlice::family(family).per_row(u32::try_from(cap.saturating_add(1)).unwrap_or(u32::MAX));
    let mut pages = Pages::new(row.key.clone(), slice, super::DEFAULT_PAGE_CELLS);
    while let Some(r) = pages.next(store).await? {
        for c in &r.cells {
            there += 1;
            overlap += u64::from(new.contains(c.qualifier.as_slice()));
        }
    }
    let after = there - overlap + new.len() as u64;
    if after > cap {
        let holds = if there > cap {
            format!("more than {cap}")
        } else {
            there.to_string()
        };
        return Err(StoreError::InvalidRequest {
            op: "write cells",
            key: row.key.clone(),
            why: format!(
                "the row would hold {after} cells of family {family}, past its cap of {cap} \
                 (it holds {holds}; this write adds {}): start a new row (a new time bucket \
                 in the key), or raise the cap",
                new.len() as u64 - overlap
            ),
        });
    }
    Ok(())
}
