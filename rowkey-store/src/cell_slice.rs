//! [`CellSlice`]: which cells of each row a read returns, by qualifier:
//! the cells of one family whose qualifiers fall in ranges, at most so
//! many per row. What a wide row (one cell per point, the qualifier
//! holding data) is read through, so that the servers send only the slice.

use crate::request::successor;
use crate::KeyRange;
use core::fmt;
use rowkey_core::scan::ScanPlan;

/// The cells of one family whose qualifiers fall in sorted, disjoint
/// ranges (a [`KeyRange`] over qualifiers), the first
/// [`per_row`](Self::per_row) of them in qualifier order from each row.
///
/// A read with a slice ([`ReadRequest::with_cells`](crate::ReadRequest::with_cells))
/// returns only those cells of each row, and no row that has none, as a
/// read restricted to [`Columns`](crate::Columns) does; with both, only
/// the cells in both. Each store sends what its servers can filter:
/// HBase's `ColumnRangeFilter` and per-family limit, Bigtable's
/// `ColumnRangeFilter` and `CellsPerRowLimitFilter`; the rest is done on
/// the client ([`describe`](Self::describe) says what).
///
/// ```
/// use rowkey::store::{CellSlice, KeyRange};
/// let s = CellSlice::family("t")
///     .between(b"\x00\x10".to_vec(), Some(b"\x00\x30".to_vec()))
///     .per_row(2);
/// assert!(s.contains("t", b"\x00\x10") && !s.contains("t", b"\x00\x30"));
/// assert!(!s.contains("d", b"\x00\x10"));
/// assert_eq!(format!("{s:?}"), r"t:[\x00\x10, \x000), first 2 a row");
/// // Resuming after the last qualifier read: the rest of the slice.
/// let rest = s.after(b"\x00\x20");
/// assert!(!rest.contains("t", b"\x00\x20") && rest.contains("t", b"\x00\x21"));
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct CellSlice {
    family: String,
    /// Sorted, disjoint and non-empty; `[KeyRange::default()]` (from the
    /// empty qualifier to the end) for every qualifier.
    ranges: Vec<KeyRange>,
    per_row: Option<u32>,
}

impl CellSlice {
    /// Every cell of `family`.
    pub fn family(family: impl Into<String>) -> Self {
        CellSlice {
            family: family.into(),
            ranges: vec![KeyRange::default()],
            per_row: None,
        }
    }

    /// Only the qualifiers from `start` (inclusive) to `stop` (exclusive;
    /// `None`: no end) among those the slice holds.
    pub fn between(self, start: Vec<u8>, stop: Option<Vec<u8>>) -> Self {
        self.intersect(&[KeyRange::new(start, stop)])
    }

    /// Only the qualifiers that start with `prefix`.
    pub fn prefix(self, prefix: &[u8]) -> Self {
        let stop = prefix_stop(prefix);
        self.between(prefix.to_vec(), stop)
    }

    /// Only the qualifiers in one of `ranges`.
    pub fn ranges(self, ranges: impl IntoIterator<Item = KeyRange>) -> Self {
        let ranges = crate::request::normalise(ranges.into_iter().collect());
        self.intersect(&ranges)
    }

    /// Only the qualifiers a plan over a qualifier type selects (its
    /// ranges; a plan's fuzzy key and limit are not a slice's and are
    /// refused, as is a reversed plan: HBase and Bigtable return a row's
    /// cells in qualifier order only).
    ///
    /// # Errors
    /// The plan is reversed, has a fuzzy key or a limit: the error says
    /// which.
    pub fn plan<const N: usize>(self, plan: &ScanPlan<N>) -> Result<Self, &'static str> {
        if plan.is_reversed() {
            return Err("a row's cells come in qualifier order only: read the slice forwards and take the last cells (`CellSlice::per_row` counts from the first)");
        }
        if plan.fuzzy().is_some() {
            return Err("a qualifier plan with a fuzzy key: a slice takes ranges of qualifiers only (fix the free fields, or filter the cells read)");
        }
        if plan.limit().is_some() {
            return Err("a qualifier plan with a limit: set the cells a row gives with `CellSlice::per_row`");
        }
        Ok(self.ranges(plan.ranges().map(KeyRange::from)))
    }

    /// At most the first `n` cells of each row (in qualifier order).
    pub fn per_row(mut self, n: u32) -> Self {
        self.per_row = Some(self.per_row.map_or(n, |m| m.min(n)));
        self
    }

    /// The family.
    pub fn family_name(&self) -> &str {
        &self.family
    }

    /// The qualifier ranges: sorted, disjoint, non-empty (none: no cell).
    pub fn qualifier_ranges(&self) -> &[KeyRange] {
        &self.ranges
    }

    /// The most cells a row gives, if capped.
    pub fn row_limit(&self) -> Option<u32> {
        self.per_row
    }

    /// Whether every qualifier of the family is in the slice.
    pub fn is_whole_family(&self) -> bool {
        self.ranges == [KeyRange::default()]
    }

    /// Whether no cell can be in the slice.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty() || self.per_row == Some(0)
    }

    /// Whether `family:qualifier` is in the slice's ranges (the per-row
    /// cap aside).
    pub fn contains(&self, family: &str, qualifier: &[u8]) -> bool {
        family == self.family && self.ranges.iter().any(|r| r.contains(qualifier))
    }

    /// The slice's qualifiers strictly after `qualifier`, with the same
    /// per-row cap: where a read of one row's cells goes on.
    pub fn after(&self, qualifier: &[u8]) -> Self {
        let mut rest = self.clone();
        rest.ranges = self.intersect_ranges(&[KeyRange::new(successor(qualifier), None)]);
        rest
    }

    /// What a read of the slice asks the servers, for `explain` and
    /// errors: `family:[start, stop)..., first n a row`.
    pub fn describe(&self) -> String {
        format!("{self:?}")
    }

    fn intersect(mut self, other: &[KeyRange]) -> Self {
        self.ranges = self.intersect_ranges(other);
        self
    }

    /// The qualifiers in both this slice's ranges and `other` (sorted and
    /// disjoint).
    fn intersect_ranges(&self, other: &[KeyRange]) -> Vec<KeyRange> {
        let mut out = Vec::new();
        for a in &self.ranges {
            for b in other {
                let start = a.start.clone().max(b.start.clone());
                let stop = match (&a.stop, &b.stop) {
                    (Some(x), Some(y)) => Some(x.min(y).clone()),
                    (Some(x), None) | (None, Some(x)) => Some(x.clone()),
                    (None, None) => None,
                };
                let r = KeyRange::new(start, stop);
                if !r.is_empty() {
                    out.push(r);
                }
            }
        }
        crate::request::normalise(out)
    }
}

/// The first qualifier after every one that starts with `prefix`; `None`
/// when there is none (an empty prefix or one of `0xFF` bytes only).
pub(crate) fn prefix_stop(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut stop = prefix.to_vec();
    while let Some(last) = stop.pop() {
        if last < 0xFF {
            stop.push(last + 1);
            return Some(stop);
        }
    }
    None
}

impl fmt::Debug for CellSlice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.family)?;
        if self.ranges.is_empty() {
            f.write_str("(none)")?;
        }
        for (i, r) in self.ranges.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            if *r == KeyRange::default() {
                f.write_str("*")?;
            } else {
                write!(f, "{r:?}")?;
            }
        }
        if let Some(n) = self.per_row {
            write!(f, ", first {n} a row")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn qualifier() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(prop_oneof![Just(0u8), Just(0xFF), any::<u8>()], 0..3)
    }

    fn range() -> impl Strategy<Value = KeyRange> {
        (qualifier(), proptest::option::of(qualifier())).prop_map(|(s, e)| KeyRange::new(s, e))
    }

    proptest! {
        /// A slice built from ranges, a prefix and a resume point holds
        /// exactly the qualifiers each step says.
        #[test]
        fn slices_hold_exactly_their_qualifiers(
            first in proptest::collection::vec(range(), 0..4),
            second in range(),
            prefix in qualifier(),
            after in qualifier(),
            probes in proptest::collection::vec(qualifier(), 0..32),
        ) {
            let s = CellSlice::family("t")
                .ranges(first.clone())
                .between(second.start.clone(), second.stop.clone());
            let p = s.clone().prefix(&prefix);
            let rest = p.after(&after);
            for w in rest.qualifier_ranges().windows(2) {
                prop_assert!(w[0].stop.as_ref().is_some_and(|s| *s < w[1].start));
            }
            for q in probes {
                let in_s = first.iter().any(|r| r.contains(&q)) && second.contains(&q);
                prop_assert_eq!(s.contains("t", &q), in_s);
                prop_assert_eq!(p.contains("t", &q), in_s && q.starts_with(&prefix));
                prop_assert_eq!(rest.contains("t", &q), in_s && q.starts_with(&prefix) && q > after);
                prop_assert!(!rest.contains("u", &q));
            }
        }
    }

    #[test]
    fn prefixes_of_ff_bytes_run_to_the_end() {
        assert_eq!(prefix_stop(b"a\xFF"), Some(b"b".to_vec()));
        assert_eq!(prefix_stop(b"\xFF\xFF"), None);
        assert_eq!(prefix_stop(b""), None);
        assert!(CellSlice::family("t").is_whole_family());
        assert!(CellSlice::family("t").prefix(b"").is_whole_family());
        assert!(CellSlice::family("t").per_row(0).is_empty());
        assert_eq!(
            CellSlice::family("t").per_row(5).per_row(9).row_limit(),
            Some(5)
        );
    }
}
