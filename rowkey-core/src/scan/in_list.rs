//! [`ScanQuery`]: the key prefixes a typed scan has fixed so far, one per
//! combination of IN-list values, and how their plans join into one.
//!
//! A query without IN-lists is one [`ScanBuilder`] on the stack and
//! allocates nothing. `is_in` multiplies the prefixes (the cross product
//! of the value lists); each one learns its own salt bucket, so a
//! combination that fixes every salt input lands in its one bucket. The
//! plan is the union of their ranges: sorted by stored key, duplicates
//! dropped, overlapping or touching ranges joined, and refused above a cap
//! the user can raise, never silently widened into a full scan.

use super::in_order::InOrder;
use super::{ScanBuilder, ScanPlan, ScanRange};
use crate::{EncodeError, EncodeErrorKind};

/// The default cap on the ranges of one IN-list plan.
pub const DEFAULT_MAX_RANGES: usize = 10_000;

/// The prefixes a typed scan has fixed: one, or one per IN-list
/// combination. Generated code only.
#[doc(hidden)]
#[derive(Debug, Clone)]
pub struct ScanQuery<const N: usize, const M: usize> {
    first: ScanBuilder<N, M>,
    /// Further combinations, when an IN-list was given.
    more: Vec<ScanBuilder<N, M>>,
    /// An IN-list with no values: nothing matches.
    none: bool,
    /// An IN-list was given (even of one value, or none).
    listed: bool,
    /// Each IN-list's field and number of values, for `explain()`.
    lists: Vec<(&'static str, usize)>,
    max_ranges: usize,
}

impl<const N: usize, const M: usize> ScanQuery<N, M> {
    /// A query of one prefix.
    pub fn new(first: ScanBuilder<N, M>) -> Self {
        ScanQuery {
            first,
            more: Vec::new(),
            none: false,
            listed: false,
            lists: Vec::new(),
            max_ranges: DEFAULT_MAX_RANGES,
        }
    }

    /// The cap on the ranges of an IN-list plan.
    pub fn set_max_ranges(&mut self, max: usize) {
        self.max_ranges = max;
    }

    /// The first prefix (the only one without IN-lists).
    pub fn first(&self) -> &ScanBuilder<N, M> {
        &self.first
    }

    /// Every prefix, to change.
    pub fn each(&mut self, mut f: impl FnMut(&mut ScanBuilder<N, M>)) {
        f(&mut self.first);
        self.more.iter_mut().for_each(f);
    }

    /// Replaces every prefix `p` with `p + v` for each value `v`, `set`
    /// writing one value. More combinations than the cap is an error.
    pub fn cross<V>(
        &mut self,
        field: &'static str,
        values: impl IntoIterator<Item = V>,
        mut set: impl FnMut(&mut ScanBuilder<N, M>, &V),
    ) {
        let values: Vec<V> = values.into_iter().collect();
        self.listed = true;
        self.lists.push((field, values.len()));
        if values.is_empty() {
            self.none = true;
            return;
        }
        let combinations = (1 + self.more.len()).saturating_mul(values.len());
        if combinations > self.max_ranges {
            let at = self.first.position();
            let key = self.first.key_name();
            let max = self.max_ranges;
            self.first.fail(EncodeError::new(
                key,
                field,
                at,
                EncodeErrorKind::TooManyRanges {
                    ranges: combinations,
                    max,
                },
            ));
            return;
        }
        let bases: Vec<ScanBuilder<N, M>> = core::iter::once(self.first)
            .chain(self.more.drain(..))
            .collect();
        let mut out = Vec::with_capacity(combinations);
        for base in &bases {
            for v in &values {
                let mut b = *base;
                set(&mut b, v);
                b.end_in_list();
                out.push(b);
            }
        }
        let mut out = out.into_iter();
        self.first = out.next().unwrap_or(self.first);
        self.more = out.collect();
    }

    /// Whether an IN-list was given (of any number of values).
    pub(crate) fn is_listed(&self) -> bool {
        self.listed
    }

    /// Whether an IN-list made more than one prefix (or none).
    fn is_list(&self) -> bool {
        self.none || !self.more.is_empty()
    }

    /// The plan of every prefix, by `plan`, joined; for an IN-list, with
    /// what ordering its rows after the last listed field needs.
    pub fn plan(
        &self,
        plan: impl Fn(&ScanBuilder<N, M>) -> Result<ScanPlan<N>, EncodeError>,
    ) -> Result<ScanPlan<N>, EncodeError> {
        if !self.listed {
            return plan(&self.first);
        }
        // The first error of any combination, even one whose plan is empty.
        let plans = core::iter::once(&self.first)
            .chain(&self.more)
            .map(&plan)
            .collect::<Result<Vec<_>, _>>()?;
        let order = self.in_order(&plans);
        let joined = if self.none {
            ScanPlan::empty()
        } else if !self.is_list() {
            plans[0].clone()
        } else {
            let mut ranges: Vec<ScanRange<N>> = plans.iter().flat_map(|p| p.ranges()).collect();
            let joined = join(&mut ranges);
            if joined.len() > self.max_ranges {
                return Err(EncodeError::new(
                    self.first.key_name(),
                    "",
                    0,
                    EncodeErrorKind::TooManyRanges {
                        ranges: joined.len(),
                        max: self.max_ranges,
                    },
                ));
            }
            let salt = plans.first().and_then(|p| p.salt().copied());
            ScanPlan::from_list(salt, joined)
        };
        let mut joined = joined.with_in_order(order);
        if let Some(first) = plans.first() {
            joined.fan_out.buckets_each = first.fan_out.buckets_each;
            joined.fan_out.unfixed_salt = first.fan_out.unfixed_salt;
        }
        joined.fan_out.lists = Some(self.lists.as_slice().into());
        Ok(joined)
    }

    /// Each combination's ranges as separate sources, and where the fields
    /// after the last IN-listed one start in every key, if they start at
    /// one offset.
    fn in_order(&self, plans: &[ScanPlan<N>]) -> InOrder<N> {
        let key = self.first.key_name();
        let mut offset: Option<usize> = None;
        let mut error = None;
        // A field whose width varies is fine while every combination
        // writes it at one width (an `eq` before the lists does): only
        // ends that differ leave no common offset. The error names the
        // field that moved them.
        for end in core::iter::once(&self.first)
            .chain(&self.more)
            // An empty list wrote nothing: it has no rows to order.
            .filter_map(ScanBuilder::in_list_end)
        {
            match offset {
                None => offset = Some(end.at),
                Some(first) if first != end.at && error.is_none() => {
                    let (field, at) = end.varying.unwrap_or(("", first.min(end.at)));
                    error = Some(EncodeError::new(
                        key,
                        field,
                        at,
                        EncodeErrorKind::InListWidthVaries {
                            ends: (first, end.at),
                        },
                    ));
                }
                Some(_) => {}
            }
        }
        // An empty list: no combination, no source.
        let plans = if self.none { &[][..] } else { plans };
        let mut sources: Vec<ScanRange<N>> = plans
            .iter()
            .flat_map(|p| p.ranges())
            .filter(|r| !r.is_empty())
            .collect();
        sources.sort_by(|a, b| a.start().cmp(b.start()));
        // The same value twice (or two values with one encoding) reads the
        // same range: once.
        sources.dedup();
        let overlap = sources
            .windows(2)
            .any(|w| w[0].stop().is_none_or(|stop| stop > w[1].start()));
        if overlap {
            error.get_or_insert(EncodeError::new(key, "", 0, EncodeErrorKind::Invalid(
                "the IN-list combinations' ranges overlap: merged by the fields after the list, \
                 rows would come twice",
            )));
        }
        let offset = match error {
            Some(e) => Err(e),
            None => Ok(offset.unwrap_or_else(|| self.first.position())),
        };
        InOrder::new(key, offset, sources, self.max_ranges)
    }

    /// The range of exactly the key written, for every prefix.
    pub fn point(&self) -> Result<ScanPlan<N>, EncodeError> {
        self.plan(ScanBuilder::point)
    }

    /// Every key starting with one of the prefixes.
    pub fn prefix(&self) -> Result<ScanPlan<N>, EncodeError> {
        self.plan(ScanBuilder::prefix)
    }

    /// The whole key (one prefix only).
    pub fn key(&self) -> Result<crate::KeyBuf<N>, EncodeError> {
        self.first.key()
    }

    /// Scans only salt bucket `bucket`.
    pub fn pin_bucket(&mut self, bucket: u32) {
        self.each(|b| b.pin_bucket(bucket));
    }
}

/// Sorts `ranges` by start and joins the overlapping or touching ones:
/// the same keys, in as few disjoint ranges as they allow.
pub(crate) fn join<const N: usize>(ranges: &mut [ScanRange<N>]) -> Vec<ScanRange<N>> {
    ranges.sort_by(|a, b| a.start().cmp(b.start()));
    let mut out: Vec<ScanRange<N>> = Vec::with_capacity(ranges.len());
    for r in ranges.iter().filter(|r| !r.is_empty()) {
        match out.last_mut() {
            // `None` stops at the end of the table: it covers every later
            // start.
            Some(last) if last.stop().is_none_or(|stop| r.start() <= stop) => {
                let stop = match (last.stop(), r.stop()) {
                    (None, _) | (_, None) => None,
                    (Some(a), Some(b)) => Some(a.max(b)),
                };
                *last = ScanRange::from_bounds(last.start(), stop).unwrap_or(*last);
            }
            _ => out.push(*r),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(start: &[u8], stop: Option<&[u8]>) -> ScanRange<8> {
        ScanRange::from_bounds(start, stop).unwrap()
    }

    #[test]
    fn join_sorts_dedups_and_merges_touching_ranges() {
        let mut v = vec![
            r(b"c", Some(b"d")),
            r(b"a", Some(b"b")),
            r(b"b", Some(b"c")),
            r(b"a", Some(b"b")),
            r(b"x", Some(b"x")),
            r(b"f", Some(b"g")),
        ];
        assert_eq!(join(&mut v), vec![r(b"a", Some(b"d")), r(b"f", Some(b"g"))]);
        let mut open = vec![r(b"m", None), r(b"n", Some(b"o")), r(b"a", Some(b"b"))];
        assert_eq!(join(&mut open), vec![r(b"a", Some(b"b")), r(b"m", None)]);
    }
}
