//! The text under a picture: for each hot region, the field values that
//! fill it (the cause line of the text report), wrapped to the picture's
//! width; and the legend row above the plot, laid out so that it covers
//! nothing.

use super::{font, plot_err, text_width, TEXT_PX};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use rowkey_core::hotspot::{percent, HotspotCauses, HotspotReport, HOT_FACTOR};

/// Hot regions the picture names one by one; the text report names all.
const MAX_NOTED: usize = 12;
/// Pixels from one line of notes to the next.
const LINE_PITCH: u32 = 20;
/// Pixels left of the notes and of the legend.
pub(super) const INSET: u32 = 16;

/// The lines under a picture, wrapped: `(indent, text)`.
pub(super) struct Notes {
    lines: Vec<(u32, String)>,
}

impl Notes {
    /// The causes of `report`'s hot regions, wrapped to `width` pixels.
    pub(super) fn new(report: &HotspotReport, causes: &HotspotCauses, width: u32) -> Notes {
        let over = format!(
            "over {:.0} keys, {HOT_FACTOR}x the mean",
            report.hot_threshold()
        );
        let mut lines = Vec::new();
        let regions = causes.regions();
        if regions.is_empty() {
            lines.push((0, format!("No hot region: none holds {over}.")));
            return Notes { lines };
        }
        lines.push((
            0,
            format!("What fills the hot regions ({over}), as shares of each region's keys:"),
        ));
        let room = width.saturating_sub(2 * INSET);
        for r in regions.iter().take(MAX_NOTED) {
            let text = format!(
                "region {} (from {}, {} keys, {} of all): {}",
                r.region() + 1,
                r.start(),
                r.keys(),
                percent(r.keys(), causes.sample_keys()),
                causes.cause(r)
            );
            for (i, line) in wrap(&text, room, 24).into_iter().enumerate() {
                lines.push((if i == 0 { 12 } else { 36 }, line));
            }
        }
        if regions.len() > MAX_NOTED {
            lines.push((
                12,
                format!(
                    "and {} more hot regions: the text report names what fills each",
                    regions.len() - MAX_NOTED
                ),
            ));
        }
        Notes { lines }
    }

    /// Pixels the notes take down the picture.
    pub(super) fn height(&self) -> u32 {
        self.lines.len() as u32 * LINE_PITCH + 2 * INSET
    }

    /// Draws the notes from the top of `area`.
    pub(super) fn draw(&self, area: &DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String> {
        let style = font(TEXT_PX).pos(Pos::new(HPos::Left, VPos::Top));
        for (i, (indent, line)) in self.lines.iter().enumerate() {
            let at = (
                (INSET + indent) as i32,
                (INSET + i as u32 * LINE_PITCH) as i32,
            );
            area.draw_text(line, &style, at).map_err(plot_err)?;
        }
        Ok(())
    }
}

/// `text` cut into lines of at most `room` pixels, the lines after the
/// first indented by `indent` pixels more: between phrases (after `;`,
/// `,` or `):`) where a line allows, so that `field = value: share` stays
/// whole; else between words; a word longer than a line is cut where the
/// line ends.
fn wrap(text: &str, room: u32, indent: u32) -> Vec<String> {
    let mut out = Lines {
        done: Vec::new(),
        line: String::new(),
        room,
        indent,
    };
    for phrase in phrases(text) {
        if out.append(&phrase) {
            continue;
        }
        out.break_line();
        if out.append(&phrase) {
            continue;
        }
        for word in phrase.split(' ') {
            if !out.append(word) {
                out.break_line();
                out.cut_in(word);
            }
        }
    }
    out.break_line();
    out.done
}

/// `text`'s words grouped into phrases that end where a word ends with
/// `;`, `,` or `):`.
fn phrases(text: &str) -> Vec<String> {
    let mut phrases = Vec::new();
    let mut phrase: Vec<&str> = Vec::new();
    for word in text.split(' ') {
        phrase.push(word);
        if word.ends_with(';') || word.ends_with(',') || word.ends_with("):") {
            phrases.push(phrase.join(" "));
            phrase.clear();
        }
    }
    if !phrase.is_empty() {
        phrases.push(phrase.join(" "));
    }
    phrases
}

/// Lines being filled: those done, the one being written.
struct Lines {
    done: Vec<String>,
    line: String,
    room: u32,
    indent: u32,
}

impl Lines {
    fn limit(&self) -> u32 {
        match self.done.is_empty() {
            true => self.room,
            false => self.room.saturating_sub(self.indent),
        }
    }

    /// Adds `piece` to the line if it fits.
    fn append(&mut self, piece: &str) -> bool {
        let joined = match self.line.is_empty() {
            true => piece.to_string(),
            false => format!("{} {piece}", self.line),
        };
        let fits = text_width(&joined, TEXT_PX) <= self.limit();
        if fits {
            self.line = joined;
        }
        fits
    }

    fn break_line(&mut self) {
        if !self.line.is_empty() {
            self.done.push(std::mem::take(&mut self.line));
        }
    }

    /// Writes `word`, too long for a line, over as many as it takes.
    fn cut_in(&mut self, word: &str) {
        let mut rest: Vec<char> = word.chars().collect();
        loop {
            let fit = ((self.limit() as f64 / (TEXT_PX * 0.6)) as usize).max(1);
            if rest.len() <= fit {
                self.line = rest.into_iter().collect();
                return;
            }
            self.done.push(rest.drain(..fit).collect());
        }
    }
}

/// One entry of a legend: how it is drawn, and its words.
pub(super) enum Key {
    /// A filled square of this colour.
    Swatch(RGBColor),
    /// A short line of this colour.
    Line(RGBColor),
}

/// Draws `entries` in a row from `x`, centred down `area`: above the plot,
/// where no bar or cell can be.
pub(super) fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    x: i32,
    entries: &[(Key, String)],
) -> Result<(), String> {
    let mid = area.dim_in_pixel().1 as i32 / 2;
    let style = font(TEXT_PX).pos(Pos::new(HPos::Left, VPos::Center));
    let mut x = x;
    for (key, words) in entries {
        // A polyline, not a rectangle: the picture's rectangles are its
        // bars and cells, which tests count.
        let mark = match key {
            Key::Swatch(c) => PathElement::new([(x, mid), (x + 12, mid)], c.stroke_width(12)),
            Key::Line(c) => PathElement::new([(x - 4, mid), (x + 16, mid)], c.stroke_width(2)),
        };
        area.draw(&mark).map_err(plot_err)?;
        area.draw_text(words, &style, (x + 20, mid))
            .map_err(plot_err)?;
        x += 20 + text_width(words, TEXT_PX) as i32 + 28;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hotspot_notes_wrap_between_phrases_within_the_width() {
        let text = "region 7 (from 06, 75861 keys, 38% of all): workspace = megacorp: 98%; \
                    channel = general: 50%, random: 48%";
        let lines = wrap(text, 400, 24);
        assert_eq!(
            lines,
            [
                "region 7 (from 06, 75861 keys, 38% of all):",
                "workspace = megacorp: 98%;",
                "channel = general: 50%, random: 48%"
            ]
        );
        assert!(
            lines.iter().all(|l| text_width(l, TEXT_PX) <= 400),
            "{lines:?}"
        );
        // A word wider than a line is cut, never lost.
        let long = "x".repeat(200);
        let lines = wrap(&long, 100, 0);
        assert_eq!(lines.concat(), long);
        assert!(wrap("", 100, 0).is_empty());
    }
}
