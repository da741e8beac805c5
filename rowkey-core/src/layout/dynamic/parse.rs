//! Values from what a person types (`at=2026-11-01T07:30:00Z`,
//! `metric=Temp`, `amount=12.50`), by the field's [`ValueKind`].

use crate::codec::civil::CivilTime;
use crate::key_text::{parse_binary, parse_hex};
use crate::layout::{FieldLayout, ValueKind};
use crate::values::value::{reads_as_hex, unquote, Value};

/// Parses one field's value from text: the field's value kind says the
/// form; an `Option` field takes `None`, `Some(v)` or a bare `v`.
pub(super) fn field_value(f: &FieldLayout, text: &str) -> Result<Value, String> {
    if f.optional {
        return option(text, |t| bare(f, t));
    }
    bare(f, text)
}

fn option(text: &str, inner: impl Fn(&str) -> Result<Value, String>) -> Result<Value, String> {
    if text == "None" {
        return Ok(Value::Option(None));
    }
    let body = text
        .strip_prefix("Some(")
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(text);
    Ok(Value::Option(Some(Box::new(inner(body)?))))
}

fn bare(f: &FieldLayout, text: &str) -> Result<Value, String> {
    kind_value(&f.value, text).or_else(|why| {
        // The codec's own text form, if it has one: the text the key holds.
        let stored = f
            .codec
            .with_codec(f.desc, None, |c| c.parse_stored(&f.value, text));
        match stored {
            Some(Ok(v)) => Ok(v),
            Some(Err(form)) => Err(format!("{why}, or {form}")),
            None => Err(why),
        }
    })
}

/// A value of `kind` from its text.
pub(super) fn kind_value(kind: &ValueKind, text: &str) -> Result<Value, String> {
    let bad = || format!("`{text}` is not {}", kind.example());
    Ok(match *kind {
        ValueKind::Int { bytes, signed } => int(bytes, signed, text)?,
        ValueKind::Float { bytes: 4 } => Value::F32(text.parse().map_err(|_| bad())?),
        ValueKind::Float { .. } => Value::F64(text.parse().map_err(|_| bad())?),
        ValueKind::Bool => Value::Bool(text.parse().map_err(|_| bad())?),
        ValueKind::Char => {
            let mut chars = text.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Value::Char(c),
                _ => return Err(bad()),
            }
        }
        ValueKind::Unit if text.is_empty() || text == "()" => Value::Unit,
        ValueKind::Unit => return Err(bad()),
        ValueKind::ByteArray(n) => {
            let b = bytes(text)?;
            if b.len() != n {
                return Err(format!("{} bytes, the array holds {n}", b.len()));
            }
            Value::Bytes(b)
        }
        // Quoted text (as shown for control characters) is unquoted;
        // anything else is the text itself.
        ValueKind::Text => Value::Text(unquote(text).unwrap_or_else(|| text.to_string())),
        ValueKind::Bytes => Value::Bytes(bytes(text)?),
        ValueKind::Uuid => Value::Uuid(uuid(text).ok_or_else(bad)?),
        ValueKind::Date(_) => {
            let (c, rest) = date(text).ok_or_else(bad)?;
            if !rest.is_empty() {
                return Err(bad());
            }
            Value::Date(c)
        }
        ValueKind::DateTime(_) => Value::DateTime(date_time(text, false).ok_or_else(bad)?),
        ValueKind::Instant(_) => Value::Instant(date_time(text, true).ok_or_else(bad)?),
        ValueKind::Decimal => Value::Decimal(decimal(text).ok_or_else(bad)?),
        ValueKind::Option(inner) => option(text, |t| kind_value(inner, t))?,
        ValueKind::Enum { name, variants } => {
            let index = variants.iter().position(|v| *v == text).ok_or_else(|| {
                format!(
                    "`{text}` is not a variant of {name} ({})",
                    variants.join(", ")
                )
            })?;
            Value::Enum {
                variant: variants[index],
                index: index as u8,
            }
        }
        ValueKind::Newtype { inner, .. } => kind_value(inner, text)?,
        ValueKind::Bits { name, fields } => bits_value(name, fields, text)?,
        ValueKind::Opaque => Value::Opaque(
            parse_hex(text).map_err(|e| format!("give this type's bytes as hex, 0x0102 ({e})"))?,
        ),
    })
}

/// `offset=12,flags=3`: every field of a packed part once, in any
/// order, each within its bits (a `bool` field `true` or `false`).
fn bits_value(
    name: &str,
    fields: &'static [crate::codec::BitsField],
    text: &str,
) -> Result<Value, String> {
    let mut values: Vec<Option<u64>> = vec![None; fields.len()];
    let names = || fields.iter().map(|f| f.name).collect::<Vec<_>>().join(", ");
    for item in text.split(',').filter(|s| !s.trim().is_empty()) {
        let (field, v) = item.split_once('=').ok_or_else(|| {
            format!(
                "`{item}` is not name=value (the fields of {name}: {})",
                names()
            )
        })?;
        let (field, v) = (field.trim(), v.trim());
        let i = fields
            .iter()
            .position(|f| f.name == field)
            .ok_or_else(|| format!("{name} has no field `{field}` (its fields: {})", names()))?;
        if values[i].is_some() {
            return Err(format!("{name}'s field `{field}` is given twice"));
        }
        let f = &fields[i];
        let value = match (f.boolean, v) {
            (true, "true") => 1,
            (true, "false") => 0,
            (true, _) => return Err(format!("`{v}` is not true or false ({name}.{field})")),
            (false, _) => v
                .parse::<u64>()
                .ok()
                .filter(|&n| n <= crate::codec::bits::max_of(f.bits))
                .ok_or_else(|| {
                    format!(
                        "`{v}` is not an integer of {} bits, 0 to {} ({name}.{field})",
                        f.bits,
                        crate::codec::bits::max_of(f.bits)
                    )
                })?,
        };
        values[i] = Some(value);
    }
    let values = values
        .into_iter()
        .zip(fields)
        .map(|(v, f)| v.ok_or_else(|| format!("{name}'s field `{}` is missing", f.name)))
        .collect::<Result<Vec<u64>, String>>()?;
    Ok(Value::Bits { fields, values })
}

fn int(bytes: u8, signed: bool, text: &str) -> Result<Value, String> {
    let bits = 8 * u32::from(bytes);
    let name = format!("{}{bits}", if signed { 'i' } else { 'u' });
    let article = if signed { "an" } else { "a" };
    let bad = || format!("`{text}` is not {article} {name}");
    if signed {
        let v: i128 = text.parse().map_err(|_| bad())?;
        let (lo, hi) = if bits >= 128 {
            (i128::MIN, i128::MAX)
        } else {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        };
        if !(lo..=hi).contains(&v) {
            return Err(format!("{v} is outside {name}'s {lo}..={hi}"));
        }
        Ok(Value::Int(v))
    } else {
        let v: u128 = text.parse().map_err(|_| bad())?;
        if bits < 128 && v >> bits != 0 {
            return Err(format!(
                "{v} is outside {name}'s 0..={}",
                (1u128 << bits) - 1
            ));
        }
        Ok(Value::UInt(v))
    }
}

/// Bytes as `0x` hex, or as `toStringBinary` (`a\x00b`).
fn bytes(text: &str) -> Result<Vec<u8>, String> {
    if reads_as_hex(text) {
        return parse_hex(text).map_err(|e| e.to_string());
    }
    parse_binary(text).map_err(|e| format!("bytes are written as toStringBinary shows them ({e})"))
}

/// A UUID, hyphenated or as 32 hex digits, either case.
fn uuid(text: &str) -> Option<[u8; 16]> {
    let hyphens = [8, 13, 18, 23];
    let digits: String = if text.len() == 36 {
        let ok = text
            .char_indices()
            .all(|(i, c)| hyphens.contains(&i) == (c == '-'));
        if !ok {
            return None;
        }
        text.chars().filter(|c| *c != '-').collect()
    } else {
        text.to_string()
    };
    if digits.len() != 32 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    parse_hex(&digits).ok()?.try_into().ok()
}

/// A decimal: an optional sign, digits, an optional `.` and digits. Kept
/// as typed; the codec normalises it as the derived code does.
fn decimal(text: &str) -> Option<String> {
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    (!int.is_empty() && digits(int) && digits(frac) && !(body.ends_with('.')))
        .then(|| text.to_string())
}

/// `n` digits at the start of `s`, and the rest.
fn digits(s: &str, n: usize) -> Option<(u32, &str)> {
    let d = s.get(..n)?;
    if !d.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((d.parse().ok()?, &s[n..]))
}

/// `2026-11-01` (a year of four or more digits, with an optional sign),
/// and what follows it.
fn date(text: &str) -> Option<(CivilTime, &str)> {
    let (sign, body) = match text.as_bytes().first()? {
        b'-' => (-1, &text[1..]),
        b'+' => (1, &text[1..]),
        _ => (1, text),
    };
    let year_len = body.find('-')?;
    if year_len < 4 {
        return None;
    }
    let (year, rest) = digits(body, year_len)?;
    let (month, rest) = digits(rest.strip_prefix('-')?, 2)?;
    let (day, rest) = digits(rest.strip_prefix('-')?, 2)?;
    let year = i32::try_from(year).ok()? * sign;
    let c = CivilTime::midnight(year, u8::try_from(month).ok()?, u8::try_from(day).ok()?);
    c.is_valid_date().then_some((c, rest))
}

/// `2026-11-01T07:30[:00[.250]]` (or a space for the `T`); with `utc`, an
/// optional `Z` or `±HH:MM` offset, the instant then taken to UTC.
fn date_time(text: &str, utc: bool) -> Option<CivilTime> {
    let (mut c, rest) = date(text)?;
    let rest = rest.strip_prefix(['T', ' '])?;
    let (hour, rest) = digits(rest, 2)?;
    let (minute, mut rest) = digits(rest.strip_prefix(':')?, 2)?;
    let mut second = 0;
    if let Some(r) = rest.strip_prefix(':') {
        (second, rest) = digits(r, 2)?;
    }
    let mut nanos = 0;
    if let Some(r) = rest.strip_prefix('.') {
        let n = r.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 || n > 9 {
            return None;
        }
        let (frac, r) = digits(r, n)?;
        nanos = frac * 10u32.pow(9 - n as u32);
        rest = r;
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    (c.hour, c.minute, c.second, c.nanosecond) = (hour as u8, minute as u8, second as u8, nanos);
    let offset_minutes: i64 = match rest {
        "" => 0,
        "Z" if utc => 0,
        _ if utc => {
            let sign = match rest.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let (h, r) = digits(&rest[1..], 2)?;
            let (m, r) = digits(r.strip_prefix(':')?, 2)?;
            if !r.is_empty() || h > 23 || m > 59 {
                return None;
            }
            sign * i64::from(h * 60 + m)
        }
        _ => return None,
    };
    if offset_minutes == 0 {
        return Some(c);
    }
    CivilTime::from_epoch_nanos(c.epoch_nanos() - i128::from(offset_minutes) * 60_000_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_people_type() {
        let instant = ValueKind::Instant(crate::layout::TimeCrate::Chrono);
        let v = kind_value(&instant, "2026-11-01T07:30:00Z").unwrap();
        assert_eq!(v.to_string(), "2026-11-01T07:30:00Z");
        let v = kind_value(&instant, "2026-11-01T09:30:00.5+02:00").unwrap();
        assert_eq!(v.to_string(), "2026-11-01T07:30:00.500Z");
        assert!(kind_value(&instant, "2026-11-01T25:00:00Z").is_err());
        assert!(kind_value(&instant, "2026-02-30T00:00:00Z").is_err());
        let date = ValueKind::Date(crate::layout::TimeCrate::Time);
        assert_eq!(
            kind_value(&date, "-0044-03-15").unwrap().to_string(),
            "-0044-03-15"
        );
        assert!(kind_value(&date, "2026-11-01T00:00").is_err());
        let u8k = ValueKind::Int {
            bytes: 1,
            signed: false,
        };
        assert!(kind_value(&u8k, "256")
            .unwrap_err()
            .contains("outside u8's 0..=255"));
        let uuid = kind_value(&ValueKind::Uuid, "67E55044-10B1-426F-9247-BB680E5FE0C8").unwrap();
        assert_eq!(uuid.to_string(), "67e55044-10b1-426f-9247-bb680e5fe0c8");
        assert_eq!(
            kind_value(&ValueKind::Bytes, "0x00ff").unwrap(),
            Value::Bytes(vec![0, 0xFF])
        );
        assert_eq!(
            kind_value(&ValueKind::Bytes, "a\\x00").unwrap(),
            Value::Bytes(vec![b'a', 0])
        );
        assert!(kind_value(&ValueKind::Decimal, "1.").is_err());
        assert!(kind_value(&ValueKind::Decimal, "-12.50").is_ok());
    }
}
