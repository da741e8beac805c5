//! What every derived layout satisfies, checked when a layout is read
//! from JSON ([`Layout::from_json`]): a file that breaks it was edited by
//! hand or is not a layout, and decoding with it would mislead or fail.
//! A derive could only have written a layout whose codecs take its
//! fields' values with parameters the attributes allow, whose lengths,
//! orders and offsets are what the codecs say, and whose names can be
//! named.

use super::rules::{decimal_text_is_valid, MAX_DECIMAL_DIGITS, MAX_DECIMAL_SCALE};
use super::{FieldCodec, KeyPrefix, Layout, ValueKind};
use crate::salt::MAX_BUCKETS;

/// Whether a value kind is one a derive writes: integer and float widths
/// that exist, enums of 1..=256 variants.
fn check_kind(k: &ValueKind) -> Result<(), String> {
    match *k {
        ValueKind::Int { bytes, .. } if ![1, 2, 4, 8, 16].contains(&bytes) => {
            Err(format!("an integer of {bytes} bytes"))
        }
        ValueKind::Float { bytes } if bytes != 4 && bytes != 8 => {
            Err(format!("a float of {bytes} bytes"))
        }
        ValueKind::Enum { variants, name } if variants.is_empty() || variants.len() > 256 => Err(
            format!("enum {name} with {} variants (1..=256)", variants.len()),
        ),
        ValueKind::Enum { variants, name } => {
            for (i, v) in variants.iter().enumerate() {
                if variants[..i].contains(v) {
                    return Err(format!(
                        "enum {name}, whose variant {v} is named twice (bytes {} and {i}): a \
                         value of it could be written two ways",
                        variants[..i].iter().position(|w| w == v).unwrap_or(0)
                    ));
                }
            }
            Ok(())
        }
        ValueKind::Option(inner) | ValueKind::Newtype { inner, .. } => check_kind(inner),
        _ => Ok(()),
    }
}

/// What every derived layout satisfies; a file that breaks it was edited
/// by hand or is not a layout, and decoding with it would mislead.
pub(super) fn validate(l: &Layout) -> Result<(), String> {
    if l.fields.is_empty() {
        return Err("it has no fields".into());
    }
    // Every derived layout fits HBase's limit (the derive asserts it).
    let too_long = |n: usize| n > crate::HBASE_MAX_KEY_LEN;
    if too_long(l.max_len) || l.fields.iter().any(|f| too_long(f.max_len)) {
        return Err(format!(
            "it allows keys over HBase's {}-byte limit",
            crate::HBASE_MAX_KEY_LEN
        ));
    }
    if let Some(sep) = l.separator {
        if !sep.is_ascii() {
            return Err(format!("the separator {sep:?} is not one ASCII byte"));
        }
    }
    let has = |name: &str| l.fields.iter().any(|f| f.name == name);
    for (i, f) in l.fields.iter().enumerate() {
        check_kind(&f.value).map_err(|why| format!("field `{}` is {why}", f.name))?;
        check_codec(&f.codec).map_err(|why| format!("field `{}`: {why}", f.name))?;
        check_pair(&f.codec, &f.value).map_err(|why| format!("field `{}`: {why}", f.name))?;
        if l.fields[..i].iter().any(|g| g.name == f.name) {
            return Err(format!("field `{}` appears twice", f.name));
        }
        if f.codec.ends_the_key() && i + 1 != l.fields.len() {
            return Err(format!(
                "field `{}` is raw (runs to the key's end) but is not the last field",
                f.name
            ));
        }
    }
    match &l.prefix {
        Some(KeyPrefix::Salt(s)) => {
            if s.buckets == 0 || s.buckets > MAX_BUCKETS {
                return Err(format!("salt buckets = {} outside 1..=65536", s.buckets));
            }
            for i in s.inputs {
                if !has(i) {
                    return Err(format!("the salt hashes field `{i}`, which is not a field"));
                }
            }
            if let Some(g) = &s.groups {
                if !has(g.field) {
                    return Err(format!(
                        "the salt groups by `{}`, which is not a field",
                        g.field
                    ));
                }
                if u64::from(g.groups) * u64::from(g.per_group) != u64::from(s.buckets) {
                    return Err(format!(
                        "{} groups of {} buckets are not the {} buckets",
                        g.groups, g.per_group, s.buckets
                    ));
                }
            }
        }
        Some(KeyPrefix::HashPrefix(h)) => {
            if !has(h.field) {
                return Err(format!(
                    "the hash prefix hashes `{}`, which is not a field",
                    h.field
                ));
            }
            let max = if h.binary {
                h.hash.digest_len()
            } else {
                2 * h.hash.digest_len()
            };
            if h.len == 0 || h.len > max {
                return Err(format!("a hash prefix of {} outside 1..={max}", h.len));
            }
        }
        None => {}
    }
    Ok(())
}

/// Whether a codec's own parameters are ones its attribute takes.
fn check_codec(codec: &FieldCodec) -> Result<(), String> {
    match *codec {
        FieldCodec::DecimalText { width, scale } => check_decimal_text(width, scale),
        _ => Ok(()),
    }
}

/// `#[text(width, scale)]` on a decimal: the derive's rules
/// ([`decimal_text_is_valid`]), each refusal saying which is broken.
fn check_decimal_text(width: usize, scale: u32) -> Result<(), String> {
    let attr = format!("#[text(width = {width}, scale = {scale})]");
    if scale > MAX_DECIMAL_SCALE {
        return Err(format!(
            "{attr} asks for more decimals than a Decimal holds ({MAX_DECIMAL_SCALE})"
        ));
    }
    let point = usize::from(scale > 0);
    if width <= scale as usize + point {
        return Err(format!(
            "{attr} leaves no digit before the point: {scale} decimals{} need a width of at \
             least {}",
            if point == 1 { " and the `.`" } else { "" },
            scale as usize + point + 1
        ));
    }
    if width - point > MAX_DECIMAL_DIGITS {
        return Err(format!(
            "{attr} is more than {MAX_DECIMAL_DIGITS} digits, more than a Decimal ever has"
        ));
    }
    debug_assert!(decimal_text_is_valid(width, scale));
    Ok(())
}

/// Whether `codec` takes values of `kind`: the pairs the derive picks
/// (the interpreter would refuse any other at every key).
fn check_pair(codec: &FieldCodec, kind: &ValueKind) -> Result<(), String> {
    let k = kind.unwrapped();
    let takes = match codec {
        FieldCodec::Binary => !matches!(k, ValueKind::Text | ValueKind::Bytes),
        FieldCodec::Text { .. } => matches!(k, ValueKind::Int { .. }),
        FieldCodec::Bytes { .. } => matches!(k, ValueKind::Text | ValueKind::Bytes),
        FieldCodec::DescTimestamp { .. } => matches!(
            k,
            ValueKind::Int { bytes: 8, .. } | ValueKind::DateTime(_) | ValueKind::Instant(_)
        ),
        FieldCodec::DateText { format } => match k {
            ValueKind::Date(_) if format.has_time_of_day() => {
                return Err(format!(
                    "a date has no time of day for #[text(format = \"{format}\")]'s hours, \
                     minutes or seconds"
                ))
            }
            ValueKind::Date(_) | ValueKind::DateTime(_) | ValueKind::Instant(_) => true,
            _ => false,
        },
        FieldCodec::UuidText => matches!(k, ValueKind::Uuid),
        FieldCodec::DecimalText { .. } => matches!(k, ValueKind::Decimal),
    };
    if takes {
        return Ok(());
    }
    let codec = match codec {
        FieldCodec::Binary => "the binary codec (text and bytes take #[max_len] or #[pad])",
        FieldCodec::Text { .. } => "#[text(width = N)] writes integers as digits",
        FieldCodec::Bytes { .. } => "#[max_len] and #[pad] write text and bytes",
        FieldCodec::DescTimestamp { .. } => {
            "#[desc_ts] takes an i64 or u64 timestamp, a date-time or an instant"
        }
        FieldCodec::DateText { .. } => "#[text(format = \"..\")] writes dates and times",
        FieldCodec::UuidText => "#[text] as 36 characters is a UUID's",
        FieldCodec::DecimalText { .. } => "#[text(width, scale)] writes decimals",
    };
    Err(format!("{codec}; its value is {}", kind_name(kind)))
}

/// A value kind as the error about it names it.
fn kind_name(kind: &ValueKind) -> String {
    match *kind {
        ValueKind::Int { bytes, signed } => {
            format!("{}{}", if signed { 'i' } else { 'u' }, u32::from(bytes) * 8)
        }
        ValueKind::Float { bytes } => format!("f{}", u32::from(bytes) * 8),
        ValueKind::Bool => "bool".into(),
        ValueKind::Char => "char".into(),
        ValueKind::Unit => "()".into(),
        ValueKind::ByteArray(n) => format!("[u8; {n}]"),
        ValueKind::Text => "text".into(),
        ValueKind::Bytes => "bytes".into(),
        ValueKind::Uuid => "a UUID".into(),
        ValueKind::Date(_) => "a date".into(),
        ValueKind::DateTime(_) => "a date-time".into(),
        ValueKind::Instant(_) => "an instant".into(),
        ValueKind::Decimal => "a decimal".into(),
        ValueKind::Option(inner) => format!("an Option of {}", kind_name(inner)),
        ValueKind::Enum { name, .. } => format!("enum {name}"),
        ValueKind::Newtype { name, inner } => format!("{name} (of {})", kind_name(inner)),
        ValueKind::Opaque => "a hand-written KeyPart".into(),
    }
}

#[cfg(test)]
#[path = "validate_tests.rs"]
mod tests;
