//! Rows over a size: a sample listed a key a cell (as `hbase shell`'s
//! scan prints a row, a line for each of its cells) names the rows with
//! more cells than a bound. HBase splits a table only between rows, so a
//! row that keeps growing is a region that cannot split.

use rowkey_core::hotspot::HotspotReport;
use rowkey_core::KeyDisplay;
use std::collections::BTreeMap;
use std::fmt;

/// How many of the largest rows are shown.
const SHOWN: usize = 10;

/// The rows of a sample listed more than `max` times: (key, count,
/// region), largest first.
pub struct WideRows<'a> {
    max: u64,
    rows: Vec<(&'a [u8], u64, usize)>,
}

impl<'a> WideRows<'a> {
    /// The rows of `keys` (a key a cell) with more than `max` cells.
    pub fn new(keys: &'a [Vec<u8>], report: &HotspotReport, max: u64) -> Self {
        let mut counts: BTreeMap<&[u8], u64> = BTreeMap::new();
        for k in keys {
            *counts.entry(k.as_slice()).or_default() += 1;
        }
        let mut rows: Vec<(&[u8], u64, usize)> = counts
            .into_iter()
            .filter(|&(_, n)| n > max)
            .map(|(k, n)| (k, n, report.region_of(k)))
            .collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        WideRows { max, rows }
    }

    /// How many rows are over the bound.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether no row is over the bound.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

impl fmt::Display for WideRows<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rows.is_empty() {
            return writeln!(f, "no row over {} cells", self.max);
        }
        writeln!(
            f,
            "{} rows over {} cells (a key a line for each cell); HBase splits only between rows:",
            self.rows.len(),
            self.max
        )?;
        for (key, n, region) in self.rows.iter().take(SHOWN) {
            writeln!(f, "  {}  {n} cells, region {region}", KeyDisplay(key))?;
        }
        if self.rows.len() > SHOWN {
            writeln!(f, "  and {} more", self.rows.len() - SHOWN)?;
        }
        Ok(())
    }
}
