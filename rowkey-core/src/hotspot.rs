//! [`HotspotReport`]: how a sample of keys falls over a table's regions,
//! to see a hot region before production does.

use crate::split::SplitKeys;
use crate::KeyDisplay;
use core::fmt;

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
            let start = match i {
                0 => "(start)".to_string(),
                _ => KeyDisplay(&self.splits.keys()[i - 1]).to_string(),
            };
            let bar = "#".repeat((n * BAR).div_ceil(max).min(BAR));
            writeln!(f, "  {start:>12} {n:>8} {bar}")?;
        }
        Ok(())
    }
}
