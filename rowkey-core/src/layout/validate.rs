//! What every derived layout satisfies, checked when a layout is read
//! from JSON ([`Layout::from_json`]): a file that breaks it was edited by
//! hand or is not a layout, and decoding with it would mislead or fail.
//! A derive could only have written a layout whose codecs take its
//! fields' values with parameters the attributes allow, whose lengths,
//! orders and offsets are what the codecs say, and whose names can be
//! named.

use super::lengths::{self, add_fixed};
use super::rules::{
    decimal_text_is_valid, int_digits, PartFacts, DECIMAL_PART_MAX_LEN, MAX_DECIMAL_DIGITS,
    MAX_DECIMAL_SCALE, MAX_TEXT_DIGITS,
};
use super::{FieldCodec, FieldLayout, KeyPrefix, Layout, Order, ValueKind};
use crate::codec::phoenix::PhoenixType;
use crate::codec::{Framing, Reverse};
use crate::salt::{BucketFormat, SaltHash, MAX_BUCKETS, PHOENIX_MAX_BUCKETS};

/// Whether a packed part is one the derive writes: named fields of 1 to
/// 64 bits (a `bool` of 1), whole bytes, at most 64 bits in all.
fn check_bits(name: &str, fields: &[crate::codec::BitsField]) -> Result<(), String> {
    let total: u32 = fields.iter().map(|f| u32::from(f.bits)).sum();
    if fields.is_empty() || !total.is_multiple_of(8) || total > crate::codec::bits::MAX_BITS {
        return Err(format!(
            "bits {name} of {total} bits (whole bytes, 8 to 64, in at least one field)"
        ));
    }
    for f in fields {
        if f.bits == 0 || !is_ident(f.name) || (f.boolean && f.bits != 1) {
            return Err(format!(
                "bits {name}, whose field {:?} of {} bits no derive writes",
                f.name, f.bits
            ));
        }
    }
    Ok(())
}

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
        ValueKind::Bits { name, fields } => check_bits(name, fields),
        ValueKind::Enum { variants, name } if variants.is_empty() || variants.len() > 256 => Err(
            format!("enum {name} with {} variants (1..=256)", variants.len()),
        ),
        ValueKind::Enum { variants, name } => {
            for (i, v) in variants.iter().enumerate() {
                if !is_ident(v) {
                    return Err(format!(
                        "enum {name}, whose variant {v:?} is not a Rust name, so no value names it"
                    ));
                }
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
    let separator = l.separator.map(|c| c as u8);
    for (i, f) in l.fields.iter().enumerate() {
        if !is_ident(f.name) {
            return Err(format!(
                "field {:?} is not a Rust name, so no assignment or scan can name it",
                f.name
            ));
        }
        check_kind(&f.value).map_err(|why| format!("field `{}` is {why}", f.name))?;
        check_codec(&f.codec, f.value.unwrapped())
            .map_err(|why| format!("field `{}`: {why}", f.name))?;
        check_pair(&f.codec, &f.value).map_err(|why| format!("field `{}`: {why}", f.name))?;
        check_attrs(f, separator, i + 1 == l.fields.len())
            .map_err(|why| format!("field `{}`: {why}", f.name))?;
        check_lengths(f).map_err(|why| format!("field `{}` {why}", f.name))?;
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
    let prefix_separator = match &l.prefix {
        Some(KeyPrefix::Salt(s)) => s.separator,
        Some(KeyPrefix::HashPrefix(h)) => h.separator,
        None => separator,
    };
    if prefix_separator != separator {
        return Err(format!(
            "its prefix ends with separator {:?} but its fields are joined by {:?}",
            prefix_separator.map(char::from),
            l.separator
        ));
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
    if l.is_phoenix() {
        check_phoenix(l)?;
    }
    check_key_lengths(l)
}

/// A Phoenix key's rules (`#[rowkey(phoenix)]`): every field a Phoenix
/// column, `last` on the last one only, NULL only in a variable-length
/// column, `VARBINARY` last and ascending, no `DESC BOOLEAN`, and a salt
/// of Phoenix's hash over the whole key.
fn check_phoenix(l: &Layout) -> Result<(), String> {
    let n = l.fields.len();
    for (i, f) in l.fields.iter().enumerate() {
        let FieldCodec::Phoenix { ty, last, max_len } = f.codec else {
            return Err(format!(
                "field `{}` is not a Phoenix column, in a Phoenix key",
                f.name
            ));
        };
        let why = if last != (i + 1 == n) {
            Some("it says it is the last column and is not, or the other way")
        } else if f.optional && ty.fixed_width().is_some() {
            Some("a fixed-width Phoenix key column is never NULL")
        } else if matches!(ty, PhoenixType::Varbinary) && (f.desc || !last) {
            Some("Phoenix keys a VARBINARY only as the last column, ascending")
        } else if matches!(ty, PhoenixType::Boolean) && f.desc {
            Some("Phoenix 5.2.1 reads a DESC BOOLEAN key back wrong")
        } else if matches!(
            ty,
            PhoenixType::Char { len: 0 } | PhoenixType::Binary { len: 0 }
        ) || matches!(ty, PhoenixType::Decimal { precision: Some(p), scale }
                if p == 0 || p > 38 || scale.is_some_and(|s| s > p))
        {
            Some("its length, precision or scale is not one Phoenix takes")
        } else if ty.max_width().is_some_and(|w| w != max_len)
            || (ty.max_width().is_none() && max_len == 0)
        {
            Some("its most bytes are not its type's")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(format!("field `{}` ({ty}): {why}", f.name));
        }
    }
    match &l.prefix {
        Some(KeyPrefix::Salt(s))
            if s.hash != SaltHash::Phoenix
                || s.buckets > PHOENIX_MAX_BUCKETS
                || s.format != BucketFormat::Binary
                || s.groups.is_some() =>
        {
            Err(format!(
                "a Phoenix key's salt is Phoenix's: its hash of the whole key into one byte, at \
                 most {PHOENIX_MAX_BUCKETS} buckets, no groups"
            ))
        }
        Some(KeyPrefix::HashPrefix(_)) => Err("a Phoenix key has no hash prefix".into()),
        _ => Ok(()),
    }
}

/// Whether `s` is a Rust name (a field's or a variant's, as the derive
/// records them: raw names without `r#`), which an assignment (`name=..`)
/// or a scan can address.
fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c == '_' || c.is_alphabetic() => {}
        _ => return false,
    }
    s != "_" && chars.all(|c| c == '_' || c.is_alphanumeric())
}

/// The facts of the binary part a value kind is, as its `KeyPart` says;
/// `None` for a hand-written part (or one inside an `Option` or newtype),
/// whose facts only the layout records.
fn part_facts(kind: &ValueKind) -> Option<PartFacts> {
    let fixed = |n: usize| PartFacts {
        max_len: n,
        fixed_len: Some(n),
        ordered: true,
    };
    match *kind {
        ValueKind::Option(inner) => part_facts(inner).map(|p| PartFacts {
            max_len: p.max_len.saturating_add(1),
            fixed_len: None,
            ordered: p.ordered,
        }),
        ValueKind::Newtype { inner, .. } => part_facts(inner),
        ValueKind::Decimal => Some(PartFacts {
            max_len: DECIMAL_PART_MAX_LEN,
            fixed_len: None,
            ordered: true,
        }),
        ValueKind::Opaque | ValueKind::Text | ValueKind::Bytes => None,
        ref k => k.part_fixed_len().map(fixed),
    }
}

/// Field `f`'s lengths and order as its codec computes them
/// ([`FieldLayout::of`], what the derive calls): a hand-written part's
/// own facts are taken from what the layout records.
fn derived(f: &FieldLayout) -> Result<FieldLayout, String> {
    let part = match f.codec {
        FieldCodec::Binary => match part_facts(&f.value) {
            Some(p) => p,
            None => {
                let tag = usize::from(f.optional);
                let max_len = f.max_len.checked_sub(tag).ok_or_else(|| {
                    "says it takes 0 bytes, but an Option takes its tag byte".to_string()
                })?;
                if f.fixed_len.is_some_and(|n| n > max_len) {
                    return Err(format!(
                        "says it always takes {} bytes but at most {max_len}",
                        f.fixed_len.unwrap_or_default()
                    ));
                }
                PartFacts {
                    max_len,
                    fixed_len: if f.optional { None } else { f.fixed_len },
                    ordered: f.order != Order::Unordered,
                }
            }
        },
        _ => PartFacts::NOT_BINARY,
    };
    Ok(FieldLayout::of(
        f.name,
        f.rust_type,
        f.value,
        f.codec,
        f.optional,
        f.desc,
        part,
    ))
}

/// A field's fixed or varying length, as an error says it.
fn length_words(n: Option<usize>) -> String {
    match n {
        Some(n) => format!("always takes {n} bytes"),
        None => "takes a varying number of bytes".into(),
    }
}

/// A field's recorded lengths and order against its codec's.
fn check_lengths(f: &FieldLayout) -> Result<(), String> {
    let d = derived(f)?;
    if f.max_len != d.max_len {
        return Err(format!(
            "says it takes at most {} bytes; its codec takes at most {}",
            f.max_len, d.max_len
        ));
    }
    if f.fixed_len != d.fixed_len {
        return Err(format!(
            "says it {}; its codec {}",
            length_words(f.fixed_len),
            length_words(d.fixed_len)
        ));
    }
    if f.order != d.order {
        return Err(format!(
            "says its bytes sort {:?}; its codec's sort {:?}",
            f.order, d.order
        ));
    }
    Ok(())
}

/// Each field's offset and the key's lengths against those its prefix,
/// separators and fields make ([`lengths`](super::lengths), as the
/// derive computes them).
fn check_key_lengths(l: &Layout) -> Result<(), String> {
    let prefix_len = l.prefix.as_ref().map_or(0, KeyPrefix::len);
    let sep_len = usize::from(l.separator.is_some());
    let mut offset = Some(prefix_len);
    for f in l.fields {
        if f.offset != offset {
            let at = |o: Option<usize>| match o {
                Some(o) => format!("at byte {o}"),
                None => "at no fixed byte".to_string(),
            };
            return Err(format!(
                "field `{}` says it starts {}; the bytes before it end {}",
                f.name,
                at(f.offset),
                at(offset)
            ));
        }
        offset = add_fixed(add_fixed(offset, f.fixed_len), Some(sep_len));
    }
    let fixed = prefix_len + sep_len * (l.fields.len() - 1);
    let max_len = lengths::max_len(l.fields, fixed);
    if l.max_len != max_len {
        return Err(format!(
            "the key says it takes at most {} bytes; its prefix, separators and fields take at \
             most {max_len}",
            l.max_len
        ));
    }
    let fixed_len = lengths::fixed_len(l.fields, fixed);
    if l.fixed_len != fixed_len {
        let words = |n: Option<usize>| match n {
            Some(n) => format!("every key {n} bytes"),
            None => "keys of varying length".to_string(),
        };
        return Err(format!(
            "the key's fixed_len says {}; its prefix, separators and fields make {}",
            words(l.fixed_len),
            words(fixed_len)
        ));
    }
    Ok(())
}

/// The attribute rules that look at a field's codec with its `#[desc]`
/// and the key's separator (`last`: it ends the key).
fn check_attrs(f: &FieldLayout, separator: Option<u8>, last: bool) -> Result<(), String> {
    let reversed = match f.codec {
        FieldCodec::Text { reverse, .. } => reverse,
        FieldCodec::Bytes { reverse, .. } => reverse != Reverse::No,
        _ => false,
    };
    if f.desc {
        if reversed {
            return Err(
                "#[desc] with #[reverse]: a reversed field keeps no order to invert".into(),
            );
        }
        let no_desc = match f.codec {
            FieldCodec::DescTimestamp { .. } => Some("#[desc_ts], which sorts newest first"),
            FieldCodec::DateText { .. } => Some("a date format"),
            FieldCodec::UuidText => Some("a UUID's text"),
            FieldCodec::DecimalText { .. } => Some("a decimal's text"),
            _ => None,
        };
        if let Some(what) = no_desc {
            return Err(format!("#[desc] on {what}"));
        }
        if f.codec == FieldCodec::Binary && f.value.part_fixed_len().is_none() {
            // A hand-written part's width is what the layout records.
            let opaque_fixed = f.value == ValueKind::Opaque && !f.optional && f.fixed_len.is_some();
            if !opaque_fixed {
                return Err(format!(
                    "#[desc] on {}, whose width varies: inverted bytes need a fixed width",
                    kind_name(&f.value)
                ));
            }
        }
        if separator.is_some() {
            return Err(
                "#[desc] in a separator-joined key: inverted bytes can equal the separator".into(),
            );
        }
    }
    if let FieldCodec::Bytes { framing, .. } = f.codec {
        let refusal = match (framing, separator) {
            (Framing::Raw, _) if f.desc => Some("raw (unterminated) bytes under #[desc]"),
            (Framing::Raw, Some(_)) => Some("raw bytes in a separator-joined key"),
            (Framing::Raw, None) if !last => Some("raw bytes before another field"),
            (Framing::Escaped, Some(_)) => Some("escaped bytes in a separator-joined key"),
            (Framing::Delimited, None) => Some("delimited text in a key with no separator"),
            (Framing::Padded { fill, .. }, Some(sep)) if fill == sep => {
                Some("a pad fill that is the key's separator")
            }
            _ => None,
        };
        if let Some(why) = refusal {
            return Err(format!("{why}: the derive never writes it"));
        }
    }
    if let Some(sep) = separator {
        if f.codec.writes_any_byte() {
            return Err(format!(
                "binary bytes in a key joined by {:?}: they can include the separator",
                sep as char
            ));
        }
        if f.codec.can_write(sep, false) {
            return Err(format!(
                "its text can hold the separator {:?}, so a key would split wrong",
                sep as char
            ));
        }
    }
    Ok(())
}

/// Whether a codec's own parameters are ones its attribute takes, for a
/// value of `kind` (under any newtype).
fn check_codec(codec: &FieldCodec, kind: &ValueKind) -> Result<(), String> {
    match *codec {
        FieldCodec::DecimalText { width, scale } => check_decimal_text(width, scale),
        FieldCodec::Text { width, .. } => {
            // A newtype's digits are its own `TextInt`'s: at most u128's.
            let max = match *kind {
                ValueKind::Int { bytes, signed } => int_digits(usize::from(bytes), signed),
                _ => MAX_TEXT_DIGITS,
            };
            if width == 0 || width > max {
                return Err(format!("#[text(width = {width})] outside 1..={max} digits"));
            }
            Ok(())
        }
        FieldCodec::Bytes {
            framing, max_len, ..
        } => {
            if max_len == 0 || max_len > crate::HBASE_MAX_KEY_LEN {
                return Err(format!(
                    "a length bound of {max_len} bytes outside 1..={}",
                    crate::HBASE_MAX_KEY_LEN
                ));
            }
            match framing {
                Framing::Padded { width, .. } if width != max_len => Err(format!(
                    "#[pad(width = {width})] with a length bound of {max_len}: the pad width is \
                     the bound"
                )),
                _ => Ok(()),
            }
        }
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
        FieldCodec::Phoenix { ty, .. } => *k == ty.value_kind(),
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
        FieldCodec::Phoenix { .. } => "a Phoenix column takes its type's values",
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
        ValueKind::Bits { name, .. } => format!("bits {name}"),
    }
}

#[cfg(test)]
#[path = "validate_tests.rs"]
mod tests;
