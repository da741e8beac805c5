//! Rows of an IN-list plan in the order of the fields after the last
//! listed one ([`ScanPlan::ordered_after_in_lists`]): each combination's
//! range, in each salt bucket it may touch, is a sorted source of its own,
//! and the merge compares keys from the byte where those fields start.

use super::fit::{start_from, stop_below};
use super::{ScanPlan, ScanRange};
use crate::{EncodeError, EncodeErrorKind};
use std::sync::Arc;

/// What an IN-list plan keeps to be ordered after its lists.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct InOrder<const N: usize> {
    key: &'static str,
    /// Where the fields after the last IN-listed one start in every stored
    /// key, or why they have no common offset.
    offset: Result<usize, EncodeError>,
    /// One range per combination and bucket, sorted, disjoint.
    sources: Vec<ScanRange<N>>,
    max_ranges: usize,
}

impl<const N: usize> InOrder<N> {
    pub(crate) fn new(
        key: &'static str,
        offset: Result<usize, EncodeError>,
        sources: Vec<ScanRange<N>>,
        max_ranges: usize,
    ) -> Self {
        InOrder {
            key,
            offset,
            sources,
            max_ranges,
        }
    }
}

impl<const N: usize> ScanPlan<N> {
    pub(crate) fn with_in_order(mut self, order: InOrder<N>) -> Self {
        self.in_order = Some(Arc::new(order));
        self
    }

    /// The same rows, merged in the order of the fields after the last
    /// IN-listed one, as the key stores them (a `#[desc_ts]` field: newest
    /// first), then by the whole logical key (so the order is total).
    ///
    /// By default an IN-list plan's rows come back in key order: all of
    /// the first value's rows, then the next value's. Ordered after its
    /// IN-lists, each combination's range (in each salt bucket) is read as
    /// a sorted source of its own and a store's `query` merges them
    /// comparing key bytes from [`merge_offset`](Self::merge_offset):
    /// "one device, three metrics, newest first across the metrics". It
    /// composes with [`reversed`](Self::reversed) (the opposite order),
    /// [`with_limit`](Self::with_limit) (the first rows of the merged
    /// order: `with_limit(10)` is the 10 newest over every metric) and
    /// keyset pages ([`after`](Self::after) resumes in this order, so a
    /// [`Cursor`](super::Cursor) needs nothing more than the last key).
    ///
    /// The order is the client's merge: the [ranges](Self::ranges) (one
    /// per combination and bucket, rendered by
    /// [`hbase_shell`](Self::hbase_shell) and [`cbt`](Self::cbt)) read the
    /// same rows as the plan in key order; HBase and Bigtable return each
    /// range in key order, and only a merging reader (`StoreExt::query`,
    /// `StoreExt::page`, [`page`](super::page),
    /// [`merge_sorted_by_offset`](super::merge_sorted_by_offset)) gives
    /// this order.
    ///
    /// # Errors
    ///
    /// The plan has no IN-list (or was resumed in key order with
    /// [`after`](Self::after)); a field up to the last IN-listed one has a
    /// width that varies (escaped or raw text and bytes, an `Option`), so
    /// the later fields start at no common offset (the error names it);
    /// or the sources are more than the query's cap on ranges
    /// ([`TooManyRanges`](EncodeErrorKind::TooManyRanges)).
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Reading {
    ///     #[salt(buckets = 8, binary)]
    ///     device: u32,
    ///     metric: u16,
    ///     #[desc_ts]
    ///     at_ms: i64,
    /// }
    ///
    /// // Device 7's metrics 3, 5 and 9 since t, newest first across the
    /// // metrics: the ten newest readings.
    /// let plan = Reading::scan().device.eq(7).metric.is_in([3, 5, 9])
    ///     .at_ms.since(1_000)?
    ///     .ordered_after_in_lists()?
    ///     .with_limit(10);
    /// assert_eq!(plan.len(), 3); // one range per metric, each a source
    /// assert_eq!(plan.merge_offset(), 1 + 4 + 2); // salt, device, metric
    /// // Comparing from there, the newer reading comes first:
    /// let key = |metric, at_ms| Reading { device: 7, metric, at_ms }.to_vec().unwrap();
    /// let from = plan.merge_offset();
    /// assert!(key(9, 2_000)[from..] < key(3, 1_500)[from..]);
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    pub fn ordered_after_in_lists(self) -> Result<Self, EncodeError> {
        if self.order_from.is_some() {
            return Ok(self);
        }
        let Some(order) = self.in_order.clone() else {
            return Err(EncodeError::new(
                "ScanPlan",
                "",
                0,
                EncodeErrorKind::Invalid(
                    "the plan has no IN-list (`is_in`) whose rows could be ordered by the fields \
                     after it (or it was resumed in key order with `after`)",
                ),
            ));
        };
        let offset = order.offset?;
        if order.sources.len() > order.max_ranges {
            return Err(EncodeError::new(
                order.key,
                "",
                0,
                EncodeErrorKind::TooManyRanges {
                    ranges: order.sources.len(),
                    max: order.max_ranges,
                },
            ));
        }
        Ok(self.with_sources(order.sources.clone(), offset))
    }

    /// Where a merge of the plan's ranges compares keys from: the end of
    /// the salt prefix ([`prefix_len`](Self::prefix_len)) for logical key
    /// order, or, for a plan [ordered after its
    /// IN-lists](Self::ordered_after_in_lists), where the fields after the
    /// last IN-listed one start (ties still go by the logical key).
    pub fn merge_offset(&self) -> usize {
        self.order_from.unwrap_or_else(|| self.prefix_len())
    }

    /// This plan's settings over `sources`, merged from `offset`.
    fn with_sources(&self, sources: Vec<ScanRange<N>>, offset: usize) -> Self {
        let mut next = ScanPlan::from_list(self.salt().copied(), sources);
        if let Some(limit) = self.limit() {
            next = next.with_limit(limit);
        }
        if self.is_reversed() {
            next = next.reversed();
        }
        if let Some(fuzzy) = self.fuzzy() {
            next = next.with_fuzzy(*fuzzy);
        }
        next.in_order = self.in_order.clone();
        next.order_from = Some(offset);
        next.fan_out = self.fan_out.clone();
        next
    }

    /// [`after`](Self::after) in the order from `offset`: the rows whose
    /// (bytes from `offset`, logical key) come after `key`'s (before, for
    /// a reversed plan).
    pub(super) fn ordered_after(&self, offset: usize, key: &[u8]) -> Self {
        let skip = self.prefix_len();
        let logical = key.get(skip..).unwrap_or_default();
        let tail = key.get(offset..).unwrap_or_default();
        let mut out = Vec::with_capacity(self.len());
        for r in self.ranges() {
            // Every key of a source starts with the source's bytes up to
            // `offset` (a range whose start is shorter holds no key).
            let Some(head) = r.start().get(..offset) else {
                continue;
            };
            // This source's key with `key`'s tail: it ties with `key` on
            // the bytes from `offset`, and the logical keys break the tie.
            let mut tie = head.to_vec();
            tie.extend_from_slice(tail);
            let tie_logical = &tie[skip.min(tie.len())..];
            let next = if self.is_reversed() {
                // Below `tie`, or up to it when it comes before `key`.
                if tie_logical < logical {
                    tie.push(0);
                }
                let Some(stop) = stop_below::<N>(&tie, N.saturating_sub(1)) else {
                    continue;
                };
                let stop = match r.stop() {
                    Some(s) if s <= stop.as_bytes() => s,
                    _ => stop.as_bytes(),
                };
                ScanRange::from_bounds(r.start(), Some(stop))
            } else {
                // From `tie`, or just after it when it is `key` or before.
                if tie_logical <= logical {
                    tie.push(0);
                }
                let Some(start) = start_from::<N>(&tie, N.saturating_sub(1)) else {
                    continue;
                };
                ScanRange::from_bounds(r.start().max(start.as_bytes()), r.stop())
            };
            out.extend(next.filter(|r| !r.is_empty()));
        }
        self.with_sources(out, offset)
    }
}
