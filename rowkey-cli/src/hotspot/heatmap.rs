//! A heatmap of regions over a time field: keys per region and time bin,
//! its colour scale beside it, the causes of the hot regions under it.

use super::notes::{Notes, INSET};
use super::{
    check_drawable, font, plot_err, region_label, text_width, LABEL_PITCH, LABEL_PX, TEXT_PX,
    TITLE_PX,
};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use rowkey_core::hotspot::{HotspotCauses, HotspotReport};
use std::path::Path;

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
        let step = whole_step(start, span / bins as f64);
        let mut counts = vec![vec![0; bins]; regions];
        for &(region, t) in points {
            let bin = (((t - start) / step) as usize).min(bins - 1);
            if let Some(row) = counts.get_mut(region) {
                row[bin] += 1;
            }
        }
        Heat {
            counts,
            start,
            step,
        }
    }
}

/// A bin of epoch milliseconds widened to what its label names exactly:
/// up to the next whole hour past a day, minute past an hour, second past
/// a minute (times from 00:00 to 06:59:59.9 in 1 bin are 7h, not "6h
/// 59min"); other axes as they are.
fn whole_step(start: f64, step: f64) -> f64 {
    if !is_epoch_ms(start) {
        return step;
    }
    let unit = match step {
        s if s >= 86_400_000.0 => 3_600_000.0,
        s if s >= 3_600_000.0 => 60_000.0,
        s if s >= 60_000.0 => 1_000.0,
        _ => 1.0,
    };
    // A step a hair over a whole unit (float error) stays that unit.
    ((step / unit - 1e-9).ceil() * unit).max(unit)
}

/// Whether axis values are epoch milliseconds (1973 to 5138).
fn is_epoch_ms(t: f64) -> bool {
    (1e11..1e14).contains(&t)
}

/// Shows a time axis value: epoch milliseconds as a UTC time, others as
/// numbers.
fn time_label(t: f64) -> String {
    if is_epoch_ms(t) {
        if let Some(d) = chrono::DateTime::from_timestamp_millis(t as i64) {
            return d.format("%Y-%m-%d %H:%M").to_string();
        }
    }
    format!("{t:.0}")
}

/// A bin's width as people say it: `7h`, `25min`, `2d 3h` for epoch
/// milliseconds, else the number and the field's name (its units).
fn bin_width(start: f64, step: f64, field: &str) -> String {
    if !is_epoch_ms(start) {
        return format!("{} {field}", trim_number(step));
    }
    let s = (step / 1000.0).round() as u64;
    match s {
        0 => format!("{}ms", trim_number(step)),
        1..60 => format!("{s}s"),
        60..3600 => format!("{}min", s / 60),
        3600..86_400 if s % 3600 < 60 => format!("{}h", s / 3600),
        3600..86_400 => format!("{}h {}min", s / 3600, s % 3600 / 60),
        _ if s % 86_400 < 3600 => format!("{}d", s / 86_400),
        _ => format!("{}d {}h", s / 86_400, s % 86_400 / 3600),
    }
}

fn trim_number(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The width of the colour scale beside the heatmap.
const SCALE_WIDTH: u32 = 130;
/// Pixels under the plot: its time labels and the field's name.
const X_LABEL_AREA: u32 = 56;

/// A heatmap: regions up the side (first region at the bottom), time bins
/// across, darker for more keys, the colour scale beside it in keys a
/// cell and, under it, the field values that fill each hot region.
pub fn draw_heatmap(
    heat: &Heat,
    report: &HotspotReport,
    causes: &HotspotCauses,
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
    let labels: Vec<String> = (0..regions as usize)
        .map(|i| region_label(report, i, 16))
        .collect();
    let y_label_area = labels
        .iter()
        .map(|l| text_width(l, LABEL_PX))
        .max()
        .unwrap_or(0)
        + 16
        + (TEXT_PX * 2.0) as u32;
    let width = 960 + SCALE_WIDTH;
    let notes = Notes::new(report, causes, width);
    let title_height = (TITLE_PX * 2.0) as u32;
    let chart_height = (160 + regions * LABEL_PITCH).max(540);
    let height = title_height + chart_height + notes.height();

    let root = SVGBackend::new(out, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_err)?;
    let (title_area, rest) = root.split_vertically(title_height);
    title_area
        .draw_text(
            title,
            &font(TITLE_PX).pos(Pos::new(HPos::Center, VPos::Center)),
            ((width / 2) as i32, (title_height / 2) as i32),
        )
        .map_err(plot_err)?;
    let (chart_area, notes_area) = rest.split_vertically(chart_height);
    let (area, scale_area) = chart_area.split_horizontally(960);
    let mut chart = ChartBuilder::on(&area)
        .margin(INSET)
        .x_label_area_size(X_LABEL_AREA)
        .y_label_area_size(y_label_area)
        .build_cartesian_2d(
            0f64..bins as f64,
            (0..regions.saturating_sub(1).max(1)).into_segmented(),
        )
        .map_err(plot_err)?;
    let x_desc = match is_epoch_ms(heat.start) {
        true => format!("{field} (UTC)"),
        false => field.to_string(),
    };
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(x_desc)
        .y_desc("region, by start key")
        .axis_desc_style(font(TEXT_PX))
        .label_style(font(LABEL_PX))
        .x_labels(6)
        .y_labels(regions as usize)
        .x_label_formatter(&|x| time_label(heat.start + x * heat.step))
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => labels.get(*i as usize).cloned().unwrap_or_default(),
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
    let scale_name = format!(
        "keys in a cell (one region, one {} bin)",
        bin_width(heat.start, heat.step, field)
    );
    draw_scale(&scale_area, max, &scale_name)?;
    notes.draw(&notes_area)?;
    root.present().map_err(plot_err)?;
    Ok(())
}

/// The heatmap's colour scale: a column of the colours from no keys at
/// the bottom to `max` keys a cell at the top, with its counts and its
/// name (`keys in a cell (one region, one 7h bin)`) at the size of the plot's.
fn draw_scale(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    max: usize,
    name: &str,
) -> Result<(), String> {
    // The column spans the plot's height: the same margins above and
    // below as the plot and its time labels.
    let mut scale = ChartBuilder::on(area)
        .margin_top(INSET)
        .margin_bottom(INSET + X_LABEL_AREA)
        .margin_right(INSET)
        .y_label_area_size(text_width(&max.to_string(), LABEL_PX) + 16 + (TEXT_PX * 2.0) as u32)
        .build_cartesian_2d(0f64..1.0, 0f64..max as f64)
        .map_err(plot_err)?;
    scale
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .y_desc(name)
        .axis_desc_style(font(TEXT_PX))
        .y_label_style(font(LABEL_PX))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hotspot_bin_widths_read_as_durations() {
        let ms = 1.7e12;
        assert_eq!(bin_width(ms, 7.0 * 3_600_000.0, "at"), "7h");
        assert_eq!(bin_width(ms, 25.0 * 60_000.0, "at"), "25min");
        assert_eq!(bin_width(ms, 51.0 * 3_600_000.0, "at"), "2d 3h");
        assert_eq!(bin_width(ms, 2.0 * 86_400_000.0, "at"), "2d");
        assert_eq!(bin_width(ms, 250.0, "at"), "250ms");
        assert_eq!(bin_width(20_000.0, 1.5, "day"), "1.5 day");
    }

    /// Issue 41: a day of trips in 24 bins read "59min" and "6h 59min";
    /// bins are widened to the duration their label names.
    #[test]
    fn bins_are_whole_durations() {
        let t0 = 1.7e12;
        let points = |last: f64| vec![(0, t0), (0, t0 + last)];
        let last_trip = 7.0 * 7.0 * 3_600_000.0 - 1_000.0; // 48:59:59
        let heat = Heat::new(1, &points(last_trip), 7);
        assert_eq!(bin_width(heat.start, heat.step, "started"), "7h");
        let day = Heat::new(1, &points(24.0 * 3_600_000.0 - 1.0), 24);
        assert_eq!(bin_width(day.start, day.step, "started"), "1h");
        assert_eq!(day.counts[0].iter().sum::<usize>(), 2);
        // Not epoch milliseconds: the step as it is.
        let plain = Heat::new(1, &[(0, 0.0), (0, 10.0)], 4);
        assert_eq!(plain.step, 2.5);
    }
}
