//! `rowkey hotspot`: the per-region table, what fills each hot region,
//! and the picture.

use super::{describe_decode_error, split_keys, CmdResult};
use crate::out::{out, outln};
use rowkey_cli::hotspot::{draw_bars, draw_heatmap, Heat, TimePoints, WideRows};
use rowkey_cli::key_input::{no_keys, read_keys, KeyForm};
use rowkey_cli::layout_file::load;
use rowkey_core::hotspot::{HotspotCauses, HotspotReport};
use rowkey_core::split::SplitKeys;
use std::path::Path;

/// What `rowkey hotspot` was given.
pub struct HotspotArgs<'a> {
    pub layout: &'a Path,
    pub keys: &'a Path,
    pub splits: Option<&'a Path>,
    pub regions: Option<u32>,
    /// Split keys are hex (keys are in `form`).
    pub hex: bool,
    pub form: KeyForm,
    pub time: Option<&'a str>,
    pub bins: usize,
    pub out: &'a Path,
    /// Name the rows listed more than this many times.
    pub max_row_cells: Option<u64>,
}

pub fn hotspot(a: HotspotArgs<'_>) -> CmdResult {
    let layout = load(a.layout)?;
    if let Some(t) = a.time {
        if layout.field(t).is_none() {
            let names: Vec<&str> = layout.fields.iter().map(|f| f.name).collect();
            return Err(format!(
                "{} has no field `{t}` for --time (fields: {})",
                layout.name,
                names.join(", ")
            ));
        }
    }
    let splits = match a.splits {
        Some(p) => {
            let form = if a.hex { KeyForm::Hex } else { KeyForm::Binary };
            SplitKeys::new(read_keys(p, form)?)
        }
        None => split_keys(layout, a.regions)?,
    };
    let keys = read_keys(a.keys, a.form)?;
    if keys.is_empty() {
        return Err(no_keys(a.keys, a.form));
    }
    let report = HotspotReport::new(&splits, &keys);
    out!("{report}")?;
    // One decode a key: its values for the hot regions' causes, its time
    // for the heatmap, its error for the message below.
    let mut causes = HotspotCauses::new(layout, &report);
    let mut undecoded = 0;
    let mut first_error = None;
    let mut points = TimePoints::new();
    for k in &keys {
        let region = report.region_of(k);
        let decoded = layout.decode_key(k);
        causes.add(region, decoded.as_ref());
        match decoded {
            Ok(d) => {
                if let Some(value) = a.time.and_then(|t| d.get(t)) {
                    points.push(region, value);
                }
            }
            Err(e) => {
                undecoded += 1;
                first_error.get_or_insert((k, e));
            }
        }
    }
    out!("{causes}")?;
    if let Some(max) = a.max_row_cells {
        out!("{}", WideRows::new(&keys, &report, max))?;
    }
    let title = format!(
        "{}: {} keys over {} regions, skew {:.2}x",
        layout.name,
        report.total(),
        report.counts().len(),
        report.skew()
    );
    match a.time {
        None => {
            draw_bars(&report, &causes, &title, a.out)?;
            outln!("picture: {} (one bar per region)", a.out.display())?;
        }
        Some(t) if points.is_empty() => {
            if undecoded == 0 {
                return Err(format!(
                    "no key gave field `{t}` a value on a time axis (an integer, date or time)"
                ));
            }
        }
        Some(t) => {
            let (axis, points) = points.finish();
            let heat = Heat::new(report.counts().len(), axis, &points, a.bins);
            draw_heatmap(&heat, &report, &causes, &title, t, a.out)?;
            outln!(
                "picture: {} (regions over {t}, {} bins)",
                a.out.display(),
                heat.counts.first().map_or(0, Vec::len)
            )?;
        }
    }
    match first_error {
        None => Ok(()),
        Some((key, e)) => Err(format!(
            "{undecoded} of {} keys do not decode with the layout {}; the first:\n{}",
            keys.len(),
            layout.name,
            describe_decode_error(key, &e)
        )),
    }
}
