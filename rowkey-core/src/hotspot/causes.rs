//! Naming what fills a hot region: the [`Cause`] rule, and the text
//! report of [`HotspotCauses`] (each hot region's cause, then its fields'
//! top values with their shares).

use super::{HotspotCauses, RegionValues, TopValues, HOT_FACTOR, TRACKED_VALUES};
use core::fmt;

/// A value names a hot region's cause when it holds at least this share
/// of the region's keys (and more of them than of the keys elsewhere):
/// below it, a value is one of many and no single reason for the load.
pub const CAUSE_SHARE: f64 = 0.2;

/// Values a field's line in the text report lists.
const LISTED_VALUES: usize = 3;

/// One value that fills a hot region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CauseValue {
    /// Its field.
    pub field: &'static str,
    /// The value, as `rowkey decode` shows it.
    pub value: String,
    /// The region's keys that surely hold it.
    pub at_least: u64,
    /// The most of the region's keys that can hold it.
    pub at_most: u64,
}

/// What fills a hot region: the field values that hold at least
/// [`CAUSE_SHARE`] of its keys and a larger share of them than of the
/// sample's keys outside it (so a field with one value everywhere names
/// no region), in key order but the narrower cause first (a field whose
/// value explains another field's value comes before it), the most held
/// first within a field; and the keys that did not decode, when they are
/// that many.
///
/// Its `Display` is one line: `workspace = megacorp: 98%; channel =
/// general: 50%, random: 48%`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cause {
    /// The region's keys.
    pub keys: u64,
    /// The values, by field in key order.
    pub values: Vec<CauseValue>,
    /// Keys of the region that did not decode, if at least
    /// [`CAUSE_SHARE`] of them; else `0`.
    pub undecoded: u64,
}

impl HotspotCauses {
    /// The cause of hot region `r` (one of [`regions`](Self::regions)).
    pub fn cause(&self, r: &RegionValues) -> Cause {
        let n = r.tally.keys;
        let outside = self.sample.keys.saturating_sub(n);
        let mut values = Vec::new();
        for (i, &field) in self.field_names.iter().enumerate() {
            let (Some(here), Some(everywhere)) = (r.field(i), self.sample.fields.get(i)) else {
                continue;
            };
            for c in here.top(TRACKED_VALUES) {
                let share = c.at_least() as f64 / n.max(1) as f64;
                if share < CAUSE_SHARE {
                    continue;
                }
                // The most keys outside the region that can hold the
                // value, as a share of the keys outside: the region must
                // hold more than that.
                let elsewhere = match outside {
                    0 => 0.0,
                    o => everywhere.at_most(c.value).saturating_sub(c.at_least()) as f64 / o as f64,
                };
                if share > elsewhere {
                    let v = CauseValue {
                        field,
                        value: c.value.to_string(),
                        at_least: c.at_least(),
                        at_most: c.count,
                    };
                    values.push((v, share, share - elsewhere));
                }
            }
        }
        let values = narrower_first(values);
        let undecoded = r.tally.undecoded;
        Cause {
            keys: n,
            values,
            undecoded: match undecoded as f64 >= CAUSE_SHARE * n as f64 && undecoded > 0 {
                true => undecoded,
                false => 0,
            },
        }
    }
}

/// The values grouped by field in key order, except that a field whose
/// one value explains another field's value comes before it: the value holds
/// less of the region than the other (it is narrower) but at least the
/// other's excess over its share elsewhere (all that excess could be its
/// keys). A city's 84% of a region, 4% elsewhere, after one driver's 80%
/// of it: the driver is named first. `values`: each with its share of
/// the region and its excess.
fn narrower_first(values: Vec<(CauseValue, f64, f64)>) -> Vec<CauseValue> {
    let mut fields: Vec<&'static str> = Vec::new();
    for (v, ..) in &values {
        if !fields.contains(&v.field) {
            fields.push(v.field);
        }
    }
    // One value of field `b` (the field names no other) explains a value
    // of `a`; two busy channels of one workspace explain it only together.
    let explains = |b: &'static str, a: &'static str| {
        let of_b: Vec<_> = values.iter().filter(|v| v.0.field == b).collect();
        of_b.len() == 1
            && of_b.iter().any(|(_, share_b, _)| {
                values
                    .iter()
                    .filter(|v| v.0.field == a)
                    .any(|(_, share_a, excess_a)| share_b < share_a && share_b >= excess_a)
            })
    };
    // Few fields: move each explaining field before the first field it
    // explains, until none moves (at most once per pair).
    for _ in 0..fields.len() * fields.len() {
        let moved = (0..fields.len()).find_map(|i| {
            (i + 1..fields.len()).find_map(|j| explains(fields[j], fields[i]).then_some((i, j)))
        });
        let Some((i, j)) = moved else { break };
        let f = fields.remove(j);
        fields.insert(i, f);
    }
    let mut out = Vec::with_capacity(values.len());
    for f in fields {
        out.extend(
            values
                .iter()
                .filter(|v| v.0.field == f)
                .map(|v| v.0.clone()),
        );
    }
    out
}

/// `part` of `whole` as a percentage people read at a glance: `100%`
/// only for all of it, whole percents from 10% to 99%, one decimal below
/// 10% and above 99.5% (rounded down, so that 99.96% is not `100%`),
/// `<0.1%` for a little.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 || part == 0 {
        return "0%".into();
    }
    if part >= whole {
        return "100%".into();
    }
    let p = 100.0 * part as f64 / whole as f64;
    match p {
        p if p < 0.1 => "<0.1%".into(),
        p if p < 10.0 => format!("{p:.1}%"),
        p if p < 99.5 => format!("{p:.0}%"),
        p => format!("{:.1}%", (p * 10.0).floor() / 10.0),
    }
}

/// A share known to lie between `lo` and `hi` of `whole`: one
/// percentage when both read the same, else a range (`48–50%`).
fn percent_between(lo: u64, hi: u64, whole: u64) -> String {
    let (a, b) = (percent(lo, whole), percent(hi, whole));
    match a == b {
        true => b,
        false => format!("{}–{b}", a.trim_end_matches('%')),
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut field = None;
        for v in &self.values {
            let share = percent_between(v.at_least, v.at_most, self.keys);
            if field == Some(v.field) {
                write!(f, ", {}: {share}", v.value)?;
            } else {
                if field.is_some() {
                    f.write_str("; ")?;
                }
                write!(f, "{} = {}: {share}", v.field, v.value)?;
                field = Some(v.field);
            }
        }
        if self.undecoded > 0 {
            if field.is_some() {
                f.write_str("; ")?;
            }
            write!(
                f,
                "{} of its keys do not decode with the layout",
                percent(self.undecoded, self.keys)
            )?;
        } else if field.is_none() {
            write!(
                f,
                "no field value holds {:.0}% of its keys and more of them than elsewhere: \
                 its key range, not a value, is too busy",
                CAUSE_SHARE * 100.0
            )?;
        }
        Ok(())
    }
}

/// A field's line: its top values with their shares of `keys`, and how
/// many distinct values there were.
fn values_line(t: &TopValues, keys: u64) -> String {
    let noise = t.error_bound();
    // Without a counter per value, only a value surely over the noise
    // floor is shown: the others' counts may be all inheritance.
    let shown: Vec<String> = t
        .top(LISTED_VALUES)
        .iter()
        .filter(|c| c.at_least() > noise)
        .map(|c| {
            format!(
                "{}: {}",
                c.value,
                percent_between(c.at_least(), c.count, keys)
            )
        })
        .collect();
    let distinct = match t.is_exact() {
        true => format!("{} distinct", t.len()),
        false => format!("over {TRACKED_VALUES} distinct values"),
    };
    if shown.is_empty() {
        // No count exceeds the largest, and a value without a counter
        // holds at most the noise floor, which is not above it.
        let most = t.top(1).first().map_or(0, |c| c.count);
        return format!("no value over {} ({distinct})", percent(most, keys));
    }
    format!("{} ({distinct})", shown.join(", "))
}

fn region_section(
    f: &mut fmt::Formatter<'_>,
    causes: &HotspotCauses,
    r: &RegionValues,
) -> fmt::Result {
    let n = r.keys();
    writeln!(
        f,
        "region {} of {}, from {}: {n} keys, {} of the sample",
        r.region() + 1,
        causes.region_count,
        r.start(),
        percent(n, causes.sample.keys)
    )?;
    writeln!(f, "  cause: {}", causes.cause(r))?;
    let salted = !causes.sample.buckets.is_empty();
    let name_w = causes
        .field_names
        .iter()
        .map(|n| n.len())
        .chain(salted.then_some(SALT_BUCKET.len()))
        .max()
        .unwrap_or(0);
    // The salt bucket only where the region holds several: with a salted
    // layout's own splits a region is one bucket, which its start key
    // already says.
    if r.buckets().len() > 1 {
        let line = values_line(r.buckets(), n);
        writeln!(f, "  {SALT_BUCKET:<name_w$}  {line}")?;
    }
    for (i, name) in causes.field_names.iter().enumerate() {
        if let Some(t) = r.field(i) {
            writeln!(f, "  {name:<name_w$}  {}", values_line(t, n))?;
        }
    }
    if r.undecoded() > 0 {
        writeln!(
            f,
            "  {} keys ({}) do not decode with the layout: counted in no field",
            r.undecoded(),
            percent(r.undecoded(), n)
        )?;
    }
    Ok(())
}

/// The name of the salt bucket's line.
const SALT_BUCKET: &str = "(salt bucket)";

/// The hot regions, each with its cause and its fields' top values
/// (shares of the region's keys).
impl fmt::Display for HotspotCauses {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let over = format!(
            "over {:.0} keys, {HOT_FACTOR}x the mean",
            self.hot_threshold
        );
        if self.regions.is_empty() {
            return writeln!(f, "no hot region: none holds {over}");
        }
        writeln!(
            f,
            "{} of {} regions are hot ({over}); what fills them, as shares of each region's keys:",
            self.regions.len(),
            self.region_count
        )?;
        for r in &self.regions {
            region_section(f, self, r)?;
        }
        Ok(())
    }
}
