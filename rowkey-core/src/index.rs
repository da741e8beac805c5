//! [`IndexOf`]: a key that indexes rows keyed by another.

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
