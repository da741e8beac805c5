//! [`merge_sorted_stream`]: per-bucket async streams merged back into
//! logical key order by core's [`MergeHeads`], the merge
//! [`merge_sorted`](rowkey_core::scan::merge_sorted) runs over iterators:
//! one order, one set of tie rules.

use futures_core::Stream;
use rowkey_core::scan::{MergeHeads, MergeOrder, ScanRow};
use std::pin::Pin;
use std::task::{Context, Poll};

/// [`merge_sorted`](rowkey_core::scan::merge_sorted) over async streams,
/// so a client can scan buckets concurrently: a row is yielded once every
/// unfinished source has a row ready to compare. Dropping it drops the
/// sources.
pub struct MergeSortedStream<S: Stream> {
    sources: Vec<Pin<Box<S>>>,
    heads: MergeHeads<S::Item>,
    remaining: Option<usize>,
}

/// Merges per-bucket streams in logical key order; see
/// [`merge_sorted`](rowkey_core::scan::merge_sorted).
///
/// ```
/// use futures::stream::{self, StreamExt};
/// use rowkey::store::merge_sorted_stream;
/// let bucket0 = stream::iter([b"0_a".to_vec(), b"0_d".to_vec()]);
/// let bucket1 = stream::iter([b"1_b".to_vec(), b"1_c".to_vec()]);
/// let rows: Vec<Vec<u8>> =
///     futures::executor::block_on(merge_sorted_stream([bucket0, bucket1], 2, None).collect());
/// assert_eq!(rows, [b"0_a".to_vec(), b"1_b".to_vec(), b"1_c".to_vec(), b"0_d".to_vec()]);
/// ```
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

/// [`merge_sorted_stream`] ordering rows by their key bytes from `offset`
/// on, then by the key without its first `skip` bytes, as
/// [`merge_sorted_by_offset`](rowkey_core::scan::merge_sorted_by_offset)
/// does: the order of a plan
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
    let order = MergeOrder {
        skip,
        from: offset,
        reversed: false,
    };
    MergeSortedStream {
        heads: MergeHeads::new(sources.len(), order),
        sources,
        remaining: limit,
    }
}

impl<S> MergeSortedStream<S>
where
    S: Stream,
    S::Item: ScanRow,
{
    /// The same merge, largest key first: for streams each read last key
    /// first (a reversed plan's ranges).
    pub fn reversed(mut self) -> Self {
        self.heads.reverse();
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
        let sources = &mut this.sources;
        // Every awaited source is polled, so each one pending wakes us.
        let ready = this
            .heads
            .fill(|i| match sources[i].as_mut().poll_next(cx) {
                Poll::Ready(head) => Some(head),
                Poll::Pending => None,
            });
        if !ready {
            return Poll::Pending;
        }
        match this.heads.pop() {
            None => Poll::Ready(None),
            Some((_, row)) => {
                if let Some(n) = &mut this.remaining {
                    *n -= 1;
                }
                Poll::Ready(Some(row))
            }
        }
    }
}

impl<S: Stream> std::fmt::Debug for MergeSortedStream<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MergeSortedStream")
            .field("heads", &self.heads)
            .field("remaining", &self.remaining)
            .finish()
    }
}
