//! [`ScanPlan`]: the ranges of one query, one per salt bucket it touches.

use super::fan_out::FanOut;
use super::fit::{start_after, stop_below};
use super::in_order::InOrder;
use super::{FuzzyKey, ScanRange};
use crate::buf::KeyBuf;
use crate::render::{cbt_arg, ruby_single_quoted, UnrenderableKey};
use crate::salt::SaltPlan;
use crate::KeyDisplay;
use core::fmt;
use core::ops::Range;
use std::sync::Arc;

/// The ranges that answer one query: a single range for an unsalted key
/// (or a salted one whose bucket the query fixes), else one range per
/// bucket it may touch (per bucket of the group when a bucket group is
/// fixed). Iterating allocates nothing.
///
/// The same bounds apply after each bucket's prefix: `start` and `stop`
/// here are those bounds, without the bucket.
///
/// # "no field `host` on type `ScanPlan<N>`"
///
/// A range (`range`, `between`, `since`, `until`, `latest`,
/// `starts_with`) ends a typed query and gives the plan, so no field can
/// follow it; rustc words that error itself. To bind a field after one
/// that takes a range, list the earlier field's values (`is_in`, one
/// exact range each), or leave it free (`any()`, a filter on the later
/// field, the earlier one checked in your code), or key (or index) the
/// table with the later field first. The chapter "Queries and plans"
/// (`docs/queries-and-plans.md`) has an example.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ScanPlan<const N: usize> {
    salt: Option<SaltPlan>,
    /// `lo..hi` (a `Range` is not `Copy`).
    buckets: (u32, u32),
    start: KeyBuf<N>,
    /// `None`: to the end of the bucket (of the table, unsalted).
    stop: Option<KeyBuf<N>>,
    limit: Option<usize>,
    /// Read last key first.
    reversed: bool,
    /// Only keys that match it, over the whole stored key.
    fuzzy: Option<FuzzyKey<N>>,
    /// An IN-list's ranges (bucket prefixes included): sorted, disjoint,
    /// in place of the same bounds in every bucket.
    list: Option<Arc<[ScanRange<N>]>>,
    /// An IN-list plan's sources and order offset, for
    /// [`ordered_after_in_lists`](Self::ordered_after_in_lists).
    pub(super) in_order: Option<Arc<InOrder<N>>>,
    /// Rows merge by their key bytes from this offset on (ties: by the
    /// logical key): a plan ordered after its IN-lists.
    pub(super) order_from: Option<usize>,
    /// What multiplied the ranges, for [`explain`](Self::explain).
    pub(super) fan_out: FanOut,
}

impl<const N: usize> ScanPlan<N> {
    pub(crate) fn new(
        salt: Option<SaltPlan>,
        buckets: Range<u32>,
        start: KeyBuf<N>,
        stop: Option<KeyBuf<N>>,
    ) -> Self {
        ScanPlan {
            salt,
            buckets: (buckets.start, buckets.end),
            start,
            stop,
            limit: None,
            reversed: false,
            fuzzy: None,
            list: None,
            in_order: None,
            order_from: None,
            fan_out: FanOut::default(),
        }
    }

    /// The plan of an IN-list: `ranges` sorted and disjoint (touching,
    /// for a plan ordered after its IN-lists).
    pub(crate) fn from_list(salt: Option<SaltPlan>, ranges: Vec<ScanRange<N>>) -> Self {
        let mut plan = ScanPlan::new(salt, 0..0, KeyBuf::new(), Some(KeyBuf::new()));
        if let Some(first) = ranges.first() {
            let skip = plan.prefix_len();
            fn cut<const N: usize>(k: &[u8], skip: usize) -> KeyBuf<N> {
                KeyBuf::from_slice(k.get(skip..).unwrap_or_default()).unwrap_or_default()
            }
            plan.start = cut(first.start(), skip);
            plan.stop = first.stop().map(|s| cut(s, skip));
            plan.buckets = match salt {
                Some(s) => {
                    let bucket = |r: &ScanRange<N>| s.bucket_of_prefix(r.start()).unwrap_or(0);
                    let lo = ranges.iter().map(bucket).min().unwrap_or(0);
                    let hi = ranges.iter().map(bucket).max().unwrap_or(0);
                    (lo, hi + 1)
                }
                None => (0, 1),
            };
        }
        plan.list = Some(ranges.into());
        plan
    }

    /// A plan that matches nothing.
    pub fn empty() -> Self {
        ScanPlan::new(None, 0..0, KeyBuf::new(), Some(KeyBuf::new()))
    }

    /// A plan of one range: every key of an unsalted table. With
    /// [`with_fuzzy`](Self::with_fuzzy), a filter over the whole table.
    pub fn all() -> Self {
        ScanPlan::new(None, 0..1, KeyBuf::new(), None)
    }

    /// A plan of one range, `[start, stop)` (`None` when a bound does not
    /// fit in `N` bytes); for tests and tools that build plans by hand.
    #[doc(hidden)]
    pub fn from_bounds(start: &[u8], stop: Option<&[u8]>) -> Option<Self> {
        let start = KeyBuf::from_slice(start)?;
        let stop = match stop {
            Some(s) => Some(KeyBuf::from_slice(s)?),
            None => None,
        };
        Some(ScanPlan::new(None, 0..1, start, stop))
    }

    /// The salt, for a salted key.
    pub fn salt(&self) -> Option<&SaltPlan> {
        self.salt.as_ref()
    }

    /// The buckets scanned (`0..1` for an unsalted key).
    pub fn buckets(&self) -> Range<u32> {
        self.buckets.0..self.buckets.1
    }

    /// Bytes of the salt prefix in every key: what [`merge_sorted`]
    /// skips to compare rows in logical order.
    ///
    /// [`merge_sorted`]: super::merge_sorted
    pub fn prefix_len(&self) -> usize {
        self.salt.map_or(0, |s| s.prefix_len())
    }

    /// The bounds after the bucket prefix: `start` inclusive, `stop`
    /// exclusive (`None`: to the end of the bucket). An IN-list plan's
    /// ranges differ from one another: this is its first range's; read
    /// them all with [`ranges`](Self::ranges).
    pub fn bounds(&self) -> (&[u8], Option<&[u8]>) {
        (
            self.start.as_bytes(),
            self.stop.as_ref().map(KeyBuf::as_bytes),
        )
    }

    /// How many ranges ([`ranges`](Self::ranges) yields no more).
    pub fn len(&self) -> usize {
        if let Some(list) = &self.list {
            return list.len();
        }
        if self.bounds_empty() {
            0
        } else {
            self.buckets().len()
        }
    }

    /// Whether the plan matches nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn bounds_empty(&self) -> bool {
        if let Some(list) = &self.list {
            return list.is_empty();
        }
        let (start, stop) = self.bounds();
        stop.is_some_and(|stop| stop <= start)
    }

    /// The most rows the query wants (`latest(n)` sets `n`), if any: a limit
    /// for each range's scan and for the merge.
    pub fn limit(&self) -> Option<usize> {
        self.limit
    }

    /// The same plan with a row limit.
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = Some(limit);
        self
    }

    /// The same rows read backwards: a store's `query` returns them in
    /// descending logical key order (the salt prefix ignored), and with a
    /// limit, the last rows. Its ranges stay `[start, stop)`; Bigtable's
    /// `reversed` read flag and HBase's reversed scans read them from the
    /// end.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Op { user: u32, seq: u32 }
    ///
    /// // The last 3 operations of user 7, newest first.
    /// let plan = Op::scan().user.eq(7).plan()?.reversed().with_limit(3);
    /// assert!(plan.is_reversed());
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    pub fn reversed(mut self) -> Self {
        self.reversed = !self.reversed;
        self
    }

    /// Whether the plan reads last key first.
    pub fn is_reversed(&self) -> bool {
        self.reversed
    }

    /// The ranges, in bucket order.
    pub fn ranges(&self) -> PlanRanges<'_, N> {
        let buckets = if self.bounds_empty() {
            0..0
        } else {
            self.buckets()
        };
        PlanRanges {
            plan: self,
            buckets: if self.list.is_some() { 0..0 } else { buckets },
            list: self.list.as_deref().unwrap_or_default().iter(),
        }
    }

    /// The one range, when there is exactly one.
    pub fn single(&self) -> Option<ScanRange<N>> {
        let mut it = self.ranges();
        match (it.next(), it.next()) {
            (Some(r), None) => Some(r),
            _ => None,
        }
    }

    /// The range of one of the plan's buckets ([`buckets`](Self::buckets));
    /// `None` for any other bucket.
    pub fn range(&self, bucket: u32) -> Option<ScanRange<N>> {
        if let Some(list) = &self.list {
            // An IN-list plan may have several ranges in a bucket: one only.
            let salt = self.salt?;
            let mut hits = list
                .iter()
                .filter(|r| salt.bucket_of_prefix(r.start()) == Some(bucket));
            return match (hits.next(), hits.next()) {
                (Some(r), None) => Some(*r),
                _ => None,
            };
        }
        self.buckets()
            .contains(&bucket)
            .then(|| self.bucket_range(bucket))
    }

    fn bucket_range(&self, bucket: u32) -> ScanRange<N> {
        let Some(salt) = &self.salt else {
            return ScanRange::new(self.start, self.stop);
        };
        // A bucket prefix is at most 6 bytes (5 digits and a separator).
        let mut bucket_prefix = [0u8; 8];
        let p = &mut bucket_prefix[..salt.prefix_len()];
        salt.write_prefix(bucket, p);
        let p = &*p;
        // Each bound is written once, prefix then bytes, into its own
        // buffer: no whole `KeyBuf` is built and then copied.
        let prefixed = |rest: &[u8]| {
            let mut k = KeyBuf::<N>::new();
            // A prefix that does not fit is left out, as a bound that
            // does not fit after it is.
            let _ = k.extend_from_slice(p);
            let _ = k.extend_from_slice(rest);
            k
        };
        let start = prefixed(self.start.as_bytes());
        let stop = match &self.stop {
            Some(stop) => Some(prefixed(stop.as_bytes())),
            // The end of the bucket: the first key after its prefix.
            None => {
                let mut s = prefixed(&[]);
                s.advance_past_prefix().then_some(s)
            }
        };
        ScanRange::new(start, stop)
    }

    /// Whether the plan selects `key`: it is in one of the ranges and
    /// matches the plan's [`fuzzy`](Self::fuzzy) key, if any.
    pub fn contains(&self, key: &[u8]) -> bool {
        self.fuzzy.is_none_or(|f| f.matches(key)) && self.ranges().any(|r| r.contains(key))
    }

    /// The same plan, keeping only the keys that match `fuzzy` (within its
    /// ranges): a query that binds a later field while leaving an earlier
    /// fixed-width one free. The pattern is over the whole stored key,
    /// the salt prefix included (free bytes there: [`prefix_len`] of them).
    /// Stores apply it on every page and resumed read, and so do
    /// [`page`](super::page) and [`offset_limit`](super::offset_limit)
    /// over your own reads; plans and requests of it carry it, but a
    /// [`ScanRange`] of it does not.
    ///
    /// [`prefix_len`]: Self::prefix_len
    ///
    /// ```
    /// use rowkey::scan::FuzzyKey;
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Event { #[salt(buckets = 4, binary)] user: u32, status: u8, seq: u32 }
    ///
    /// // Status 2, for any user: every bucket, then user free, status fixed.
    /// let plan = Event::scan().plan()?;
    /// let mut fuzzy = FuzzyKey::new();
    /// fuzzy.push_free(plan.prefix_len() + 4)?;
    /// fuzzy.push_fixed(&[2])?;
    /// let plan = plan.with_fuzzy(fuzzy);
    /// let key = |user, status| Event { user, status, seq: 1 }.to_vec().unwrap();
    /// assert!(plan.contains(&key(7, 2)) && !plan.contains(&key(7, 3)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_fuzzy(mut self, fuzzy: FuzzyKey<N>) -> Self {
        self.fuzzy = Some(fuzzy);
        self
    }

    /// The fuzzy key the plan's rows must match, if any.
    pub fn fuzzy(&self) -> Option<&FuzzyKey<N>> {
        self.fuzzy.as_ref()
    }

    /// Names the field a fuzzy key's tail range is on (for `explain`).
    pub(crate) fn name_filtered_field(mut self, field: &'static str) -> Self {
        if let Some(f) = &mut self.fuzzy {
            f.name_tail(field);
        }
        self
    }

    /// The plan for the rows after `key` in merged (logical) order: every
    /// bucket's range starts after `key` without its bucket (ends before
    /// it, for a reversed plan). Keyset pagination resumes here without
    /// re-reading earlier rows. For a plan [ordered after its
    /// IN-lists](Self::ordered_after_in_lists), "after" is in that order:
    /// each combination's range resumes after `key`'s bytes from the order
    /// offset on.
    ///
    /// The plan it gives can no longer be ordered after its IN-lists (its
    /// combinations are resumed in key order).
    pub fn after(&self, key: &[u8]) -> Self {
        if let Some(offset) = self.order_from {
            return self.ordered_after(offset, key);
        }
        let mut next = self.key_order_after(key);
        next.in_order = None;
        next
    }

    fn key_order_after(&self, key: &[u8]) -> Self {
        let skip = self.prefix_len();
        if let Some(list) = &self.list {
            return self.list_after(list, key.get(skip..).unwrap_or_default());
        }
        let logical = key.get(skip..).unwrap_or_default();
        // These bounds come after each bucket's prefix: the plan's keys
        // have `N - 1` bytes at most, so their logical parts `room`. A
        // resume key longer than that is bounded by its first `room`
        // bytes, never by bytes that would not fit after the prefix.
        let room = N.saturating_sub(1 + skip);
        let mut next = self.clone();
        if self.reversed {
            // Below `logical`: it becomes the (exclusive) stop.
            let stop = stop_below::<N>(logical, room).unwrap_or_default();
            if self.stop.is_none_or(|s| stop.as_bytes() < s.as_bytes()) {
                next.stop = Some(stop);
            }
            return next;
        }
        // From the first key after `logical`: `logical + 0x00`.
        let Some(resume) = start_after::<N>(logical, room) else {
            return ScanPlan::empty();
        };
        if resume.as_bytes() > self.start.as_bytes() {
            next.start = resume;
        }
        next
    }

    /// [`after`](Self::after) for an IN-list plan: each range resumes
    /// after `logical` behind its own bucket prefix.
    fn list_after(&self, list: &[ScanRange<N>], logical: &[u8]) -> Self {
        let skip = self.prefix_len();
        let mut out = Vec::with_capacity(list.len());
        for r in list {
            let mut key = r.start()[..skip.min(r.start().len())].to_vec();
            key.extend_from_slice(logical);
            let r = if self.reversed {
                // Below `prefix + logical`.
                let Some(bound) = stop_below::<N>(&key, N.saturating_sub(1)) else {
                    continue;
                };
                let stop = match r.stop() {
                    Some(s) if s <= bound.as_bytes() => s,
                    _ => bound.as_bytes(),
                };
                ScanRange::from_bounds(r.start(), Some(stop))
            } else {
                // From `prefix + logical + 0x00`.
                let Some(bound) = start_after::<N>(&key, N.saturating_sub(1)) else {
                    continue;
                };
                ScanRange::from_bounds(r.start().max(bound.as_bytes()), r.stop())
            };
            out.extend(r.filter(|r| !r.is_empty()));
        }
        let mut next = ScanPlan::from_list(self.salt, out);
        next.limit = self.limit;
        next.reversed = self.reversed;
        next.fuzzy = self.fuzzy;
        next.fan_out = self.fan_out.clone();
        next
    }

    /// One `scan` line per range, for the HBase shell. A [fuzzy
    /// key](Self::with_fuzzy) becomes a `FILTER` built with HBase's Java
    /// API: `FuzzyRowFilter.new([Pair.new(row, mask)])`, the bytes through
    /// `Bytes.toBytesBinary` (HBase's filter language has no
    /// `FuzzyRowFilter`). HBase's filter also passes rows shorter than the
    /// pattern that agree with it: see [`FuzzyKey`].
    ///
    /// ```
    /// use rowkey::scan::{FuzzyKey, ScanPlan};
    ///
    /// let mut fuzzy = FuzzyKey::<8>::new();
    /// fuzzy.push_free(1)?;
    /// fuzzy.push_fixed(b"'")?;
    /// let plan = ScanPlan::<8>::all().with_fuzzy(fuzzy);
    /// assert_eq!(
    ///     plan.hbase_shell("t"),
    ///     "scan 't', {STARTROW => \"\", FILTER => org.apache.hadoop.hbase.filter.FuzzyRowFilter.new(\
    ///      [org.apache.hadoop.hbase.util.Pair.new(\
    ///      org.apache.hadoop.hbase.util.Bytes.toBytesBinary('\\\\x00\\''), \
    ///      org.apache.hadoop.hbase.util.Bytes.toBytesBinary('\\\\x01\\\\x00'))])}\n"
    /// );
    /// # Ok::<(), rowkey::scan::FuzzyKeyFull>(())
    /// ```
    pub fn hbase_shell(&self, table: &str) -> String {
        let filter = self.fuzzy.map(|f| {
            let bytes = "org.apache.hadoop.hbase.util.Bytes.toBytesBinary";
            format!(
                ", FILTER => org.apache.hadoop.hbase.filter.FuzzyRowFilter.new(\
                 [org.apache.hadoop.hbase.util.Pair.new({bytes}({}), {bytes}({}))])}}",
                ruby_single_quoted(&KeyDisplay(f.bytes()).to_string()),
                ruby_single_quoted(&KeyDisplay(f.mask()).to_string()),
            )
        });
        self.ranges()
            .map(|r| {
                let mut line = r.hbase_shell(table);
                if let Some(filter) = &filter {
                    line.pop(); // the closing `}`
                    line.push_str(filter);
                }
                if let Some((lo, hi)) = self.fuzzy.as_ref().and_then(FuzzyKey::tail_range) {
                    // No filter of HBase's compares bytes at an offset.
                    let at = self.fuzzy.map_or(0, |f| f.len());
                    line.push_str(&format!(
                        " # then keep the rows whose bytes from byte {at} are in [{}, {})",
                        KeyDisplay(lo),
                        hi.map_or("end".to_string(), |h| KeyDisplay(h).to_string())
                    ));
                }
                line + "\n"
            })
            .collect()
    }

    /// One `cbt read` line per range (see [`ScanRange::cbt`]), with
    /// `regex=` for a [fuzzy key](Self::with_fuzzy) (Bigtable's
    /// `RowKeyRegexFilter`) and `reversed=true` for a reversed plan.
    ///
    /// ```
    /// use rowkey::scan::{FuzzyKey, ScanPlan};
    ///
    /// let mut fuzzy = FuzzyKey::<8>::new();
    /// fuzzy.push_free(1)?;
    /// fuzzy.push_fixed(b"x")?;
    /// let plan = ScanPlan::<8>::all().with_fuzzy(fuzzy);
    /// assert_eq!(plan.cbt("t")?, r"cbt read t $'start=' $'regex=(?s)^\\C\\x78\\C*'".to_owned() + "\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cbt(&self, table: &str) -> Result<String, UnrenderableKey> {
        let regex = match &self.fuzzy {
            Some(f) => format!(" {}", cbt_arg("regex", f.bigtable_regex().as_bytes())?),
            None => String::new(),
        };
        let mut out = String::new();
        for r in self.ranges() {
            let line = if self.reversed {
                r.cbt_reversed(table)?
            } else {
                r.cbt(table)?
            };
            out.push_str(&line);
            out.push_str(&regex);
            out.push('\n');
        }
        Ok(out)
    }
}

impl<const N: usize> fmt::Debug for ScanPlan<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.ranges()).finish()
    }
}

/// The ranges of a [`ScanPlan`], built on the stack one at a time.
#[derive(Debug, Clone)]
pub struct PlanRanges<'a, const N: usize> {
    plan: &'a ScanPlan<N>,
    buckets: Range<u32>,
    /// An IN-list plan's ranges.
    list: core::slice::Iter<'a, ScanRange<N>>,
}

impl<const N: usize> Iterator for PlanRanges<'_, N> {
    type Item = ScanRange<N>;

    fn next(&mut self) -> Option<ScanRange<N>> {
        if let Some(r) = self.list.next() {
            return Some(*r);
        }
        self.buckets.next().map(|b| self.plan.bucket_range(b))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.list.len() + self.buckets.len();
        (n, Some(n))
    }
}

impl<const N: usize> ExactSizeIterator for PlanRanges<'_, N> {}

impl<'a, const N: usize> IntoIterator for &'a ScanPlan<N> {
    type Item = ScanRange<N>;
    type IntoIter = PlanRanges<'a, N>;
    fn into_iter(self) -> PlanRanges<'a, N> {
        self.ranges()
    }
}
