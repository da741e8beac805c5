//! Range bounds on `#[text(format)]` dates, finer than the format or not,
//! against brute force over the decoded values.
//!
//! The rule (documented on `Step::range`): a row is in a range when its
//! stored value, the one decode returns, is. A stored text stands for a
//! span of values and decodes to its start, so a bound inside a span
//! (finer than the format) excludes that text as a lower bound and
//! includes it as an upper one, whatever its own inclusivity. A format
//! that leaves out larger units (`-%d %H:%M:%S`) compares the units it
//! writes: the bound's larger units read as decode fills them in.
//!
//! Every specifier docs/designing-a-key.md lists (`%Y %m %d %j %H %M %S
//! %3f %6f %9f %F %T`, literals) is in a format here, each format with
//! bounds of every precision from the year to the nanosecond.

use chrono::{Datelike, NaiveDate, NaiveDateTime, Timelike};
use proptest::prelude::*;
use rowkey::{DecodeKeyOwned, EncodeError, RowKey};
use rowkey_fixtures::brute::{plan_range_keys, Table};
use std::ops::{Bound, RangeBounds};

/// A calendar unit, largest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Unit {
    Year,
    Month,
    DayOfYear,
    Day,
    Hour,
    Minute,
    Second,
    /// Digits of the fraction of a second.
    Fraction(u32),
}

fn at(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

/// `t` with every unit finer than `unit` zero (day and month 1), by hand.
fn truncate(t: NaiveDateTime, unit: Unit) -> NaiveDateTime {
    let midnight = |d: NaiveDate| d.and_hms_opt(0, 0, 0).unwrap();
    let hms = |h, m, s, ns| t.date().and_hms_nano_opt(h, m, s, ns).unwrap();
    match unit {
        Unit::Year => midnight(at(t.year(), 1, 1)),
        Unit::Month => midnight(at(t.year(), t.month(), 1)),
        Unit::DayOfYear | Unit::Day => midnight(t.date()),
        Unit::Hour => hms(t.hour(), 0, 0, 0),
        Unit::Minute => hms(t.hour(), t.minute(), 0, 0),
        Unit::Second => hms(t.hour(), t.minute(), t.second(), 0),
        Unit::Fraction(d) => {
            let keep = 10u32.pow(9 - d);
            hms(
                t.hour(),
                t.minute(),
                t.second(),
                t.nanosecond() / keep * keep,
            )
        }
    }
}

/// `t` with the units above `top` as decode fills them in (the year 2000,
/// January, the 1st), by hand; a `%j` format keeps the day of the year.
fn project(t: NaiveDateTime, top: Unit) -> NaiveDateTime {
    let date = match top {
        Unit::Year => return t,
        Unit::Month => at(2000, t.month(), t.day()),
        Unit::DayOfYear => NaiveDate::from_yo_opt(2000, t.ordinal()).unwrap(),
        Unit::Day => at(2000, 1, t.day()),
        _ => at(2000, 1, 1),
    };
    date.and_time(t.time())
}

/// A key of one `NaiveDateTime` text field and a row number.
trait TextDateKey: RowKey + DecodeKeyOwned + Sized {
    const FORMAT: &'static str;
    /// The largest and smallest units the format writes.
    const UNITS: (Unit, Unit);
    fn new(t: NaiveDateTime, n: u8) -> Self;
    fn t(&self) -> NaiveDateTime;
    /// The keys of `table` the plan of `t.range(bounds)` covers.
    fn range_keys(
        table: &Table,
        bounds: (Bound<NaiveDateTime>, Bound<NaiveDateTime>),
    ) -> Result<Vec<Vec<u8>>, EncodeError>;
}

macro_rules! text_date_keys {
    ($($name:ident = $format:literal, $top:expr, $finest:expr;)*) => {$(
        #[derive(RowKey, Debug, Clone, PartialEq)]
        struct $name {
            #[text(format = $format)]
            t: NaiveDateTime,
            n: u8,
        }

        impl TextDateKey for $name {
            const FORMAT: &'static str = $format;
            const UNITS: (Unit, Unit) = ($top, $finest);
            fn new(t: NaiveDateTime, n: u8) -> Self {
                $name { t, n }
            }
            fn t(&self) -> NaiveDateTime {
                self.t
            }
            fn range_keys(table: &Table, bounds: (Bound<NaiveDateTime>, Bound<NaiveDateTime>)) -> Result<Vec<Vec<u8>>, EncodeError> {
                Ok(plan_range_keys(table, &$name::scan().t.range(bounds)?))
            }
        }
    )*};
}

text_date_keys! {
    Year = "%Y", Unit::Year, Unit::Year;
    Month = "%Y%m", Unit::Year, Unit::Month;
    MonthDash = "%Y-%m", Unit::Year, Unit::Month;
    Day = "%F", Unit::Year, Unit::Day;
    Ordinal = "%Y%j", Unit::Year, Unit::DayOfYear;
    DayHour = "%F %H", Unit::Year, Unit::Hour;
    DayMinute = "%F %H:%M", Unit::Year, Unit::Minute;
    DaySecond = "%F %T", Unit::Year, Unit::Second;
    Millis = "%F %T.%3f", Unit::Year, Unit::Fraction(3);
    Micros = "%Y%m%d%H%M%S%6f", Unit::Year, Unit::Fraction(6);
    Nanos = "%F %T.%9f", Unit::Year, Unit::Fraction(9);
    LedgerRest = "-%d %H:%M:%S", Unit::Day, Unit::Second;
    MonthAndDay = "%m-%d", Unit::Month, Unit::Day;
    OrdinalHour = "%j %H", Unit::DayOfYear, Unit::Hour;
    ClockMinute = "%H:%M", Unit::Hour, Unit::Minute;
}

/// A time around the turn of 2000 (a leap year, a year boundary either
/// side), cut to a random precision from the year to the nanosecond, so
/// values and bounds fall on span edges and inside spans alike.
fn instant() -> impl Strategy<Value = NaiveDateTime> {
    let span = 400 * 86_400 * 1_000_000_000i64;
    let precisions = [
        Unit::Year,
        Unit::Month,
        Unit::Day,
        Unit::Hour,
        Unit::Minute,
        Unit::Second,
        Unit::Fraction(3),
        Unit::Fraction(6),
        Unit::Fraction(9),
    ];
    (0..span, proptest::sample::select(precisions.to_vec())).prop_map(|(offset, unit)| {
        let start = at(1999, 11, 20).and_hms_opt(0, 0, 0).unwrap();
        truncate(start + chrono::Duration::nanoseconds(offset), unit)
    })
}

fn bound(kind: u8, t: NaiveDateTime) -> Bound<NaiveDateTime> {
    match kind % 3 {
        0 => Bound::Included(t),
        1 => Bound::Excluded(t),
        _ => Bound::Unbounded,
    }
}

/// The plan's rows are exactly those whose decoded value lies in the
/// bounds (projected onto the units the format writes), and decode gives
/// the hand-truncated value.
fn check<K: TextDateKey>(
    values: &[NaiveDateTime],
    bounds: (Bound<NaiveDateTime>, Bound<NaiveDateTime>),
) -> Result<(), TestCaseError> {
    let (top, finest) = K::UNITS;
    let mut table = Table::new();
    for (n, &t) in values.iter().enumerate() {
        let key = K::new(t, n as u8).to_vec().unwrap();
        let decoded = K::decode(&key).unwrap().t();
        prop_assert_eq!(
            decoded,
            truncate(project(t, top), finest),
            "{} of {}",
            K::FORMAT,
            t
        );
        table.insert(key);
    }
    let projected = (
        bounds.0.map(|b| project(b, top)),
        bounds.1.map(|b| project(b, top)),
    );
    let want: Vec<Vec<u8>> = table
        .iter()
        .filter(|k| projected.contains(&K::decode(k).unwrap().t()))
        .cloned()
        .collect();
    let got = K::range_keys(&table, bounds).unwrap();
    prop_assert_eq!(got, want, "{} over {:?}", K::FORMAT, bounds);
    Ok(())
}

macro_rules! check_all {
    ($values:expr, $bounds:expr; $($key:ident)*) => {$(
        check::<$key>($values, $bounds)?;
    )*};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn ranges_keep_the_rows_whose_decoded_value_is_in_them(
        values in proptest::collection::vec(instant(), 0..24),
        (lo, hi) in (instant(), instant()),
        (k1, k2) in (any::<u8>(), any::<u8>()),
    ) {
        let bounds = (bound(k1, lo), bound(k2, hi));
        check_all!(&values, bounds;
            Year Month MonthDash Day Ordinal DayHour DayMinute DaySecond Millis Micros
            Nanos LedgerRest MonthAndDay OrdinalHour ClockMinute);
    }
}

/// The two reproductions.
#[test]
fn a_finer_bound_keeps_the_text_whose_value_is_below_it() {
    let dec3 = at(2021, 12, 3).and_hms_opt(9, 0, 0).unwrap();
    let key = MonthDash { t: dec3, n: 0 }.to_vec().unwrap();
    assert_eq!(&key[..7], b"2021-12");
    // `until(2021-12-15)`: December is stored (and decoded) as 2021-12-01.
    let until = MonthDash::scan()
        .t
        .until(at(2021, 12, 15).and_hms_opt(0, 0, 0).unwrap())
        .unwrap();
    assert!(until.contains(&key));
    // `12:00:00.5..`: the 12:00:00 key's value is below the bound.
    let noon = at(2021, 12, 3).and_hms_opt(12, 0, 0).unwrap();
    let half = noon + chrono::Duration::milliseconds(500);
    let key = DaySecond { t: noon, n: 0 }.to_vec().unwrap();
    let next = DaySecond {
        t: noon + chrono::Duration::seconds(1),
        n: 0,
    };
    let from_half = DaySecond::scan().t.range(half..).unwrap();
    assert!(!from_half.contains(&key));
    assert!(from_half.contains(&next.to_vec().unwrap()));
    // A bound on a span's edge keeps its inclusivity.
    assert!(DaySecond::scan().t.range(noon..).unwrap().contains(&key));
    assert!(!DaySecond::scan().t.until(noon).unwrap().contains(&key));
}

/// The rule is the same for another crate's type (the check reads the
/// value's calendar fields, not chrono's).
#[test]
fn jiff_bounds_follow_the_same_rule() {
    #[derive(RowKey)]
    struct Stamp {
        #[text(format = "%F %H:%M")]
        t: jiff::civil::DateTime,
    }
    let key = Stamp {
        t: jiff::civil::datetime(2021, 12, 3, 12, 0, 0, 0),
    }
    .to_vec()
    .unwrap();
    let inside = jiff::civil::datetime(2021, 12, 3, 12, 0, 30, 0);
    assert!(!Stamp::scan().t.since(inside).unwrap().contains(&key));
    assert!(Stamp::scan().t.until(inside).unwrap().contains(&key));
    assert!(Stamp::scan().t.range(..=inside).unwrap().contains(&key));
    let edge = jiff::civil::datetime(2021, 12, 3, 12, 0, 0, 0);
    assert!(!Stamp::scan().t.until(edge).unwrap().contains(&key));
}
