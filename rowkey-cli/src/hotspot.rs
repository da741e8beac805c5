//! A sample of keys over a table's regions: the keys file read with a
//! progress bar, and the picture (bars of keys per region, or a heatmap of
//! regions over a time field) drawn with plotters' SVG backend.

use crate::keytext;
use indicatif::{ProgressBar, ProgressStyle};
use plotters::prelude::*;
use rowkey_core::hotspot::HotspotReport;
use rowkey_core::KeyDisplay;
use std::io::{BufRead, BufReader, IsTerminal};
use std::path::Path;

/// The fill of a region's bar.
pub const BAR: RGBColor = RGBColor(0x4C, 0x78, 0xA8);
/// The fill of a hot region's bar (over 1.5 times the mean).
pub const HOT_BAR: RGBColor = RGBColor(0xE4, 0x57, 0x56);

/// Reads keys, one a line (`toStringBinary`, or hex when `hex`), from the
/// file at `path`; blank lines are skipped. A progress bar runs on stderr
/// when it is a terminal.
pub fn read_keys(path: &Path, hex: bool) -> Result<Vec<Vec<u8>>, String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(len)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("loading keys {wide_bar} {bytes}/{total_bytes} {msg}")
            .map_err(|e| e.to_string())?,
    );
    let mut keys = Vec::new();
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        bar.inc(line.len() as u64 + 1);
        let text = line.trim_end_matches('\r');
        if text.trim().is_empty() {
            continue;
        }
        let key = if hex {
            keytext::parse_hex(text)
        } else {
            keytext::parse_binary(text)
        };
        keys.push(key.map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))?);
        if keys.len() % 4096 == 0 {
            bar.set_message(format!("{} keys", keys.len()));
        }
    }
    bar.finish_and_clear();
    Ok(keys)
}

fn plot_err(e: impl std::fmt::Display) -> String {
    format!("cannot draw the picture: {e}")
}

/// A region's label: its start key as `toStringBinary`, cut to `max`
/// characters.
fn region_label(i: usize, splits: &[Vec<u8>], max: usize) -> String {
    let full = match i {
        0 => "(start)".to_string(),
        _ => splits
            .get(i - 1)
            .map_or_else(String::new, |k| KeyDisplay(k).to_string()),
    };
    if full.chars().count() <= max {
        full
    } else {
        let cut: String = full.chars().take(max.saturating_sub(1)).collect();
        format!("{cut}…")
    }
}

/// Bars of keys per region: one bar per region, in key order, the hot
/// ones (over 1.5 times the mean) in red, labelled with start keys.
pub fn draw_bars(
    report: &HotspotReport,
    splits: &[Vec<u8>],
    title: &str,
    out: &Path,
) -> Result<(), String> {
    let counts = report.counts();
    let regions = counts.len() as u32;
    let top = report.max().max(1) as f64 * 1.1;
    let root = SVGBackend::new(out, (960, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(56)
        .y_label_area_size(64)
        .build_cartesian_2d(
            (0..regions.saturating_sub(1).max(1)).into_segmented(),
            0f64..top,
        )
        .map_err(plot_err)?;
    // About 7 pixels a character: label every n-th region so they fit.
    let label_chars = 14;
    let every = ((regions as usize * label_chars * 7).div_ceil(860)).max(1);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("region, by start key")
        .y_desc("keys")
        .x_labels(regions as usize)
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) if (*i as usize) % every == 0 => {
                region_label(*i as usize, splits, label_chars)
            }
            _ => String::new(),
        })
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(plot_err)?;
    let hot = report.mean() * 1.5;
    chart
        .draw_series(counts.iter().enumerate().map(|(i, &n)| {
            let color = if n as f64 > hot { HOT_BAR } else { BAR };
            let i = i as u32;
            let mut bar = Rectangle::new(
                [
                    (SegmentValue::Exact(i), 0.0),
                    (SegmentValue::Exact(i + 1), n as f64),
                ],
                color.filled(),
            );
            bar.set_margin(0, 0, 3, 3);
            bar
        }))
        .map_err(plot_err)?;
    root.present().map_err(plot_err)?;
    Ok(())
}

/// Keys per region and time bin.
#[derive(Debug, Clone, PartialEq)]
pub struct Heat {
    /// `counts[region][bin]`.
    pub counts: Vec<Vec<usize>>,
    /// The first time of the axis.
    pub start: f64,
    /// The width of a bin.
    pub step: f64,
}

impl Heat {
    /// Counts `(region, time)` points into `bins` bins over their times.
    pub fn new(regions: usize, points: &[(usize, f64)], bins: usize) -> Heat {
        let bins = bins.max(1);
        let lo = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let hi = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        let (start, span) = if lo.is_finite() {
            (lo, (hi - lo).max(1.0))
        } else {
            (0.0, 1.0)
        };
        let step = span / bins as f64;
        let mut counts = vec![vec![0; bins]; regions];
        for &(region, t) in points {
            let bin = (((t - start) / step) as usize).min(bins - 1);
            counts[region][bin] += 1;
        }
        Heat {
            counts,
            start,
            step,
        }
    }
}

/// Shows a time axis value: epoch milliseconds as a UTC time, others as
/// numbers.
fn time_label(t: f64) -> String {
    if (1e11..1e14).contains(&t) {
        if let Some(d) = chrono::DateTime::from_timestamp_millis(t as i64) {
            return d.format("%Y-%m-%d %H:%M").to_string();
        }
    }
    format!("{t:.0}")
}

/// A heatmap: regions up the side (first region at the bottom), time bins
/// across, darker for more keys.
pub fn draw_heatmap(
    heat: &Heat,
    splits: &[Vec<u8>],
    title: &str,
    field: &str,
    out: &Path,
) -> Result<(), String> {
    let regions = heat.counts.len() as u32;
    let bins = heat.counts.first().map_or(1, Vec::len);
    let max = heat
        .counts
        .iter()
        .flatten()
        .copied()
        .max()
        .unwrap_or(0)
        .max(1);
    let root = SVGBackend::new(out, (960, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(130)
        .build_cartesian_2d(
            0f64..bins as f64,
            (0..regions.saturating_sub(1).max(1)).into_segmented(),
        )
        .map_err(plot_err)?;
    // About 16 pixels a label: label every n-th region so they fit.
    let every = ((regions as usize * 16).div_ceil(440)).max(1);
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(field)
        .y_desc("region, by start key")
        .x_labels(6)
        .y_labels(regions as usize)
        .x_label_formatter(&|x| time_label(heat.start + x * heat.step))
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) if (*i as usize) % every == 0 => {
                region_label(*i as usize, splits, 16)
            }
            _ => String::new(),
        })
        .draw()
        .map_err(plot_err)?;
    chart
        .draw_series(heat.counts.iter().enumerate().flat_map(|(r, row)| {
            row.iter().enumerate().map(move |(b, &n)| {
                // From near white (no keys) to dark blue (the most).
                let t = n as f64 / max as f64;
                let mix =
                    |lo: u8, hi: u8| (f64::from(hi) + t * (f64::from(lo) - f64::from(hi))) as u8;
                let c = RGBColor(mix(0x08, 0xF7), mix(0x30, 0xFB), mix(0x6B, 0xFF));
                let (x, r) = (b as f64, r as u32);
                Rectangle::new(
                    [
                        (x, SegmentValue::Exact(r)),
                        (x + 1.0, SegmentValue::Exact(r + 1)),
                    ],
                    c.filled(),
                )
            })
        }))
        .map_err(plot_err)?;
    root.present().map_err(plot_err)?;
    Ok(())
}
