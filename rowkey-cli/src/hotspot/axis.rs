//! What a heatmap's time axis counts in. Times and dates are put on one
//! axis of UTC milliseconds, and so are integers written as dates
//! (`202611`, `20261128`, `2026112812`: a `#[text(width = 6)] month: u32`
//! is a month, not 202,611 of something); other integers stay integers,
//! and a bin is a run of their values.

use chrono::{NaiveDate, NaiveDateTime};
use rowkey_core::layout::dynamic::Value;

const HOUR_MS: f64 = 3_600_000.0;
const DAY_MS: f64 = 86_400_000.0;

/// What the numbers on a heatmap's time axis are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeAxis {
    /// Milliseconds since the epoch, UTC, at most `grain` apart from the
    /// values' own precision: a day for dates, an hour for `2026112812`,
    /// a millisecond for times.
    EpochMillis {
        /// The smallest step between two values, in milliseconds.
        grain: f64,
    },
    /// Plain integers: each value its own point, a bin a run of values.
    Integers,
}

/// The points a heatmap bins: each key's region and its place on the
/// time axis. Built a value at a time (a sample can be millions of keys:
/// nothing but the numbers is kept).
#[derive(Debug, Clone)]
pub struct TimePoints {
    points: Vec<(usize, f64)>,
    /// The axis of the values so far, if they are not integers.
    times: Option<f64>,
    /// Which date shapes every integer so far fits (YYYYMM, YYYYMMDD,
    /// YYYYMMDDHH).
    shapes: [bool; 3],
}

impl Default for TimePoints {
    fn default() -> Self {
        TimePoints::new()
    }
}

impl TimePoints {
    /// No points yet.
    pub fn new() -> TimePoints {
        TimePoints {
            points: Vec::new(),
            times: None,
            shapes: [true; 3],
        }
    }

    /// Adds a key in `region` whose time field holds `value`; a value
    /// that is not on a time axis (text, say) is left out.
    pub fn push(&mut self, region: usize, value: &Value) {
        let (t, grain) = match value {
            Value::Int(v) => (*v as f64, None),
            Value::UInt(v) => (*v as f64, None),
            Value::Date(_) => (value.as_time_axis().unwrap_or(0.0) * DAY_MS, Some(DAY_MS)),
            Value::DateTime(_) | Value::Instant(_) => {
                (value.as_time_axis().unwrap_or(0.0), Some(1.0))
            }
            Value::Option(Some(v)) => return self.push(region, v),
            _ => return,
        };
        match grain {
            Some(g) => self.times = Some(self.times.map_or(g, |old| old.min(g))),
            None => {
                for (fits, shape) in self.shapes.iter_mut().zip(SHAPES) {
                    *fits = *fits && date_shaped(t, shape).is_some();
                }
            }
        }
        self.points.push((region, t));
    }

    /// Whether no key gave the field a value on a time axis.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The axis and the points on it.
    pub fn finish(mut self) -> (TimeAxis, Vec<(usize, f64)>) {
        if let Some(grain) = self.times {
            return (TimeAxis::EpochMillis { grain }, self.points);
        }
        if let Some(shape) = (0..SHAPES.len()).find(|&i| self.shapes[i]) {
            let shape = SHAPES[shape];
            for p in &mut self.points {
                p.1 = date_shaped(p.1, shape).unwrap_or(p.1);
            }
            return (TimeAxis::EpochMillis { grain: shape.grain }, self.points);
        }
        // Integers in the range of epoch milliseconds (1973 to 5138) are
        // taken as such: an `#[desc_ts] at_ms: i64` is a time.
        let epoch_ms = |t: f64| (1e11..1e14).contains(&t);
        if self.points.iter().all(|p| epoch_ms(p.1)) {
            return (TimeAxis::EpochMillis { grain: 1.0 }, self.points);
        }
        (TimeAxis::Integers, self.points)
    }
}

/// An integer written as a date: its digits and the step of its values.
#[derive(Debug, Clone, Copy)]
struct Shape {
    digits: u32,
    grain: f64,
}

/// YYYYMM, YYYYMMDD and YYYYMMDDHH. A month's grain is a day: months
/// differ in length, and a bin of days holds whole months near enough.
const SHAPES: [Shape; 3] = [
    Shape {
        digits: 6,
        grain: DAY_MS,
    },
    Shape {
        digits: 8,
        grain: DAY_MS,
    },
    Shape {
        digits: 10,
        grain: HOUR_MS,
    },
];

/// The UTC milliseconds of `t` read as a date of `shape`, if it is one.
fn date_shaped(t: f64, shape: Shape) -> Option<f64> {
    let low = 10f64.powi(shape.digits as i32 - 1);
    if !(low..low * 10.0).contains(&t) || t.fract() != 0.0 {
        return None;
    }
    let v = t as u64;
    let (ymd, hour) = match shape.digits {
        6 => (v * 100 + 1, 0),
        8 => (v, 0),
        _ => (v / 100, v % 100),
    };
    let date = NaiveDate::from_ymd_opt(
        i32::try_from(ymd / 10_000).ok()?,
        (ymd / 100 % 100) as u32,
        (ymd % 100) as u32,
    )?;
    let at: NaiveDateTime = date.and_hms_opt(hour as u32, 0, 0)?;
    Some(at.and_utc().timestamp_millis() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis_of(values: &[Value]) -> (TimeAxis, Vec<f64>) {
        let mut points = TimePoints::new();
        for v in values {
            points.push(0, v);
        }
        let (axis, points) = points.finish();
        (axis, points.into_iter().map(|p| p.1).collect())
    }

    #[test]
    fn integers_written_as_dates_are_dates() {
        let hour = |v: u128| Value::UInt(v);
        let (axis, at) = axis_of(&[hour(2026112812), hour(2026112900)]);
        assert_eq!(axis, TimeAxis::EpochMillis { grain: HOUR_MS });
        assert_eq!(at[1] - at[0], 12.0 * HOUR_MS);
        let (axis, at) = axis_of(&[Value::Int(20261130), Value::Int(20261201)]);
        assert_eq!(axis, TimeAxis::EpochMillis { grain: DAY_MS });
        assert_eq!(at[1] - at[0], DAY_MS);
        let (axis, at) = axis_of(&[Value::UInt(202611), Value::UInt(202612)]);
        assert_eq!(axis, TimeAxis::EpochMillis { grain: DAY_MS });
        assert_eq!(at[1] - at[0], 30.0 * DAY_MS);
    }

    #[test]
    fn other_integers_stay_integers() {
        // No 13th month, no 29 February 2026, a value of another width, and
        // numbers that are only numbers.
        for values in [
            vec![Value::UInt(202613)],
            vec![Value::UInt(2026022912)],
            vec![Value::UInt(20261128), Value::UInt(123)],
            vec![Value::Int(600_600), Value::Int(0)],
        ] {
            assert_eq!(axis_of(&values).0, TimeAxis::Integers, "{values:?}");
        }
        let (axis, _) = axis_of(&[Value::Int(1_767_225_600_000)]);
        assert_eq!(axis, TimeAxis::EpochMillis { grain: 1.0 });
    }

    #[test]
    fn values_off_the_axis_are_left_out() {
        let (_, at) = axis_of(&[Value::Text("x".into()), Value::UInt(5)]);
        assert_eq!(at, [5.0]);
    }
}
