//! Golden keys of the text forms (`#[text(format)]` on chrono, time and
//! jiff types, `#[text]` on a UUID, `#[text(width, scale)]` on a decimal)
//! and of `#[desc_ts]` on instants. Labels start with `feature text
//! forms:`; the lines are built with every optional key part on.

#[cfg(all(
    feature = "chrono",
    feature = "uuid",
    feature = "rust_decimal",
    feature = "time",
    feature = "jiff"
))]
mod forms {
    use rowkey::RowKey;

    #[derive(RowKey)]
    pub struct Dates {
        #[text(format = "%Y-%m")]
        pub month: chrono::NaiveDateTime,
        #[text(format = "-%d %H:%M:%S")]
        pub rest: chrono::NaiveDateTime,
        #[text(format = "%F %T.%9f")]
        pub utc: chrono::DateTime<chrono::Utc>,
        #[text(format = "%Y%m%d")]
        pub day: chrono::NaiveDate,
        #[text(format = "%Y%j")]
        pub time_at: time::OffsetDateTime,
        #[text(format = "%Y%m%d%H%M%S%3f")]
        pub jiff_at: jiff::Timestamp,
    }

    #[derive(RowKey)]
    pub struct Others {
        #[text]
        pub id: uuid::Uuid,
        #[text(width = 8, scale = 2)]
        pub price: rust_decimal::Decimal,
        #[text(width = 3, scale = 0)]
        pub count: rust_decimal::Decimal,
    }

    #[derive(RowKey)]
    pub struct Newest {
        #[desc_ts]
        pub chrono_at: chrono::DateTime<chrono::Utc>,
        #[desc_ts]
        pub time_at: time::OffsetDateTime,
        #[desc_ts]
        #[text]
        pub jiff_at: jiff::Timestamp,
    }
}

#[cfg_attr(
    not(all(
        feature = "chrono",
        feature = "uuid",
        feature = "rust_decimal",
        feature = "time",
        feature = "jiff"
    )),
    allow(unused_variables, clippy::ptr_arg)
)]
pub fn keys(v: &mut Vec<(&'static str, String)>, hex: fn(&[u8]) -> String) {
    #[cfg(all(
        feature = "chrono",
        feature = "uuid",
        feature = "rust_decimal",
        feature = "time",
        feature = "jiff"
    ))]
    {
        use forms::*;
        use rowkey::RowKey;
        // 2021-12-01 12:00:00.123456789 UTC.
        let nanos = 1_638_360_000_123_456_789i64;
        let utc = chrono::DateTime::from_timestamp_nanos(nanos);
        let key = Dates {
            month: utc.naive_utc(),
            rest: utc.naive_utc(),
            utc,
            day: utc.date_naive(),
            time_at: time::OffsetDateTime::from_unix_timestamp_nanos(nanos.into()).unwrap(),
            jiff_at: jiff::Timestamp::from_nanosecond(nanos.into()).unwrap(),
        };
        v.push((
            "feature text forms: dates of 2021-12-01 12:00:00.123456789 UTC",
            hex(&key.to_key().unwrap()),
        ));
        let key = Others {
            id: uuid::Uuid::from_u128(0x0190_1234_5678_7abc_8def_0123_4567_89ab),
            price: rust_decimal::Decimal::new(125, 1),
            count: rust_decimal::Decimal::new(7, 0),
        };
        v.push((
            "feature text forms: uuid, 12.5 at scale 2, 7 at scale 0",
            hex(&key.to_key().unwrap()),
        ));
        let key = Newest {
            chrono_at: utc,
            time_at: time::OffsetDateTime::from_unix_timestamp_nanos(nanos.into()).unwrap(),
            jiff_at: jiff::Timestamp::from_nanosecond(nanos.into()).unwrap(),
        };
        v.push((
            "feature text forms: desc_ts of 2021-12-01 12:00:00.123456789 UTC (nanoseconds)",
            hex(&key.to_key().unwrap()),
        ));
    }
}
