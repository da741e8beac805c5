//! The grammar of `#[text(format = "..")]`: a strftime-style format that
//! writes a date or time as fixed-width text sorting like the values.
//!
//! | specifier | writes |
//! | --- | --- |
//! | `%Y` | the year, 4 digits (years 0..=9999 only) |
//! | `%m`, `%d` | month, day of the month, 2 digits |
//! | `%j` | day of the year, 3 digits (instead of `%m` and `%d`) |
//! | `%H`, `%M`, `%S` | hour (24-hour clock), minute, second, 2 digits |
//! | `%3f`, `%6f`, `%9f` | milli-, micro-, nanoseconds of the second |
//! | `%F`, `%T` | `%Y-%m-%d`, `%H:%M:%S` |
//! | `%%`, any other ASCII character | itself |
//!
//! The units must come largest first and without a gap (year, then month
//! and day or day of year, hour, minute, second, fraction); a format may
//! start below the year (`-%d %H:%M:%S`) or stop above the nanosecond
//! (`%Y%m`). Then equal widths make byte order the order of the units
//! written. Variable-width forms (`%B`, `%-d`, `%e`), a 12-hour clock
//! (`%I`, `%p`), weekdays, week numbers, two-digit years (`%y`: 1999 would
//! sort after 2000) and zones are refused, with the reason.
//!
//! ```
//! use rowkey::codec::DateFormat;
//! let f = DateFormat::parse("%Y-%m").unwrap();
//! assert_eq!(f.width(), 7);
//! assert_eq!(f.to_string(), "%Y-%m");
//! assert!(DateFormat::parse("%m/%Y").is_err()); // month before year
//! ```

use core::fmt;

/// The most items (specifiers and literal characters) in one format.
pub const MAX_FORMAT_ITEMS: usize = 32;

/// One piece of a [`DateFormat`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FormatItem {
    /// A literal ASCII byte.
    Literal(u8),
    /// `%Y`.
    Year,
    /// `%m`.
    Month,
    /// `%d`.
    Day,
    /// `%j`.
    DayOfYear,
    /// `%H`.
    Hour,
    /// `%M`.
    Minute,
    /// `%S`.
    Second,
    /// `%3f`, `%6f`, `%9f`: the digits of the fraction of the second.
    Fraction(u8),
}

impl FormatItem {
    /// Bytes the item writes.
    pub const fn width(self) -> usize {
        match self {
            FormatItem::Literal(_) => 1,
            FormatItem::Year => 4,
            FormatItem::DayOfYear => 3,
            FormatItem::Fraction(d) => d as usize,
            _ => 2,
        }
    }

    /// The unit's rank, largest first (`None` for literals): each item's
    /// rank must follow the previous one's (`%j` stands for month and day).
    /// Year 0, month 1, day 2, hour 3, minute 4, second 5, fraction 6.
    pub(crate) const fn rank(self) -> Option<(u8, u8)> {
        // (first rank covered, last rank covered)
        match self {
            FormatItem::Literal(_) => None,
            FormatItem::Year => Some((0, 0)),
            FormatItem::Month => Some((1, 1)),
            FormatItem::Day => Some((2, 2)),
            FormatItem::DayOfYear => Some((1, 2)),
            FormatItem::Hour => Some((3, 3)),
            FormatItem::Minute => Some((4, 4)),
            FormatItem::Second => Some((5, 5)),
            FormatItem::Fraction(_) => Some((6, 6)),
        }
    }
}

/// Why a format string is not a fixed-width, order-preserving format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatError {
    /// Byte offset of the fault in the format string.
    pub offset: usize,
    /// What is wrong, in words.
    pub reason: &'static str,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {} of the format: {}", self.offset, self.reason)
    }
}

impl std::error::Error for FormatError {}

/// A parsed `#[text(format = "..")]` format: fixed width, order-preserving.
///
/// It is `Copy` and holds no pointer, so derived layouts carry it as a
/// constant; it prints (and serialises) as its format string.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DateFormat {
    items: [FormatItem; MAX_FORMAT_ITEMS],
    len: usize,
    width: usize,
}

const fn err(offset: usize, reason: &'static str) -> Result<DateFormat, FormatError> {
    Err(FormatError { offset, reason })
}

/// The reason a specifier is refused, or `None` for one not known at all.
const fn refused(spec: u8) -> Option<&'static str> {
    Some(match spec {
        b'y' | b'C' | b'g' => "a two-digit year or century loses the century, so 1999 would sort after 2000; use %Y",
        b'G' => "an ISO week-based year does not sort with the date; use %Y",
        b'B' | b'b' | b'h' => "a month name is not fixed-width and does not sort by month; use %m",
        b'a' | b'A' | b'u' | b'w' => "a weekday does not sort with the date; leave it out",
        b'U' | b'W' | b'V' => "a week number does not sort with the date; use %m%d or %j",
        b'I' | b'l' | b'p' | b'P' | b'r' => "a 12-hour clock does not sort (1 PM sorts before 2 AM); use %H",
        b'e' | b'k' | b'-' | b'_' | b'0' | b'^' | b'#' => "a padding flag or space-padded field changes the width; use the zero-padded %d, %H, ...",
        b'f' | b'.' => "a fraction needs a fixed number of digits: %3f, %6f or %9f",
        b'Z' | b'z' | b':' => "a time zone is not part of a sortable text time; store UTC",
        b's' => "seconds since the epoch have no fixed width; use the binary codec or #[text(width = N)] on an integer",
        b'D' | b'x' | b'c' | b'X' | b'R' | b'v' | b'+' => "this shorthand is locale-dependent or not largest-unit-first; spell it out with %Y %m %d %H %M %S",
        b'n' | b't' => "write whitespace as a literal character",
        _ => return None,
    })
}

impl DateFormat {
    /// Parses `format`, refusing anything not fixed-width or not
    /// order-preserving with the offset and the reason.
    pub const fn parse(format: &str) -> Result<DateFormat, FormatError> {
        let b = format.as_bytes();
        let mut out = DateFormat {
            items: [FormatItem::Literal(0); MAX_FORMAT_ITEMS],
            len: 0,
            width: 0,
        };
        // The next rank a unit must cover, and whether one was seen.
        let mut next_rank: u8 = 0;
        let mut any_unit = false;
        let mut i = 0;
        while i < b.len() {
            let at = i;
            let mut expansion: [FormatItem; 5] = [FormatItem::Literal(0); 5];
            let mut n = 1;
            if b[i] != b'%' {
                if !b[i].is_ascii() || b[i].is_ascii_control() {
                    return err(at, "literal characters must be printable ASCII");
                }
                expansion[0] = FormatItem::Literal(b[i]);
                i += 1;
            } else {
                if i + 1 >= b.len() {
                    return err(at, "a lone % ends the format; write %% for a percent sign");
                }
                let spec = b[i + 1];
                i += 2;
                expansion[0] = match spec {
                    b'%' => FormatItem::Literal(b'%'),
                    b'Y' => FormatItem::Year,
                    b'm' => FormatItem::Month,
                    b'd' => FormatItem::Day,
                    b'j' => FormatItem::DayOfYear,
                    b'H' => FormatItem::Hour,
                    b'M' => FormatItem::Minute,
                    b'S' => FormatItem::Second,
                    b'3' | b'6' | b'9' if i < b.len() && b[i] == b'f' => {
                        i += 1;
                        FormatItem::Fraction(spec - b'0')
                    }
                    b'F' => {
                        let dash = FormatItem::Literal(b'-');
                        expansion = [
                            FormatItem::Year,
                            dash,
                            FormatItem::Month,
                            dash,
                            FormatItem::Day,
                        ];
                        n = 5;
                        FormatItem::Year
                    }
                    b'T' => {
                        let colon = FormatItem::Literal(b':');
                        expansion = [
                            FormatItem::Hour,
                            colon,
                            FormatItem::Minute,
                            colon,
                            FormatItem::Second,
                        ];
                        n = 5;
                        FormatItem::Hour
                    }
                    _ => return match refused(spec) {
                        Some(reason) => err(at, reason),
                        None => err(
                            at,
                            "unknown specifier; use %Y %m %d %j %H %M %S %3f %6f %9f %F %T or %%",
                        ),
                    },
                };
            }
            let mut k = 0;
            while k < n {
                let item = expansion[k];
                if let Some((first, last)) = item.rank() {
                    if any_unit && first < next_rank {
                        return err(at, "units must go from largest to smallest (year, month, day, hour, minute, second, fraction), each once: this one comes after a smaller or equal one");
                    }
                    if any_unit && first > next_rank {
                        return err(at, "a unit is skipped before this one (such as %Y%d without %m), so the text would not sort like the time");
                    }
                    any_unit = true;
                    next_rank = last + 1;
                }
                if out.len == MAX_FORMAT_ITEMS {
                    return err(at, "the format has more than 32 items");
                }
                out.items[out.len] = item;
                out.len += 1;
                out.width += item.width();
                k += 1;
            }
        }
        if !any_unit {
            return err(
                0,
                "the format has no date or time specifier (%Y, %m, %d, %H, ...)",
            );
        }
        Ok(out)
    }

    /// [`DateFormat::parse`] for constants generated by the derive, which
    /// has checked the format already.
    pub const fn parse_const(format: &str) -> DateFormat {
        match DateFormat::parse(format) {
            Ok(f) => f,
            Err(_) => panic!("not a fixed-width, order-preserving #[text(format)]"),
        }
    }

    /// Bytes every value takes.
    pub const fn width(&self) -> usize {
        self.width
    }

    /// The items, in order.
    pub const fn items(&self) -> &[FormatItem] {
        self.items.split_at(self.len).0
    }

    /// Whether the format writes a unit finer than days (a date type
    /// cannot fill it).
    pub fn has_time_of_day(&self) -> bool {
        self.items().iter().any(|i| {
            matches!(
                i,
                FormatItem::Hour
                    | FormatItem::Minute
                    | FormatItem::Second
                    | FormatItem::Fraction(_)
            )
        })
    }
}

impl fmt::Display for DateFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for item in self.items() {
            match *item {
                FormatItem::Literal(b'%') => f.write_str("%%")?,
                FormatItem::Literal(c) => fmt::Write::write_char(f, c as char)?,
                FormatItem::Year => f.write_str("%Y")?,
                FormatItem::Month => f.write_str("%m")?,
                FormatItem::Day => f.write_str("%d")?,
                FormatItem::DayOfYear => f.write_str("%j")?,
                FormatItem::Hour => f.write_str("%H")?,
                FormatItem::Minute => f.write_str("%M")?,
                FormatItem::Second => f.write_str("%S")?,
                FormatItem::Fraction(d) => write!(f, "%{d}f")?,
            }
        }
        Ok(())
    }
}

impl fmt::Debug for DateFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DateFormat({:?})", self.to_string())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for DateFormat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for DateFormat {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        DateFormat::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepted_formats_and_widths() {
        for (f, w) in [
            ("%Y%m", 6),
            ("%Y-%m", 7),
            ("-%d %H:%M:%S", 12),
            ("%F %T", 19),
            ("%Y%j", 7),
            ("%Y%m%d%H%M%S%3f", 17),
            ("%H%M%S%9f", 15),
            ("%M", 2),
            ("100%%%Y", 8),
        ] {
            let parsed = DateFormat::parse(f).unwrap_or_else(|e| panic!("{f}: {e}"));
            assert_eq!(parsed.width(), w, "{f}");
            assert_eq!(DateFormat::parse(&parsed.to_string()).unwrap(), parsed);
        }
        assert_eq!(DateFormat::parse("%F").unwrap().to_string(), "%Y-%m-%d");
    }

    #[test]
    fn refused_formats_say_why_and_where() {
        let why = |f: &str| DateFormat::parse(f).unwrap_err();
        assert_eq!(why("%m%Y").offset, 2);
        assert!(why("%m%Y").reason.contains("largest to smallest"));
        assert!(why("%d%m").reason.contains("largest to smallest"));
        assert!(why("%Y%d").reason.contains("skipped"));
        assert!(why("%Y%m%d%I").reason.contains("12-hour"));
        assert!(why("%Y%B").reason.contains("month name"));
        assert!(why("%Y-%-m").reason.contains("padding"));
        assert!(why("%y%m").reason.contains("two-digit year"));
        assert!(why("%a %Y").reason.contains("weekday"));
        assert!(why("%Y%f").reason.contains("%3f"));
        assert!(why("%Y%m%").reason.contains("lone %"));
        assert!(why("--").reason.contains("no date or time"));
        assert!(why("%Y%Y").reason.contains("largest to smallest"));
        assert!(why("%Y%j%d").reason.contains("largest to smallest"));
        assert!(why("%Q").reason.contains("unknown"));
        assert!(why("%Yé").reason.contains("ASCII"));
        assert!(why(&format!("%Y{}", "-".repeat(32)))
            .reason
            .contains("32 items"));
    }
}
