//! [`Value`]: one field's value, read from a key or from what a person
//! typed, shown the way a person writes it.

use crate::codec::civil::CivilTime;
use crate::key_text::hex;
use crate::KeyDisplay;
use core::fmt;

/// A field's value, as the layout interpreter reads and writes it.
///
/// Its [`Display`](fmt::Display) is the form [`Layout::parse_value`]
/// reads back: `42`, `1.5`, `Temp`, `2026-11-01`,
/// `2026-11-01T07:30:00.250Z`, `12.50`, a UUID hyphenated, text as it is,
/// bytes as HBase's `toStringBinary` (the `0` of bytes that would read as
/// `0x` hex written `\x30`).
///
/// [`Layout::parse_value`]: crate::Layout::parse_value
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A signed integer of any width.
    Int(i128),
    /// An unsigned integer of any width.
    UInt(u128),
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
    /// A `bool`.
    Bool(bool),
    /// A `char`.
    Char(char),
    /// `()`.
    Unit,
    /// UTF-8 text.
    Text(String),
    /// Raw bytes (`Vec<u8>`, `[u8; N]`).
    Bytes(Vec<u8>),
    /// A UUID's 16 bytes.
    Uuid([u8; 16]),
    /// A calendar date (its time of day is midnight).
    Date(CivilTime),
    /// A date and time of day, no zone.
    DateTime(CivilTime),
    /// An instant, in UTC.
    Instant(CivilTime),
    /// A decimal, as its text (`12.50`).
    Decimal(String),
    /// A `#[derive(KeyPart)]` enum's variant.
    Enum {
        /// The variant's name.
        variant: &'static str,
        /// Its position, the byte it is stored as.
        index: u8,
    },
    /// A bit-packed part's fields (`#[bits(n)]`), first field first,
    /// shown `offset=12,flags=3` (a `bool` field as `true`/`false`).
    Bits {
        /// The fields, as the layout names them.
        fields: &'static [crate::codec::BitsField],
        /// Their values, one per field.
        values: Vec<u64>,
    },
    /// An `Option`.
    Option(Option<Box<Value>>),
    /// The bytes of a hand-written `KeyPart` the layout cannot see into.
    Opaque(Vec<u8>),
}

impl Value {
    /// The value as an `i128`, for integers that fit.
    pub fn as_i128(&self) -> Option<i128> {
        match *self {
            Value::Int(v) => Some(v),
            Value::UInt(v) => i128::try_from(v).ok(),
            _ => None,
        }
    }

    /// A number on a time axis: integers as they are, dates as days since
    /// 1970-01-01, date-times and instants as milliseconds since the epoch
    /// (so `#[desc_ts]` dates plot forwards, like the values they hold).
    pub fn as_time_axis(&self) -> Option<f64> {
        match self {
            Value::Int(v) => Some(*v as f64),
            Value::UInt(v) => Some(*v as f64),
            Value::Date(c) => Some(c.epoch_days() as f64),
            Value::DateTime(c) | Value::Instant(c) => {
                Some(c.epoch_nanos().div_euclid(1_000_000) as f64)
            }
            Value::Option(Some(v)) => v.as_time_axis(),
            _ => None,
        }
    }
}

/// Whether text is shown quoted: it holds control characters, or starts
/// with the quote that would otherwise mark it as quoted.
fn needs_quotes(s: &str) -> bool {
    s.starts_with('"') || s.chars().any(char::is_control)
}

/// The text inside `"..."` with Rust's escapes (what `{:?}` of a `str`
/// writes), or `None` if `quoted` is not such a literal.
pub(crate) fn unquote(quoted: &str) -> Option<String> {
    let body = quoted.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return None,
            '\\' => out.push(match chars.next()? {
                'n' => '\n',
                'r' => '\r',
                't' => '\t',
                '0' => '\0',
                '\\' => '\\',
                '"' => '"',
                '\'' => '\'',
                'u' => {
                    let rest = chars.as_str().strip_prefix('{')?;
                    let end = rest.find('}')?;
                    let c = char::from_u32(u32::from_str_radix(&rest[..end], 16).ok()?)?;
                    chars = rest[end + 1..].chars();
                    c
                }
                _ => return None,
            }),
            c => out.push(c),
        }
    }
    Some(out)
}

/// `2026-11-01`, with a sign and at least four digits outside 0..=9999.
fn write_date(f: &mut fmt::Formatter<'_>, c: &CivilTime) -> fmt::Result {
    match c.year {
        0..=9999 => write!(f, "{:04}", c.year)?,
        y if y < 0 => write!(f, "-{:04}", y.unsigned_abs())?,
        y => write!(f, "+{y}")?,
    }
    write!(f, "-{:02}-{:02}", c.month, c.day)
}

/// `T07:30:00`, then `.250`, `.250001` or `.250000001` when not whole.
fn write_time(f: &mut fmt::Formatter<'_>, c: &CivilTime) -> fmt::Result {
    write!(f, "T{:02}:{:02}:{:02}", c.hour, c.minute, c.second)?;
    let ns = c.nanosecond;
    if ns == 0 {
        Ok(())
    } else if ns.is_multiple_of(1_000_000) {
        write!(f, ".{:03}", ns / 1_000_000)
    } else if ns.is_multiple_of(1_000) {
        write!(f, ".{:06}", ns / 1_000)
    } else {
        write!(f, ".{ns:09}")
    }
}

fn uuid_text(b: &[u8; 16]) -> String {
    let h = hex(b).to_ascii_lowercase();
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::UInt(v) => write!(f, "{v}"),
            Value::F32(v) => write!(f, "{v:?}"),
            Value::F64(v) => write!(f, "{v:?}"),
            Value::Bool(v) => write!(f, "{v}"),
            Value::Char(c) => write!(f, "{c}"),
            Value::Unit => f.write_str("()"),
            // Text that a terminal would hide or mangle, or that starts
            // with a quote, is quoted with Rust's escapes (and read back
            // unquoted); plain text is shown as typed.
            Value::Text(s) if needs_quotes(s) => write!(f, "{s:?}"),
            Value::Text(s) => f.write_str(s),
            // Bytes whose `toStringBinary` would read back as `0x` hex
            // (the text `0x12`, not the byte 0x12) start with their `0`
            // escaped: `\x30x12`.
            Value::Bytes(b) => match KeyDisplay(b).to_string() {
                s if reads_as_hex(&s) => write!(f, "\\x30{}", &s[1..]),
                s => f.write_str(&s),
            },
            Value::Uuid(b) => f.write_str(&uuid_text(b)),
            Value::Date(c) => write_date(f, c),
            Value::DateTime(c) => {
                write_date(f, c)?;
                write_time(f, c)
            }
            Value::Instant(c) => {
                write_date(f, c)?;
                write_time(f, c)?;
                f.write_str("Z")
            }
            Value::Decimal(d) => f.write_str(d),
            Value::Enum { variant, .. } => f.write_str(variant),
            Value::Bits { fields, values } => {
                for (i, (field, v)) in fields.iter().zip(values).enumerate() {
                    let sep = if i == 0 { "" } else { "," };
                    if field.boolean {
                        write!(f, "{sep}{}={}", field.name, *v != 0)?;
                    } else {
                        write!(f, "{sep}{}={v}", field.name)?;
                    }
                }
                Ok(())
            }
            Value::Option(None) => f.write_str("None"),
            // `Some(..)` only where the bare value would read as `None`.
            Value::Option(Some(v)) => match v.to_string() {
                s if s == "None" || s.starts_with("Some(") => write!(f, "Some({s})"),
                s => f.write_str(&s),
            },
            Value::Opaque(b) => write!(f, "0x{}", hex(b)),
        }
    }
}

/// Whether `text` is bytes written as `0x` hex (`0x00ff`): `0x` and hex
/// digits, which the interpreter's parser reads as hex rather than as `toStringBinary`
/// (so [`Value`]'s display writes bytes that would look so otherwise).
pub(crate) fn reads_as_hex(text: &str) -> bool {
    text.strip_prefix("0x")
        .is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn civil(y: i32, mo: u8, d: u8, h: u8, mi: u8, s: u8, ns: u32) -> CivilTime {
        CivilTime {
            year: y,
            month: mo,
            day: d,
            hour: h,
            minute: mi,
            second: s,
            nanosecond: ns,
        }
    }

    #[test]
    fn shows_values_as_people_write_them() {
        let t = civil(2026, 11, 1, 7, 30, 0, 250_000_000);
        assert_eq!(Value::Instant(t).to_string(), "2026-11-01T07:30:00.250Z");
        assert_eq!(
            Value::DateTime(civil(2026, 11, 1, 7, 30, 0, 1)).to_string(),
            "2026-11-01T07:30:00.000000001"
        );
        assert_eq!(Value::Date(t).to_string(), "2026-11-01");
        assert_eq!(
            Value::Date(civil(-44, 3, 15, 0, 0, 0, 0)).to_string(),
            "-0044-03-15"
        );
        assert_eq!(Value::F64(1.0).to_string(), "1.0");
        assert_eq!(Value::Text("a\nb".into()).to_string(), "\"a\\nb\"");
        for text in ["a\nb", "\"q\"", "\"", "\u{7f}\\'", "plain"] {
            let shown = Value::Text(text.into()).to_string();
            let back = unquote(&shown).unwrap_or(shown);
            assert_eq!(back, text);
        }
        assert_eq!(Value::Bytes(vec![b'a', 0]).to_string(), "a\\x00");
        // Not `0x12`, which reads back as the one byte 0x12.
        assert_eq!(Value::Bytes(b"0x12".to_vec()).to_string(), "\\x30x12");
        assert_eq!(Value::Bytes(b"0xg".to_vec()).to_string(), "0xg");
        assert_eq!(
            Value::Uuid(*b"\x67\xe5\x50\x44\x10\xb1\x42\x6f\x92\x47\xbb\x68\x0e\x5f\xe0\xc8")
                .to_string(),
            "67e55044-10b1-426f-9247-bb680e5fe0c8"
        );
        let none_text = Value::Option(Some(Box::new(Value::Text("None".into()))));
        assert_eq!(none_text.to_string(), "Some(None)");
        assert_eq!(Value::Option(None).to_string(), "None");
        assert_eq!(Value::Opaque(vec![1, 0xAB]).to_string(), "0x01AB");
    }
}
