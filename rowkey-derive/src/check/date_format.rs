//! The `#[text(format = "..")]` grammar, checked at compile time so a
//! format that is not fixed-width or not order-preserving is an error at
//! the attribute. `rowkey_core::codec::DateFormat::parse` is the runtime
//! twin; the expansion asserts that both agree on the width.

/// What a valid format writes.
pub struct FormatInfo {
    /// Bytes every value takes.
    pub width: usize,
    /// Whether it writes hours or finer (a date type cannot).
    pub time_of_day: bool,
    /// Its literal characters.
    pub literals: Vec<u8>,
}

/// Why a specifier is refused, for the ones people reach for.
fn refused(spec: char) -> Option<&'static str> {
    Some(match spec {
        'y' | 'C' | 'g' => "a two-digit year (or a century) loses the century, so 1999 would sort after 2000; write %Y",
        'G' => "an ISO week-based year does not sort with the date; write %Y",
        'B' | 'b' | 'h' => "a month name is not fixed-width and does not sort by month; write %m",
        'a' | 'A' | 'u' | 'w' => "a weekday does not sort with the date; leave it out",
        'U' | 'W' | 'V' => "a week number does not sort with the date; write %m%d or %j",
        'I' | 'l' | 'p' | 'P' | 'r' => "a 12-hour clock does not sort (1 PM would sort before 2 AM); write %H",
        'e' | 'k' | '-' | '_' | '0' | '^' | '#' => "a padding flag or space-padded field changes the width; write the zero-padded %d, %H, %M, ...",
        'f' | '.' => "a fraction needs a fixed number of digits: %3f, %6f or %9f",
        'Z' | 'z' | ':' => "a time zone is not part of a sortable text time; store UTC",
        's' => "seconds since the epoch have no fixed width; use the binary codec or #[text(width = N)] on an integer",
        'D' | 'x' | 'c' | 'X' | 'R' | 'v' | '+' => "this shorthand is locale-dependent or not largest unit first; spell it out with %Y %m %d %H %M %S",
        'n' | 't' => "write whitespace as a literal character",
        _ => return None,
    })
}

/// One specifier: its width and the ranks it covers (largest unit 0).
fn unit(spec: char) -> Option<(usize, u8, u8)> {
    Some(match spec {
        'Y' => (4, 0, 0),
        'm' => (2, 1, 1),
        'd' => (2, 2, 2),
        'j' => (3, 1, 2),
        'H' => (2, 3, 3),
        'M' => (2, 4, 4),
        'S' => (2, 5, 5),
        _ => return None,
    })
}

/// Checks `format`; `Err` says why, in words for the user.
pub fn check(format: &str) -> Result<FormatInfo, String> {
    let mut info = FormatInfo {
        width: 0,
        time_of_day: false,
        literals: Vec::new(),
    };
    let mut next_rank: Option<u8> = None;
    let mut items = 0usize;
    let mut chars = format.chars().peekable();
    let mut units: Vec<(usize, u8, u8, String)> = Vec::new();
    while let Some(c) = chars.next() {
        if c != '%' {
            if !c.is_ascii() || c.is_ascii_control() {
                return Err(format!(
                    "the literal {c:?} is not printable ASCII; a format's literal characters are \
                     single bytes"
                ));
            }
            info.literals.push(c as u8);
            info.width += 1;
            items += 1;
            continue;
        }
        let Some(spec) = chars.next() else {
            return Err("a lone `%` ends the format; write `%%` for a percent sign".into());
        };
        match spec {
            '%' => {
                info.literals.push(b'%');
                info.width += 1;
                items += 1;
            }
            'F' => {
                units.extend([
                    (4, 0, 0, "%Y".into()),
                    (2, 1, 1, "%m".into()),
                    (2, 2, 2, "%d".into()),
                ]);
                info.literals.extend(b"--");
                info.width += 2;
                items += 2;
            }
            'T' => {
                units.extend([
                    (2, 3, 3, "%H".into()),
                    (2, 4, 4, "%M".into()),
                    (2, 5, 5, "%S".into()),
                ]);
                info.literals.extend(b"::");
                info.width += 2;
                items += 2;
            }
            '3' | '6' | '9' if chars.peek() == Some(&'f') => {
                chars.next();
                let d = spec as usize - '0' as usize;
                units.push((d, 6, 6, format!("%{spec}f")));
            }
            _ => match unit(spec) {
                Some((w, a, b)) => units.push((w, a, b, format!("%{spec}"))),
                None => {
                    return Err(match refused(spec) {
                        Some(why) => format!("`%{spec}`: {why}"),
                        None => format!(
                            "`%{spec}` is not a fixed-width, sortable specifier; use %Y %m %d \
                             %j %H %M %S %3f %6f %9f %F %T or %%"
                        ),
                    })
                }
            },
        }
        // Check the units just added against the ones before.
        for (w, first, last, name) in units.drain(..) {
            if let Some(next) = next_rank {
                if first < next {
                    return Err(format!(
                        "`{name}` comes after a smaller or equal unit: a format goes from the \
                         largest unit to the smallest (year, month, day, hour, minute, second, \
                         fraction), each once, or the text would not sort like the time"
                    ));
                }
                if first > next {
                    return Err(format!(
                        "a unit is missing before `{name}` (such as %Y%d without %m), so the \
                         text would not sort like the time"
                    ));
                }
            }
            next_rank = Some(last + 1);
            info.time_of_day |= first >= 3;
            info.width += w;
            items += 1;
        }
    }
    if next_rank.is_none() {
        return Err("the format has no date or time specifier (%Y, %m, %d, %H, ...)".into());
    }
    if items > 32 {
        return Err("the format has more than 32 specifiers and literal characters".into());
    }
    Ok(info)
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn widths_and_refusals() {
        for (f, w) in [
            ("%Y%m", 6),
            ("%Y-%m", 7),
            ("-%d %H:%M:%S", 12),
            ("%F %T", 19),
            ("%Y%j", 7),
            ("%Y%m%d%H%M%S%3f", 17),
            ("100%%%Y", 8),
        ] {
            assert_eq!(check(f).map(|i| i.width), Ok(w), "{f}");
        }
        assert!(check("-%d %H").unwrap().time_of_day);
        assert!(!check("%Y%m").unwrap().time_of_day);
        for bad in [
            "%m%Y", "%d%m", "%Y%d", "%I", "%B", "%-d", "%y", "%a", "%f", "%", "--", "%Yé",
        ] {
            assert!(check(bad).is_err(), "{bad}");
        }
    }
}
