//! Instants at the edges of what a key holds, through the derive: a leap
//! second (chrono only) is an encode error naming the field in every codec
//! that takes a date-time, never another second's key; a date outside what
//! `#[desc_ts]` holds is an error that names the date and the range.

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use rowkey::codec::CivilTime;
use rowkey::{EncodeErrorKind, RowKey};

#[derive(RowKey, Debug, PartialEq)]
struct At {
    t: NaiveDateTime,
}

#[derive(RowKey, Debug, PartialEq)]
struct AtUtc {
    t: DateTime<Utc>,
}

#[derive(RowKey, Debug, PartialEq)]
struct Newest {
    user: u32,
    #[desc_ts]
    t: NaiveDateTime,
}

#[derive(RowKey, Debug, PartialEq)]
struct NewestUtc {
    #[desc_ts]
    #[text]
    t: DateTime<Utc>,
}

#[derive(RowKey, Debug, PartialEq)]
struct NewestTime {
    #[desc_ts]
    t: time::OffsetDateTime,
}

#[derive(RowKey, Debug, PartialEq)]
struct NewestJiff {
    #[desc_ts]
    t: jiff::Timestamp,
}

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

/// The reproduction: 23:59:60.5 wrote 00:00:00.5's key, so a put
/// of one overwrote the other and decode returned the other value.
#[test]
fn a_leap_second_is_refused_not_written_as_the_next_second() {
    let leap = d(2016, 12, 31)
        .and_hms_nano_opt(23, 59, 59, 1_500_000_000)
        .unwrap();
    let next = d(2017, 1, 1)
        .and_hms_nano_opt(0, 0, 0, 500_000_000)
        .unwrap();
    assert!(At { t: next }.to_vec().is_ok());
    let errors = [
        At { t: leap }.to_vec().unwrap_err(),
        AtUtc { t: leap.and_utc() }.to_vec().unwrap_err(),
        Newest { user: 7, t: leap }.to_vec().unwrap_err(),
        NewestUtc { t: leap.and_utc() }.to_vec().unwrap_err(),
    ];
    for e in errors {
        assert_eq!(e.field(), "t", "{e}");
        assert!(
            matches!(e.kind(), EncodeErrorKind::Invalid(why) if why.contains("leap second")),
            "{e}"
        );
    }
    assert_eq!(
        Newest { user: 7, t: leap }.to_vec().unwrap_err().offset(),
        4
    );
    // As a bound of a #[desc_ts] range: refused too, naming the field.
    let e = Newest::scan().user.eq(7).t.since(leap).unwrap_err();
    assert_eq!(e.field(), "t");
    // A bound on the binary codec goes through the same check.
    assert_eq!(At::scan().t.until(leap).unwrap_err().field(), "t");
}

/// One instant, one key in the three crates: time and jiff cannot hold a
/// leap second, so what chrono refuses is all that differs.
#[test]
fn time_and_jiff_have_no_leap_second_to_write() {
    assert!(time::Time::from_hms_nano(23, 59, 60, 0).is_err());
    assert!(jiff::civil::Time::new(23, 59, 60, 0).is_err());
    let second = d(2016, 12, 31).and_hms_opt(23, 59, 59).unwrap().and_utc();
    let t = time::OffsetDateTime::from_unix_timestamp(second.timestamp()).unwrap();
    let j = jiff::Timestamp::from_second(second.timestamp()).unwrap();
    let key = AtUtc { t: second }.to_vec().unwrap();
    assert_eq!(
        NewestTime { t }.to_vec().unwrap(),
        NewestJiff { t: j }.to_vec().unwrap()
    );
    assert_eq!(
        &key,
        &At {
            t: second.naive_utc()
        }
        .to_vec()
        .unwrap()
    );
}

/// Out of `#[desc_ts]`'s range: the field, the value in UTC, the range.
#[test]
fn a_date_outside_desc_ts_says_which_and_the_range() {
    let before = DateTime::<Utc>::from_timestamp(-1, 0).unwrap();
    let e = NewestUtc { t: before }.to_vec().unwrap_err();
    let value = CivilTime {
        hour: 23,
        minute: 59,
        second: 59,
        ..CivilTime::midnight(1969, 12, 31)
    };
    assert_eq!(e.kind(), EncodeErrorKind::DescTsOutOfRange { value });
    assert_eq!(
        e.to_string(),
        "cannot encode NewestUtc.t at byte 0: 1969-12-31 23:59:59 UTC is outside what \
         #[desc_ts] holds: 1970-01-01 00:00:00 to 2262-04-11 23:47:16.854775807 UTC"
    );
    let after = d(2262, 4, 12).and_hms_opt(0, 0, 0).unwrap();
    let e = Newest { user: 1, t: after }.to_vec().unwrap_err();
    assert_eq!((e.field(), e.offset()), ("t", 4));
    assert_eq!(
        e.kind(),
        EncodeErrorKind::DescTsOutOfRange {
            value: CivilTime::midnight(2262, 4, 12)
        }
    );
    let t = time::macros::datetime!(1969-07-20 20:17 UTC);
    let e = NewestTime { t }.to_vec().unwrap_err();
    assert!(e.to_string().contains("1969-07-20 20:17:00 UTC"), "{e}");
    let j: jiff::Timestamp = "3000-01-01T00:00:00Z".parse().unwrap();
    let e = NewestJiff { t: j }.to_vec().unwrap_err();
    assert!(e.to_string().contains("3000-01-01 00:00:00 UTC"), "{e}");
    // The last instant it holds is written.
    let last = DateTime::<Utc>::from_timestamp_nanos(i64::MAX);
    assert!(NewestUtc { t: last }.to_vec().is_ok());
}
