//! Bars of keys per region, the hot ones red, with the legend above the
//! plot and the causes of the hot regions under it.

use super::notes::{draw_legend, Key, Notes, INSET};
use super::{
    check_drawable, font, plot_err, region_label, text_width, BAR, HOT_BAR, LABEL_CHARS,
    LABEL_PITCH, LABEL_PX, MEAN_LINE, TEXT_PX, TITLE_PX,
};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use rowkey_core::hotspot::{HotspotCauses, HotspotReport, HOT_FACTOR};
use std::path::Path;

/// The plot's own height, between the legend and the region labels.
const PLOT_HEIGHT: u32 = 400;
/// The row the legend takes over the plot.
const LEGEND_HEIGHT: u32 = 32;
/// Pixels between the axis and a region label.
const LABEL_GAP: u32 = 8;
/// Pixels of the y axis's labels and its name.
const Y_LABEL_AREA: u32 = 80;

/// Bars of keys per region: one bar per region, in key order, the hot
/// ones (over [`HOT_FACTOR`] times the mean) in red, every bar labelled
/// with its region's start key (written upwards, the picture as wide as
/// they need), a line at the mean, the legend above the plot (where no
/// bar reaches) and, under it, the field values that fill each hot
/// region.
pub fn draw_bars(
    report: &HotspotReport,
    causes: &HotspotCauses,
    title: &str,
    out: &Path,
) -> Result<(), String> {
    let counts = report.counts();
    check_drawable(counts.len())?;
    let regions = counts.len() as u32;
    let width = (160 + regions * LABEL_PITCH).max(960);
    let labels: Vec<String> = (0..counts.len())
        .map(|i| region_label(report, i, LABEL_CHARS))
        .collect();
    // Room under the axis for the longest label, written upwards, and the
    // axis's name under the labels: the old fixed 120 pixels cut the name.
    let longest = labels
        .iter()
        .map(|l| text_width(l, LABEL_PX))
        .max()
        .unwrap_or(0);
    let x_label_area = LABEL_GAP + longest + 12 + (TEXT_PX * 1.6) as u32;
    let notes = Notes::new(report, causes, width);
    let title_height = (TITLE_PX * 2.0) as u32;
    let chart_height = PLOT_HEIGHT + x_label_area + INSET;
    let height = title_height + LEGEND_HEIGHT + chart_height + notes.height();

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
    let (legend_area, rest) = rest.split_vertically(LEGEND_HEIGHT);
    let (chart_area, notes_area) = rest.split_vertically(chart_height);

    let top = report.max().max(1) as f64 * 1.05;
    let mut chart = ChartBuilder::on(&chart_area)
        .margin_left(INSET / 2)
        .margin_right(INSET)
        .margin_bottom(INSET)
        .x_label_area_size(x_label_area)
        .y_label_area_size(Y_LABEL_AREA)
        .build_cartesian_2d(
            (0..regions.saturating_sub(1).max(1)).into_segmented(),
            0f64..top,
        )
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("region, by start key")
        .y_desc("keys")
        .axis_desc_style(font(TEXT_PX))
        .y_label_style(font(LABEL_PX))
        .x_labels(regions as usize + 1)
        // The region labels are drawn below, written upwards from under
        // the axis: plotters centres a turned label on its tick, which put
        // half of it over the bars.
        .x_label_formatter(&|_| String::new())
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(plot_err)?;
    chart
        .draw_series(counts.iter().enumerate().map(|(i, &n)| {
            let color = if report.is_hot(i) { HOT_BAR } else { BAR };
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
        .map_err(plot_err)?;
    // Upwards, ending just under the axis, centred on the bar.
    let upwards = font(LABEL_PX)
        .transform(FontTransform::Rotate270)
        .pos(Pos::new(HPos::Right, VPos::Center));
    for (i, label) in labels.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(SegmentValue::CenterOf(i as u32), 0.0));
        root.draw_text(label, &upwards, (x, y + LABEL_GAP as i32))
            .map_err(plot_err)?;
    }
    let plot_left = chart.backend_coord(&(SegmentValue::Exact(0), 0.0)).0;
    draw_legend(
        &legend_area,
        plot_left,
        &[
            (
                Key::Swatch(HOT_BAR),
                format!(
                    "hot: over {HOT_FACTOR}x the mean ({:.0} keys)",
                    report.hot_threshold()
                ),
            ),
            (Key::Swatch(BAR), "other regions".to_string()),
            (
                Key::Line(MEAN_LINE),
                format!("mean: {mean:.0} keys a region"),
            ),
        ],
    )?;
    notes.draw(&notes_area)?;
    root.present().map_err(plot_err)?;
    Ok(())
}
