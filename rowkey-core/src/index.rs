//! [`IndexOf`]: a key that indexes rows keyed by another, and
//! [`SparseIndexOf`]: one that indexes only some of them.

use crate::RowKey;

/// A row key of an index table: the key of the index row for a main row
/// keyed by `M`, built from `M`'s fields.
///
/// `#[rowkey(index_of = Main)]` on a `#[derive(RowKey)]` struct
/// implements it: each field of the index key is copied (cloned) from
/// `Main`'s field of the same name, which must exist and have the same
/// type, or the build fails at that field. `Main` is either the main key
/// or a whole record (`rowkey::store::Record`) with more fields than the
/// key. An index key that is a function of the main key never goes stale
/// while its main row exists; one built from a record does when the
/// record changes, which `IndexedStore::update_record` and
/// `query_records` handle. To be one row per main row, an index key must
/// include fields that identify the main row (two main rows with the same
/// index key share one index row, the later one).
///
/// The store side, which writes both rows and joins index hits back to
/// main rows, is `rowkey::store::IndexedStore`.
///
/// ```
/// use rowkey::{IndexOf, RowKey};
///
/// #[derive(RowKey)]
/// struct Reading { #[salt(buckets = 8, binary)] device: u32, metric: u16, #[desc_ts] at_ms: i64 }
///
/// /// One metric, all devices, newest first.
/// #[derive(RowKey, Debug, PartialEq)]
/// #[rowkey(index_of = Reading)]
/// struct ReadingByMetric { metric: u16, #[desc_ts] at_ms: i64, device: u32 }
///
/// let reading = Reading { device: 7, metric: 3, at_ms: 1_000 };
/// assert_eq!(
///     ReadingByMetric::index_key(&reading),
///     ReadingByMetric { metric: 3, at_ms: 1_000, device: 7 },
/// );
/// ```
pub trait IndexOf<M: ?Sized>: RowKey {
    /// The index key of the main row keyed by `main`.
    fn index_key(main: &M) -> Self;
}

/// A row key of a *sparse* index table: one that holds rows for only some
/// main rows (thread replies, not top-level messages; open orders, not
/// filled ones). [`sparse_index_key`](Self::sparse_index_key) is the
/// index key of `main`, or `None` when the index holds no row for it.
///
/// Every [`IndexOf`] key is one that indexes every main row (its key is
/// always `Some`), so the stores take `SparseIndexOf` wherever they take
/// an index: a sparse index is written, moved, deleted and queried as any
/// other. Implement it by hand; `#[rowkey(index_of = ...)]` derives
/// `IndexOf`, and a type implements one or the other.
///
/// ```
/// use rowkey::{RowKey, SparseIndexOf};
///
/// struct Message { channel: u32, at_ms: i64, thread: Option<i64> }
///
/// /// The replies of one thread, oldest first: top-level messages have
/// /// no row.
/// #[derive(RowKey, Debug, PartialEq)]
/// struct ReplyByThread { channel: u32, thread: i64, at_ms: i64 }
///
/// impl SparseIndexOf<Message> for ReplyByThread {
///     fn sparse_index_key(m: &Message) -> Option<Self> {
///         Some(ReplyByThread { channel: m.channel, thread: m.thread?, at_ms: m.at_ms })
///     }
/// }
///
/// let top = Message { channel: 1, at_ms: 10, thread: None };
/// let reply = Message { channel: 1, at_ms: 12, thread: Some(10) };
/// assert_eq!(ReplyByThread::sparse_index_key(&top), None);
/// assert_eq!(
///     ReplyByThread::sparse_index_key(&reply),
///     Some(ReplyByThread { channel: 1, thread: 10, at_ms: 12 }),
/// );
/// ```
pub trait SparseIndexOf<M: ?Sized>: RowKey + Sized {
    /// The index key of the main row keyed by `main`, or `None` when the
    /// index holds no row for it.
    fn sparse_index_key(main: &M) -> Option<Self>;
}

/// An index of every main row is a sparse index that skips none.
impl<M: ?Sized, X: IndexOf<M>> SparseIndexOf<M> for X {
    #[inline]
    fn sparse_index_key(main: &M) -> Option<Self> {
        Some(X::index_key(main))
    }
}
