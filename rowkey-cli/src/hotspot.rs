//! A sample of keys over a table's regions, drawn with plotters' SVG
//! backend: bars of keys per region (every region labelled, the mean
//! marked), or a heatmap of regions over a time field with its colour
//! scale.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use rowkey_core::hotspot::HotspotReport;
use rowkey_core::KeyDisplay;
use std::path::Path;

/// The most regions a picture draws: one label each must stay legible.
pub const MAX_DRAWN_REGIONS: usize = 4096;
/// The colour of the mean line.
pub const MEAN_LINE: RGBColor = RGBColor(0x33, 0x33, 0x33);

/// The fill of a region's bar.
pub const BAR: RGBColor = RGBColor(0x4C, 0x78, 0xA8);
/// The fill of a hot region's bar (over 1.5 times the mean).
pub const HOT_BAR: RGBColor = RGBColor(0xE4, 0x57, 0x56);

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

fn check_drawable(regions: usize) -> Result<(), String> {
    if regions > MAX_DRAWN_REGIONS {
        return Err(format!(
            "{regions} regions are more than a picture can label ({MAX_DRAWN_REGIONS}): \
             the table above has every count"
        ));
    }
    Ok(())
}

/// Pixels a region's label takes across, written up the page.
const LABEL_PITCH: u32 = 16;
/// Characters of a start key a label shows.
const LABEL_CHARS: usize = 14;

/// Bars of keys per region: one bar per region, in key order, the hot
/// ones (over 1.5 times the mean) in red, every bar labelled with its
/// region's start key (written upwards, the picture as wide as they
/// need), and a dashed line at the mean.
pub fn draw_bars(
    report: &HotspotReport,
    splits: &[Vec<u8>],
    title: &str,
    out: &Path,
) -> Result<(), String> {
    let counts = report.counts();
    check_drawable(counts.len())?;
    let regions = counts.len() as u32;
    let top = report.max().max(1) as f64 * 1.1;
    let width = (160 + regions * LABEL_PITCH).max(960);
    let root = SVGBackend::new(out, (width, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(120)
        .y_label_area_size(64)
        .build_cartesian_2d(
            (0..regions.saturating_sub(1).max(1)).into_segmented(),
            0f64..top,
        )
        .map_err(plot_err)?;
    let upwards = TextStyle::from(
        ("sans-serif", 12)
            .into_font()
            .transform(FontTransform::Rotate270),
    )
    .pos(Pos::new(HPos::Right, VPos::Center));
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("region, by start key")
        .y_desc("keys")
        .x_labels(regions as usize + 1)
        .x_label_style(upwards)
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => region_label(*i as usize, splits, LABEL_CHARS),
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
    let mean = report.mean();
    chart
        .draw_series(std::iter::once(PathElement::new(
            [
                (SegmentValue::Exact(0), mean),
                (SegmentValue::Exact(regions), mean),
            ],
            MEAN_LINE.stroke_width(2),
        )))
        .map_err(plot_err)?
        .label(format!("mean {mean:.1} keys a region"))
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], MEAN_LINE.stroke_width(2)));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(plot_err)?;
    root.present().map_err(plot_err)?;
    Ok(())
}

/// The colour of a heatmap cell holding `t` of the most keys any cell
/// holds (0..=1): near white for none, dark blue for the most.
pub fn heat_color(t: f64) -> RGBColor {
    let t = t.clamp(0.0, 1.0);
    let mix = |lo: u8, hi: u8| (f64::from(hi) + t * (f64::from(lo) - f64::from(hi))) as u8;
    RGBColor(mix(0x08, 0xF7), mix(0x30, 0xFB), mix(0x6B, 0xFF))
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
    check_drawable(regions as usize)?;
    let height = (160 + regions * LABEL_PITCH).max(540);
    let root = SVGBackend::new(out, (1060, height)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_err)?;
    let root = root.titled(title, ("sans-serif", 22)).map_err(plot_err)?;
    let (area, scale_area) = root.split_horizontally(960);
    let mut chart = ChartBuilder::on(&area)
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(130)
        .build_cartesian_2d(
            0f64..bins as f64,
            (0..regions.saturating_sub(1).max(1)).into_segmented(),
        )
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(field)
        .y_desc("region, by start key")
        .x_labels(6)
        .y_labels(regions as usize)
        .x_label_formatter(&|x| time_label(heat.start + x * heat.step))
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => region_label(*i as usize, splits, 16),
            _ => String::new(),
        })
        .draw()
        .map_err(plot_err)?;
    chart
        .draw_series(heat.counts.iter().enumerate().flat_map(|(r, row)| {
            row.iter().enumerate().map(move |(b, &n)| {
                let c = heat_color(n as f64 / max as f64);
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
    draw_scale(&scale_area, max)?;
    root.present().map_err(plot_err)?;
    Ok(())
}

/// The heatmap's colour scale: a column of the colours from no keys at
/// the bottom to `max` keys a cell at the top, with its counts.
fn draw_scale(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    max: usize,
) -> Result<(), String> {
    let mut scale = ChartBuilder::on(area)
        .margin_top(16)
        .margin_bottom(64)
        .margin_right(8)
        .y_label_area_size(48)
        .build_cartesian_2d(0f64..1.0, 0f64..max as f64)
        .map_err(plot_err)?;
    scale
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .y_desc("keys a cell")
        .y_labels(6)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(plot_err)?;
    let steps = 64;
    scale
        .draw_series((0..steps).map(|i| {
            let lo = max as f64 * i as f64 / steps as f64;
            let hi = max as f64 * (i + 1) as f64 / steps as f64;
            let t = (i as f64 + 0.5) / steps as f64;
            Rectangle::new([(0.0, lo), (1.0, hi)], heat_color(t).filled())
        }))
        .map_err(plot_err)?;
    Ok(())
}
