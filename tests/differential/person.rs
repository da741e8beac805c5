//! Each derived field's value written as a person writes it, from the
//! Rust value (with its own crate's accessors), by the rules the CLI
//! documents: `42`, `1.5`, `Temp`, `2026-11-01`,
//! `2026-11-01T07:30:00.250Z` (instants in UTC), `12.50`, a UUID
//! hyphenated in lower case, text as it is (quoted with Rust's escapes
//! when it holds control characters or starts with a quote), bytes as
//! `toStringBinary` (`\x30` for the `0` of bytes that would read as `0x`
//! hex), `None` for an `Option`'s none.

use rowkey::KeyDisplay;
use std::borrow::Cow;

pub trait Person {
    fn person(&self) -> String;
}

macro_rules! displayed {
    ($($t:ty),*) => {$(
        impl Person for $t {
            fn person(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
displayed!(
    u8,
    u16,
    u32,
    u64,
    u128,
    i8,
    i16,
    i32,
    i64,
    i128,
    bool,
    char,
    rust_decimal::Decimal
);

impl Person for f32 {
    fn person(&self) -> String {
        format!("{self:?}")
    }
}

impl Person for f64 {
    fn person(&self) -> String {
        format!("{self:?}")
    }
}

impl Person for () {
    fn person(&self) -> String {
        "()".into()
    }
}

fn text(s: &str) -> String {
    if s.starts_with('"') || s.chars().any(char::is_control) {
        format!("{s:?}")
    } else {
        s.to_string()
    }
}

/// `toStringBinary`; but bytes that would then read as `0x` hex (the
/// text `0x12`) start `\x30`, their `0` escaped.
fn bytes(b: &[u8]) -> String {
    let s = KeyDisplay(b).to_string();
    let hex = s
        .strip_prefix("0x")
        .is_some_and(|h| !h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit()));
    if hex {
        format!("\\x30{}", &s[1..])
    } else {
        s
    }
}

impl Person for String {
    fn person(&self) -> String {
        text(self)
    }
}
impl Person for &str {
    fn person(&self) -> String {
        text(self)
    }
}
impl Person for Box<str> {
    fn person(&self) -> String {
        text(self)
    }
}
impl Person for Cow<'_, str> {
    fn person(&self) -> String {
        text(self)
    }
}
impl Person for Vec<u8> {
    fn person(&self) -> String {
        bytes(self)
    }
}
impl Person for &[u8] {
    fn person(&self) -> String {
        bytes(self)
    }
}
impl Person for Box<[u8]> {
    fn person(&self) -> String {
        bytes(self)
    }
}
impl Person for Cow<'_, [u8]> {
    fn person(&self) -> String {
        bytes(self)
    }
}
impl<const N: usize> Person for [u8; N] {
    fn person(&self) -> String {
        bytes(self)
    }
}

impl<T: Person> Person for Option<T> {
    fn person(&self) -> String {
        match self {
            None => "None".into(),
            Some(v) => match v.person() {
                s if s == "None" || s.starts_with("Some(") => format!("Some({s})"),
                s => s,
            },
        }
    }
}

impl Person for uuid::Uuid {
    fn person(&self) -> String {
        self.hyphenated().to_string()
    }
}

/// `2026-11-01`; a year outside 0..=9999 with its sign.
pub fn date(year: i32, month: u8, day: u8) -> String {
    let y = match year {
        0..=9999 => format!("{year:04}"),
        y if y < 0 => format!("-{:04}", y.unsigned_abs()),
        y => format!("+{y}"),
    };
    format!("{y}-{month:02}-{day:02}")
}

/// `2026-11-01T07:30:00`, then `.250`, `.250001` or `.250000001` when the
/// second is not whole.
pub fn date_time(year: i32, month: u8, day: u8, h: u8, m: u8, s: u8, ns: u32) -> String {
    let frac = match ns {
        0 => String::new(),
        n if n % 1_000_000 == 0 => format!(".{:03}", n / 1_000_000),
        n if n % 1_000 == 0 => format!(".{:06}", n / 1_000),
        n => format!(".{n:09}"),
    };
    format!("{}T{h:02}:{m:02}:{s:02}{frac}", date(year, month, day))
}

mod chrono_types {
    use super::{date, date_time, Person};
    use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, Timelike, Utc};

    impl Person for NaiveDate {
        fn person(&self) -> String {
            date(self.year(), self.month() as u8, self.day() as u8)
        }
    }
    /// A leap second is written as the 60th second (`23:59:60`), which no
    /// key holds.
    impl Person for NaiveDateTime {
        fn person(&self) -> String {
            let (d, t) = (self.date(), self.time());
            let leap = t.nanosecond() >= 1_000_000_000;
            date_time(
                d.year(),
                d.month() as u8,
                d.day() as u8,
                t.hour() as u8,
                t.minute() as u8,
                t.second() as u8 + u8::from(leap),
                t.nanosecond() % 1_000_000_000,
            )
        }
    }
    impl Person for DateTime<Utc> {
        fn person(&self) -> String {
            self.naive_utc().person() + "Z"
        }
    }
}

mod time_types {
    use super::{date, date_time, Person};
    use time::{Date, OffsetDateTime, PrimitiveDateTime, UtcOffset};

    impl Person for Date {
        fn person(&self) -> String {
            date(self.year(), self.month() as u8, self.day())
        }
    }
    impl Person for PrimitiveDateTime {
        fn person(&self) -> String {
            let t = self.time();
            let d = self.date();
            date_time(
                d.year(),
                d.month() as u8,
                d.day(),
                t.hour(),
                t.minute(),
                t.second(),
                t.nanosecond(),
            )
        }
    }
    impl Person for OffsetDateTime {
        fn person(&self) -> String {
            let u = self.to_offset(UtcOffset::UTC);
            PrimitiveDateTime::new(u.date(), u.time()).person() + "Z"
        }
    }
}

mod jiff_types {
    use super::{date, date_time, Person};
    use jiff::civil::{Date, DateTime};
    use jiff::tz::TimeZone;
    use jiff::Timestamp;

    impl Person for Date {
        fn person(&self) -> String {
            date(self.year().into(), self.month() as u8, self.day() as u8)
        }
    }
    impl Person for DateTime {
        fn person(&self) -> String {
            date_time(
                self.year().into(),
                self.month() as u8,
                self.day() as u8,
                self.hour() as u8,
                self.minute() as u8,
                self.second() as u8,
                self.subsec_nanosecond() as u32,
            )
        }
    }
    impl Person for Timestamp {
        fn person(&self) -> String {
            self.to_zoned(TimeZone::UTC).datetime().person() + "Z"
        }
    }
}
