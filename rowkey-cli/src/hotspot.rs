//! A sample of keys over a table's regions, drawn with plotters' SVG
//! backend: bars of keys per region (every region labelled, the mean
//! marked), or a heatmap of regions over a time field with its colour
//! scale; under either, what fills each hot region (rowkey-core's
//! [`HotspotCauses`](rowkey_core::hotspot::HotspotCauses)).

mod axis;
mod bars;
mod heatmap;
mod notes;
mod wide_rows;

pub use axis::{TimeAxis, TimePoints};
pub use bars::draw_bars;
pub use heatmap::{draw_heatmap, heat_color, Heat};
pub use wide_rows::WideRows;

use plotters::prelude::*;
use rowkey_core::hotspot::HotspotReport;

/// The most regions a picture draws: one label each must stay legible.
pub const MAX_DRAWN_REGIONS: usize = 4096;
/// The colour of the mean line.
pub const MEAN_LINE: RGBColor = RGBColor(0x33, 0x33, 0x33);

/// The fill of a region's bar.
pub const BAR: RGBColor = RGBColor(0x4C, 0x78, 0xA8);
/// The fill of a hot region's bar (over
/// [`HOT_FACTOR`](rowkey_core::hotspot::HOT_FACTOR) times the mean).
pub const HOT_BAR: RGBColor = RGBColor(0xE4, 0x57, 0x56);

/// Text sizes, in the picture's pixels: the title, axis names and the
/// notes, and the labels of ticks and regions.
const TITLE_PX: f64 = 20.0;
const TEXT_PX: f64 = 14.0;
const LABEL_PX: f64 = 12.0;

/// A sans-serif font `px` pixels high in the SVG. plotters' SVG backend
/// writes `font-size` as the size it is given divided by 1.24, so a size
/// asked for as such comes out a fifth smaller than meant (the old
/// pictures' 12-point labels were 9.7 px).
fn font(px: f64) -> TextStyle<'static> {
    TextStyle::from(("sans-serif", px * 1.24).into_font())
}

/// How wide `text` is drawn at `px` pixels, near enough to lay out by:
/// DejaVu Sans and Arial average under 0.6 em a character.
fn text_width(text: &str, px: f64) -> u32 {
    (text.chars().count() as f64 * px * 0.6).ceil() as u32
}

fn plot_err(e: impl std::fmt::Display) -> String {
    format!("cannot draw the picture: {e}")
}

/// A region's label: its start key as `toStringBinary`, cut to `max`
/// characters.
fn region_label(report: &HotspotReport, i: usize, max: usize) -> String {
    let full = report.start_label(i);
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
