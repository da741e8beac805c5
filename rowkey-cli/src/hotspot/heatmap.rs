//! A heatmap of regions over a time field: keys per region and time bin,
//! its colour scale beside it, the causes of the hot regions under it.

use super::axis::TimeAxis;
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
    /// What the axis counts in.
    pub axis: TimeAxis,
}

impl Heat {
    /// Counts `(region, time)` points on `axis` into at most `bins` bins
    /// over their times: fewer if bins of whole units cover them in fewer.
    pub fn new(regions: usize, axis: TimeAxis, points: &[(usize, f64)], bins: usize) -> Heat {
        let bins = bins.max(1);
        let lo = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let hi = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        // The span the values cover: the last one takes its grain too
        // (1 to 10 is ten integers, not nine).
        let grain = match axis {
            TimeAxis::EpochMillis { grain } => grain,
            TimeAxis::Integers => 1.0,
        };
        let (start, span) = if lo.is_finite() {
            (lo, hi - lo + grain)
        } else {
            (0.0, grain)
        };
        let step = whole_step(axis, span / bins as f64);
        let bins = ((span / step - 1e-9).ceil() as usize).clamp(1, bins);
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
            axis,
        }
    }
}

/// A bin widened to what its label names exactly. On a time axis: up to
/// the next whole hour past a day, minute past an hour, second past a
/// minute (times from 00:00 to 06:59:59.9 in 1 bin are 7h, not "6h
/// 59min"), and never finer than the values' grain (a day of dates);
/// of integers, a whole number of values.
fn whole_step(axis: TimeAxis, step: f64) -> f64 {
    let unit = match axis {
        TimeAxis::Integers => 1.0,
        TimeAxis::EpochMillis { grain } => grain.max(match step {
            s if s >= DAY_MS => HOUR_MS,
            s if s >= HOUR_MS => 60_000.0,
            s if s >= 60_000.0 => 1_000.0,
            _ => 1.0,
        }),
    };
    // A step a hair over a whole unit (float error) stays that unit.
    ((step / unit - 1e-9).ceil() * unit).max(unit)
}

const HOUR_MS: f64 = 3_600_000.0;
const DAY_MS: f64 = 86_400_000.0;

/// Shows a time axis value: a UTC time (a date if the values are whole
/// days), or an integer.
fn time_label(axis: TimeAxis, t: f64) -> String {
    if let TimeAxis::EpochMillis { grain } = axis {
        if let Some(d) = chrono::DateTime::from_timestamp_millis(t as i64) {
            let format = if grain >= DAY_MS {
                "%Y-%m-%d"
            } else {
                "%Y-%m-%d %H:%M"
            };
            return d.format(format).to_string();
        }
    }
    format!("{t:.0}")
}

/// What one bin holds, as people say it: `one 7h bin`, `one 25min bin`,
/// `one 2d 3h bin` on a time axis; `600 values of hour` of integers (a
/// field's values have no unit we know: "one 600 hour bin" read as 600
/// hours).
fn bin_width(axis: TimeAxis, step: f64, field: &str) -> String {
    if axis == TimeAxis::Integers {
        return match step {
            s if s <= 1.0 => format!("one value of {field}"),
            s => format!("{} values of {field}", trim_number(s)),
        };
    }
    let s = (step / 1000.0).round() as u64;
    let width = match s {
        0 => format!("{}ms", trim_number(step)),
        1..60 => format!("{s}s"),
        60..3600 => format!("{}min", s / 60),
        3600..86_400 if s % 3600 < 60 => format!("{}h", s / 3600),
        3600..86_400 => format!("{}h {}min", s / 3600, s % 3600 / 60),
        _ if s % 86_400 < 3600 => format!("{}d", s / 86_400),
        _ => format!("{}d {}h", s / 86_400, s % 86_400 / 3600),
    };
    format!("one {width} bin")
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
    let x_desc = match heat.axis {
        TimeAxis::EpochMillis { .. } => format!("{field} (UTC)"),
        TimeAxis::Integers => field.to_string(),
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
        .x_label_formatter(&|x| time_label(heat.axis, heat.start + x * heat.step))
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
        "keys in a cell (one region, {})",
        bin_width(heat.axis, heat.step, field)
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

    const MS: TimeAxis = TimeAxis::EpochMillis { grain: 1.0 };

    #[test]
    fn hotspot_bin_widths_read_as_durations() {
        assert_eq!(bin_width(MS, 7.0 * HOUR_MS, "at"), "one 7h bin");
        assert_eq!(bin_width(MS, 25.0 * 60_000.0, "at"), "one 25min bin");
        assert_eq!(bin_width(MS, 51.0 * HOUR_MS, "at"), "one 2d 3h bin");
        assert_eq!(bin_width(MS, 2.0 * DAY_MS, "at"), "one 2d bin");
        assert_eq!(bin_width(MS, 250.0, "at"), "one 250ms bin");
    }

    /// Issue 48: an integer hour field's bins read "one 600600 hour bin",
    /// 600,600 hours; a bin of integers is a count of values.
    #[test]
    fn bins_of_integers_are_counts_of_values() {
        let ints = TimeAxis::Integers;
        assert_eq!(bin_width(ints, 600_600.0, "hour"), "600600 values of hour");
        assert_eq!(bin_width(ints, 1.0, "hour"), "one value of hour");
        // 0 to 10 is eleven values: four bins of 3 (the last holds 9 and 10).
        let plain = Heat::new(1, ints, &[(0, 0.0), (0, 10.0)], 4);
        assert_eq!(
            (plain.step, plain.counts[0].clone()),
            (3.0, vec![1, 0, 0, 1])
        );
        // Five values in 24 bins: five bins of one value each.
        let few: Vec<_> = (0..5).map(|i| (0, 100.0 + f64::from(i))).collect();
        let heat = Heat::new(1, ints, &few, 24);
        assert_eq!((heat.step, heat.counts[0].clone()), (1.0, vec![1; 5]));
    }

    /// Issue 41: a day of trips in 24 bins read "59min" and "6h 59min";
    /// bins are widened to the duration their label names.
    #[test]
    fn bins_are_whole_durations() {
        let t0 = 1.7e12;
        let points = |last: f64| vec![(0, t0), (0, t0 + last)];
        let last_trip = 7.0 * 7.0 * HOUR_MS - 1_000.0; // 48:59:59
        let heat = Heat::new(1, MS, &points(last_trip), 7);
        assert_eq!(bin_width(heat.axis, heat.step, "started"), "one 7h bin");
        let day = Heat::new(1, MS, &points(24.0 * HOUR_MS - 1.0), 24);
        assert_eq!(bin_width(day.axis, day.step, "started"), "one 1h bin");
        assert_eq!(day.counts[0].iter().sum::<usize>(), 2);
    }

    /// Dates are binned in whole days: thirty days in 24 bins are 15 bins
    /// of two days, not 24 of 30 hours (every other one holding two dates).
    #[test]
    fn bins_of_dates_are_whole_days() {
        let days = TimeAxis::EpochMillis { grain: DAY_MS };
        let month: Vec<_> = (0..30)
            .map(|d| (0, 1.7e12 + f64::from(d) * DAY_MS))
            .collect();
        let heat = Heat::new(1, days, &month, 24);
        assert_eq!(bin_width(heat.axis, heat.step, "day"), "one 2d bin");
        assert_eq!(heat.counts[0], vec![2; 15]);
        assert_eq!(time_label(days, 1.7e12), "2023-11-14");
    }
}
