//! [`merge_sorted_stream`]: per-bucket async streams merged back into
//! logical key order, as core's [`merge_sorted`](rowkey_core::scan::merge_sorted)
//! merges iterators; and the heads [`QueryStream`](crate::QueryStream)
//! merges its ranges by.

use futures_core::Stream;
use rowkey_core::scan::ScanRow;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::pin::Pin;
use std::task::{Context, Poll};

/// [`merge_sorted`](rowkey_core::scan::merge_sorted) over async streams, so a
/// client can scan buckets concurrently: a row is yielded once every
/// unfinished source has a row ready to compare.
pub struct MergeSortedStream<S: Stream> {
    sources: Vec<Pin<Box<S>>>,
    /// Sources that have a row in the heap or have ended.
    settled: Vec<bool>,
    heap: BinaryHeap<Head<S::Item>>,
    skip: usize,
    /// Where the order starts (`skip` for logical key order).
    from: usize,
    /// Largest key first.
    desc: bool,
    remaining: Option<usize>,
}

/// Merges per-bucket streams in logical key order; see
/// [`merge_sorted`](rowkey_core::scan::merge_sorted).
pub fn merge_sorted_stream<S>(
    sources: impl IntoIterator<Item = S>,
    skip: usize,
    limit: Option<usize>,
) -> MergeSortedStream<S>
where
    S: Stream,
    S::Item: ScanRow,
{
    merge_sorted_stream_by_offset(sources, skip, skip, limit)
}

/// [`merge_sorted_stream`] ordering rows by their key bytes from
/// `offset` on, then by the key without its first `skip` bytes, as
/// [`merge_sorted_by_offset`](rowkey_core::scan::merge_sorted_by_offset) does: the
/// order of a plan
/// [ordered after its IN-lists](rowkey_core::scan::ScanPlan::ordered_after_in_lists),
/// one source per range.
pub fn merge_sorted_stream_by_offset<S>(
    sources: impl IntoIterator<Item = S>,
    skip: usize,
    offset: usize,
    limit: Option<usize>,
) -> MergeSortedStream<S>
where
    S: Stream,
    S::Item: ScanRow,
{
    let sources: Vec<Pin<Box<S>>> = sources.into_iter().map(Box::pin).collect();
    MergeSortedStream {
        settled: vec![false; sources.len()],
        heap: BinaryHeap::with_capacity(sources.len()),
        sources,
        skip,
        from: offset,
        desc: false,
        remaining: limit,
    }
}

impl<S> MergeSortedStream<S>
where
    S: Stream,
    S::Item: ScanRow,
{
    /// The same merge, largest key first: for streams each read last
    /// key first (a reversed plan's ranges).
    pub fn reversed(mut self) -> Self {
        self.desc = !self.desc;
        let desc = self.desc;
        let heads: Vec<_> = self.heap.drain().collect();
        self.heap
            .extend(heads.into_iter().map(|h| Head { desc, ..h }));
        self
    }
}

// Sources are boxed and rows are only moved, never pinned: the merger
// itself may move freely.
impl<S: Stream> Unpin for MergeSortedStream<S> {}

impl<S> Stream for MergeSortedStream<S>
where
    S: Stream,
    S::Item: ScanRow,
{
    type Item = S::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        let this = Pin::into_inner(self);
        if this.remaining == Some(0) {
            return Poll::Ready(None);
        }
        let mut pending = false;
        for (i, source) in this.sources.iter_mut().enumerate() {
            if this.settled[i] {
                continue;
            }
            match source.as_mut().poll_next(cx) {
                Poll::Ready(Some(row)) => {
                    this.heap.push(Head {
                        row,
                        source: i,
                        skip: this.skip,
                        from: this.from,
                        desc: this.desc,
                    });
                    this.settled[i] = true;
                }
                // An ended source stays settled and never has a head.
                Poll::Ready(None) => this.settled[i] = true,
                Poll::Pending => pending = true,
            }
        }
        if pending {
            return Poll::Pending;
        }
        match this.heap.pop() {
            None => Poll::Ready(None),
            Some(Head { row, source, .. }) => {
                // The source must refill before the next comparison.
                this.settled[source] = false;
                if let Some(n) = &mut this.remaining {
                    *n -= 1;
                }
                Poll::Ready(Some(row))
            }
        }
    }
}

/// The next row of one source, ordered for a min-heap on the key from byte
/// `from` on, then the key without its first `skip` bytes (ties: the lower
/// source first). The async merges (stream, store queries) keep their
/// heads in a `BinaryHeap` of these.
pub(crate) struct Head<T> {
    pub(crate) row: T,
    pub(crate) source: usize,
    pub(crate) skip: usize,
    /// Where the order starts (`skip` for logical key order).
    pub(crate) from: usize,
    /// Largest key first (a reversed read); ties still lower source first.
    pub(crate) desc: bool,
}

impl<T: ScanRow> Head<T> {
    fn order(&self) -> (&[u8], &[u8]) {
        let key = self.row.row_key();
        (
            key.get(self.from..).unwrap_or_default(),
            key.get(self.skip..).unwrap_or_default(),
        )
    }
}

impl<T: ScanRow> PartialEq for Head<T> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl<T: ScanRow> Eq for Head<T> {}
impl<T: ScanRow> PartialOrd for Head<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<T: ScanRow> Ord for Head<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap pops the greatest: the smallest key (ascending) or
        // the largest (descending), the lower source on a tie.
        if self.desc {
            (self.order(), other.source).cmp(&(other.order(), self.source))
        } else {
            (other.order(), other.source).cmp(&(self.order(), self.source))
        }
    }
}
