//! Dates, date-times and instants of chrono, time and jiff: binary (epoch
//! days, epoch nanoseconds), `#[desc]`, `#[desc_ts]` as 8 bytes and as 19
//! digits, `#[text(format = "..")]` with every specifier, `Option`s; with
//! values at the edges of each type, of `i64` nanoseconds (1677..2262),
//! of four-digit years, and chrono's leap second.

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use proptest::prelude::*;
use proptest::sample::select;

const NANOS_A_DAY: i64 = 86_400_000_000_000;

/// Epoch days: 1970-01-01 ±1, the `i64`-nanosecond limits (1677-09-21,
/// 2262-04-11), years 0, -1, 9999 and 10000, and anything in `days`.
fn epoch_days(days: std::ops::RangeInclusive<i64>) -> BoxedStrategy<i64> {
    let lo = *days.start();
    let hi = *days.end();
    let special: Vec<i64> = [
        -1, 0, 1, -106_752, 106_751, -719_528, -719_529, 2_932_896, 2_932_897,
    ]
    .into_iter()
    .chain([lo, hi])
    .filter(|d| days.contains(d))
    .collect();
    prop_oneof![select(special), lo..=hi, -110_000i64..110_000].boxed()
}

/// Nanoseconds of the day: midnight, the last one, whole milli- and
/// microseconds, and chrono's leap second (`1_000_000_000..`) when
/// `leap`.
fn day_nanos(leap: bool) -> BoxedStrategy<i64> {
    let last = NANOS_A_DAY - 1;
    let mut special = vec![
        0,
        last,
        1,
        999_999_999,
        12 * 3_600_000_000_000 + 250_000_000,
    ];
    special.push(if leap { NANOS_A_DAY } else { 0 });
    prop_oneof![
        select(special),
        0..NANOS_A_DAY,
        (0..86_400_000i64).prop_map(|ms| ms * 1_000_000),
    ]
    .boxed()
}

pub fn chrono_date() -> BoxedStrategy<NaiveDate> {
    let days = NaiveDate::MIN.signed_duration_since(NaiveDate::from_ymd_opt(1970, 1, 1).unwrap());
    let max = NaiveDate::MAX.signed_duration_since(NaiveDate::from_ymd_opt(1970, 1, 1).unwrap());
    epoch_days(days.num_days()..=max.num_days())
        .prop_map(|d| NaiveDate::from_num_days_from_ce_opt(719_163 + d as i32).unwrap())
        .boxed()
}

/// chrono date-times, the leap second included (`23:59:60`).
fn chrono_date_time() -> BoxedStrategy<NaiveDateTime> {
    let any_i64 = any::<i64>().prop_map(|n| DateTime::from_timestamp_nanos(n).naive_utc());
    let by_parts = (chrono_date(), day_nanos(true)).prop_map(|(d, n)| {
        let (s, ns) = (n.min(NANOS_A_DAY - 1) / 1_000_000_000, n % 1_000_000_000);
        let leap = if n >= NANOS_A_DAY { 1_000_000_000 } else { 0 };
        let t = NaiveTime::from_num_seconds_from_midnight_opt(s as u32, ns as u32 + leap)
            .unwrap_or_default();
        d.and_time(t)
    });
    prop_oneof![any_i64, by_parts].boxed()
}

pub fn chrono_utc() -> BoxedStrategy<DateTime<Utc>> {
    chrono_date_time().prop_map(|t| t.and_utc()).boxed()
}

fn time_date() -> BoxedStrategy<time::Date> {
    let (lo, hi) = (
        time::Date::MIN.to_julian_day(),
        time::Date::MAX.to_julian_day(),
    );
    let unix = 2_440_588;
    epoch_days(i64::from(lo - unix)..=i64::from(hi - unix))
        .prop_map(move |d| time::Date::from_julian_day(d as i32 + unix).unwrap())
        .boxed()
}

fn time_date_time() -> BoxedStrategy<time::PrimitiveDateTime> {
    (time_date(), day_nanos(false))
        .prop_map(|(d, n)| {
            let t = time::Time::MIDNIGHT + time::Duration::nanoseconds(n);
            time::PrimitiveDateTime::new(d, t)
        })
        .boxed()
}

/// Instants at offsets of up to ±23 hours (the key holds them in UTC),
/// those whose UTC date `time` holds.
fn time_instant() -> BoxedStrategy<time::OffsetDateTime> {
    (time_date_time(), -23i8..=23, select(vec![0i8, 30, 45]))
        .prop_filter_map("a UTC date time holds", |(t, h, m)| {
            let offset = time::UtcOffset::from_hms(h, if h < 0 { -m } else { m }, 0).ok()?;
            let at = t.assume_offset(offset);
            at.checked_to_offset(time::UtcOffset::UTC).map(|_| at)
        })
        .boxed()
}

fn jiff_date() -> BoxedStrategy<jiff::civil::Date> {
    let epoch = jiff::civil::date(1970, 1, 1);
    let span = |d: jiff::civil::Date| epoch.until((jiff::Unit::Day, d)).unwrap().get_days();
    let (lo, hi) = (span(jiff::civil::Date::MIN), span(jiff::civil::Date::MAX));
    epoch_days(i64::from(lo)..=i64::from(hi))
        .prop_map(move |d| epoch.checked_add(jiff::Span::new().days(d)).unwrap())
        .boxed()
}

fn jiff_date_time() -> BoxedStrategy<jiff::civil::DateTime> {
    (jiff_date(), day_nanos(false))
        .prop_map(|(d, n)| {
            let t = jiff::civil::Time::midnight()
                .checked_add(jiff::SignedDuration::from_nanos(n))
                .unwrap();
            d.to_datetime(t)
        })
        .boxed()
}

fn jiff_instant() -> BoxedStrategy<jiff::Timestamp> {
    jiff_date_time()
        .prop_filter_map("a timestamp", |t| {
            t.to_zoned(jiff::tz::TimeZone::UTC)
                .ok()
                .map(|z| z.timestamp())
        })
        .boxed()
}

matrix! {
    chrono_date_binary: NaiveDate = chrono_date();
    chrono_date_desc: NaiveDate [#[desc]] = chrono_date();
    chrono_date_text: NaiveDate [#[text(format = "%Y-%m-%d")]] = chrono_date();
    chrono_date_text_month: NaiveDate [#[text(format = "%Y%m")]] = chrono_date();
    chrono_date_text_ordinal: NaiveDate [#[text(format = "%Y.%j")]] = chrono_date();
    chrono_date_time_binary: NaiveDateTime = chrono_date_time();
    chrono_date_time_desc: NaiveDateTime [#[desc]] = chrono_date_time();
    chrono_date_time_desc_ts: NaiveDateTime [#[desc_ts]] = chrono_date_time();
    chrono_date_time_desc_ts_text: NaiveDateTime [#[desc_ts] #[text]] = chrono_date_time();
    chrono_date_time_text: NaiveDateTime [#[text(format = "%F %T")]] = chrono_date_time();
    chrono_date_time_text_nanos: NaiveDateTime [#[text(format = "%Y%m%d%H%M%S%9f")]] = chrono_date_time();
    chrono_utc_binary: DateTime<Utc> = chrono_utc();
    chrono_utc_desc: DateTime<Utc> [#[desc]] = chrono_utc();
    chrono_utc_desc_ts: DateTime<Utc> [#[desc_ts]] = chrono_utc();
    chrono_utc_desc_ts_text: DateTime<Utc> [#[desc_ts] #[text]] = chrono_utc();
    chrono_utc_text_millis: DateTime<Utc> [#[text(format = "%FT%T.%3f")]] = chrono_utc();
    chrono_utc_text_hour: DateTime<Utc> [#[text(format = "%Y-%m-%d %H")]] = chrono_utc();
    time_date_binary: time::Date = time_date();
    time_date_desc: time::Date [#[desc]] = time_date();
    time_date_text: time::Date [#[text(format = "%F")]] = time_date();
    time_date_time_binary: time::PrimitiveDateTime = time_date_time();
    time_date_time_desc_ts: time::PrimitiveDateTime [#[desc_ts]] = time_date_time();
    time_date_time_desc_ts_text: time::PrimitiveDateTime [#[desc_ts] #[text]] = time_date_time();
    time_date_time_text: time::PrimitiveDateTime [#[text(format = "%Y-%m-%d %H:%M:%S.%6f")]] =
        time_date_time();
    time_instant_binary: time::OffsetDateTime = time_instant();
    time_instant_desc: time::OffsetDateTime [#[desc]] = time_instant();
    time_instant_desc_ts: time::OffsetDateTime [#[desc_ts]] = time_instant();
    time_instant_desc_ts_text: time::OffsetDateTime [#[desc_ts] #[text]] = time_instant();
    time_instant_text: time::OffsetDateTime [#[text(format = "%Y%m%d%H%M%S")]] = time_instant();
    jiff_date_binary: jiff::civil::Date = jiff_date();
    jiff_date_desc: jiff::civil::Date [#[desc]] = jiff_date();
    jiff_date_text: jiff::civil::Date [#[text(format = "%Y%m%d")]] = jiff_date();
    jiff_date_time_binary: jiff::civil::DateTime = jiff_date_time();
    jiff_date_time_desc_ts: jiff::civil::DateTime [#[desc_ts]] = jiff_date_time();
    jiff_date_time_desc_ts_text: jiff::civil::DateTime [#[desc_ts] #[text]] = jiff_date_time();
    jiff_date_time_text: jiff::civil::DateTime [#[text(format = "%F %H:%M")]] = jiff_date_time();
    jiff_instant_binary: jiff::Timestamp = jiff_instant();
    jiff_instant_desc: jiff::Timestamp [#[desc]] = jiff_instant();
    jiff_instant_desc_ts: jiff::Timestamp [#[desc_ts]] = jiff_instant();
    jiff_instant_desc_ts_text: jiff::Timestamp [#[desc_ts] #[text]] = jiff_instant();
    jiff_instant_text: jiff::Timestamp [#[text(format = "%F %T.%9f")]] = jiff_instant();
    option_chrono_date: Option<NaiveDate> = proptest::option::of(chrono_date());
    option_chrono_utc_desc_ts: Option<DateTime<Utc>> [#[desc_ts]] = proptest::option::of(chrono_utc());
    option_time_date_text: Option<time::Date> [#[text(format = "%Y-%m")]] = proptest::option::of(time_date());
    option_jiff_instant_desc: Option<jiff::Timestamp> [#[desc]] = proptest::option::of(jiff_instant());
}

/// The regression of the second disagreement the matrix found: the
/// interpreter took chrono's dates to span years -262144..=262143, one
/// year more at each end than `NaiveDate` holds since chrono 0.4.35.
#[test]
fn chrono_dates_end_where_chrono_does() {
    let layout = crate::harness::layout_of::<chrono_date_binary::Last>();
    let epoch = NaiveDate::from_ymd_opt(1970, 1, 1).unwrap();
    let min = NaiveDate::MIN.signed_duration_since(epoch).num_days();
    let max = NaiveDate::MAX.signed_duration_since(epoch).num_days();
    for (days, holds) in [(min - 1, false), (min, true), (max, true), (max + 1, false)] {
        let stored = (days as i32 as u32 ^ 0x8000_0000).to_be_bytes();
        let key = [&[7u8][..], &stored].concat();
        assert_eq!(layout.decode_key(&key).is_ok(), holds, "day {days}");
        crate::harness::same_refusals::<chrono_date_binary::Last>(layout, &key);
    }
}

/// The regression of the fourth disagreement the matrix found: a date
/// `#[desc_ts]` cannot hold is named in the user's terms by the derived
/// code, where the interpreter said only that a timestamp was out of
/// range.
#[test]
fn a_date_desc_ts_cannot_hold_is_named_alike() {
    use rowkey::RowKey;
    let layout = crate::harness::layout_of::<chrono_utc_desc_ts::Last>();
    let values = layout
        .parse_assignments(&["head=1", "v=1969-12-31T23:59:59Z"])
        .unwrap();
    let ours = layout.encode_key(&values, None).unwrap_err();
    let v = DateTime::from_timestamp(-1, 0).unwrap();
    let derived = chrono_utc_desc_ts::Last { head: 1, v }
        .to_vec()
        .unwrap_err();
    assert_eq!(ours.to_string(), derived.to_string());
    assert!(
        ours.to_string()
            .contains("1969-12-31 23:59:59 UTC is outside what #[desc_ts] holds"),
        "{ours}"
    );
}
