//! [`HotspotReport`]: how a sample of keys falls over a table's regions,
//! to see a hot region before production does; [`HotspotCauses`]: the
//! field values that fill each hot region, to see why.

mod causes;
mod region_values;
mod top_values;

pub use causes::{percent, Cause, CauseValue, CAUSE_SHARE};
pub use region_values::{HotspotCauses, RegionValues};
pub use top_values::{Counted, TopValues, TRACKED_VALUES};

use crate::split::SplitKeys;
use crate::KeyDisplay;
use core::fmt;

/// A region is hot when it holds more than this many times the mean keys
/// a region: the picture draws it red and [`HotspotCauses`] names its
/// values.
pub const HOT_FACTOR: f64 = 1.5;

/// Rows per region for a sample of keys and given split keys.
///
/// ```
/// use rowkey::{hotspot::HotspotReport, split::SplitKeys};
/// let splits = SplitKeys::new([b"1".to_vec(), b"2".to_vec()]);
/// let keys = ["0a", "0b", "1a", "2a"];
/// let r = HotspotReport::new(&splits, keys.iter().map(|k| k.as_bytes()));
/// assert_eq!(r.counts(), [2, 1, 1]);
/// assert_eq!(r.max(), 2);
/// assert!((r.skew() - 1.5).abs() < 1e-9); // max / mean
/// // Hot is over 1.5 times the mean: 2 rows is not over 2.0.
/// assert!((r.hot_threshold() - 2.0).abs() < 1e-9);
/// assert!(r.hot_regions().is_empty());
/// assert_eq!(r.start_label(1), "1");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct HotspotReport {
    splits: SplitKeys,
    counts: Vec<usize>,
}

impl HotspotReport {
    /// Counts `keys` per region of `splits`.
    pub fn new<K: AsRef<[u8]>>(splits: &SplitKeys, keys: impl IntoIterator<Item = K>) -> Self {
        let mut counts = vec![0; splits.len() + 1];
        for k in keys {
            counts[splits.region_of(k.as_ref())] += 1;
        }
        HotspotReport {
            splits: splits.clone(),
            counts,
        }
    }

    /// The split keys the regions are cut at.
    pub fn splits(&self) -> &SplitKeys {
        &self.splits
    }

    /// The region `key` falls in.
    pub fn region_of(&self, key: &[u8]) -> usize {
        self.splits.region_of(key)
    }

    /// A region as the table names it: its start key as
    /// `toStringBinary`, `(start)` for the first.
    pub fn start_label(&self, region: usize) -> String {
        match region.checked_sub(1) {
            None => "(start)".to_string(),
            Some(i) => self
                .splits
                .keys()
                .get(i)
                .map_or_else(String::new, |k| KeyDisplay(k).to_string()),
        }
    }

    /// The rows a region must exceed to be hot: [`HOT_FACTOR`] times the
    /// mean.
    pub fn hot_threshold(&self) -> f64 {
        self.mean() * HOT_FACTOR
    }

    /// Whether `region` holds more than [`hot_threshold`](Self::hot_threshold)
    /// rows.
    pub fn is_hot(&self, region: usize) -> bool {
        self.counts
            .get(region)
            .is_some_and(|&n| n as f64 > self.hot_threshold())
    }

    /// The hot regions, in key order.
    pub fn hot_regions(&self) -> Vec<usize> {
        (0..self.counts.len()).filter(|&i| self.is_hot(i)).collect()
    }

    /// Rows per region, in key order.
    pub fn counts(&self) -> &[usize] {
        &self.counts
    }

    /// Rows in the sample.
    pub fn total(&self) -> usize {
        self.counts.iter().sum()
    }

    /// Rows in the fullest region.
    pub fn max(&self) -> usize {
        self.counts.iter().copied().max().unwrap_or(0)
    }

    /// Mean rows per region.
    pub fn mean(&self) -> f64 {
        self.total() as f64 / self.counts.len() as f64
    }

    /// `max / mean`: 1.0 is perfectly even; the region count means every
    /// row is in one region.
    pub fn skew(&self) -> f64 {
        if self.total() == 0 {
            return 1.0;
        }
        self.max() as f64 / self.mean()
    }
}

/// One line per region: its start key, the row count and a bar.
impl fmt::Display for HotspotReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const BAR: usize = 40;
        let max = self.max().max(1);
        writeln!(
            f,
            "{} rows over {} regions: max {} (skew {:.2}x the mean {:.1})",
            self.total(),
            self.counts.len(),
            self.max(),
            self.skew(),
            self.mean()
        )?;
        for (i, &n) in self.counts.iter().enumerate() {
            let start = self.start_label(i);
            let bar = "#".repeat((n * BAR).div_ceil(max).min(BAR));
            writeln!(f, "  {start:>12} {n:>8} {bar}")?;
        }
        Ok(())
    }
}
