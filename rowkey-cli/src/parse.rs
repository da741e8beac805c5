//! Field values from command-line text (`field=value`), by the field's
//! type as the layout records it.

use crate::keytext;
use crate::kind::{self, IntTy, PartKind};
use crate::value::Value;
use rowkey_core::layout::{FieldCodec, FieldLayout, Layout};

/// Parses `field=value` arguments into one value per field of `layout`,
/// in field order. Unknown, repeated and missing fields are errors that
/// name them.
///
/// ```
/// use rowkey::RowKey;
/// #[derive(RowKey)]
/// struct Op { uid: u64, #[desc_ts] at: i64 }
/// let args = ["at=10".to_string(), "uid=7".to_string()];
/// let values = rowkey_cli::parse::assignments(Op::layout(), &args).unwrap();
/// assert_eq!(values[0].to_string(), "7");
/// let e = rowkey_cli::parse::assignments(Op::layout(), &["user=1".into()]).unwrap_err();
/// assert!(e.starts_with("Op has no field `user`"));
/// ```
pub fn assignments(layout: &Layout, args: &[String]) -> Result<Vec<Value>, String> {
    let mut values: Vec<Option<Value>> = vec![None; layout.fields.len()];
    let names = || {
        layout
            .fields
            .iter()
            .map(|f| f.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    for arg in args {
        let Some((name, text)) = arg.split_once('=') else {
            return Err(format!("`{arg}` is not field=value (fields: {})", names()));
        };
        let Some(i) = layout.fields.iter().position(|f| f.name == name) else {
            return Err(format!(
                "{} has no field `{name}` (fields: {})",
                layout.name,
                names()
            ));
        };
        if values[i].is_some() {
            return Err(format!("field `{name}` is given twice"));
        }
        let f = &layout.fields[i];
        values[i] =
            Some(value(f, text).map_err(|why| format!("field `{name}` ({}): {why}", f.rust_type))?);
    }
    let missing: Vec<&str> = layout
        .fields
        .iter()
        .zip(&values)
        .filter(|(_, v)| v.is_none())
        .map(|(f, _)| f.name)
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "missing {}: every field of {} needs a value",
            missing.join(", "),
            layout.name
        ));
    }
    Ok(values.into_iter().flatten().collect())
}

/// One field's value from its text.
pub fn value(f: &FieldLayout, text: &str) -> Result<Value, String> {
    if f.optional {
        return option(text, |t| bare_value(f, t));
    }
    bare_value(f, text)
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

fn bare_value(f: &FieldLayout, text: &str) -> Result<Value, String> {
    match f.codec {
        FieldCodec::Binary => part(&kind::binary_kind(f), text),
        FieldCodec::Text { .. } | FieldCodec::DescTimestamp { .. } => {
            let ty =
                kind::int_type(f).ok_or("the layout gives it a type that is not an integer")?;
            int(ty, text)
        }
        FieldCodec::Bytes { .. } if kind::is_text(f) => Ok(Value::Text(text.to_string())),
        FieldCodec::DateText { .. } | FieldCodec::UuidText | FieldCodec::DecimalText { .. } => {
            Ok(Value::Text(text.to_string()))
        }
        FieldCodec::Bytes { .. } => keytext::parse_binary(text)
            .map(Value::Bytes)
            .map_err(|e| format!("bytes are written as toStringBinary shows them ({e})")),
    }
}

fn int(ty: IntTy, text: &str) -> Result<Value, String> {
    let bad = || format!("`{text}` is not a {}", ty.name());
    let bits = 8 * ty.bytes() as u32;
    if ty.signed() {
        let v: i128 = text.parse().map_err(|_| bad())?;
        let (lo, hi) = if bits == 128 {
            (i128::MIN, i128::MAX)
        } else {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        };
        if !(lo..=hi).contains(&v) {
            return Err(format!("{v} is outside {}'s {lo}..={hi}", ty.name()));
        }
        Ok(Value::Int(v))
    } else {
        let v: u128 = text.parse().map_err(|_| bad())?;
        if bits < 128 && v >> bits != 0 {
            return Err(format!(
                "{v} is outside {}'s 0..={}",
                ty.name(),
                (1u128 << bits) - 1
            ));
        }
        Ok(Value::UInt(v))
    }
}

fn part(kind: &PartKind, text: &str) -> Result<Value, String> {
    let bad = |what: &str| format!("`{text}` is not {what}");
    Ok(match kind {
        PartKind::Int(t) => int(*t, text)?,
        PartKind::F32 => Value::F32(text.parse().map_err(|_| bad("an f32"))?),
        PartKind::F64 => Value::F64(text.parse().map_err(|_| bad("an f64"))?),
        PartKind::Bool => Value::Bool(text.parse().map_err(|_| bad("true or false"))?),
        PartKind::Char => {
            let mut chars = text.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Value::Char(c),
                _ => return Err(bad("one character")),
            }
        }
        PartKind::Array(n) => {
            let b = keytext::parse_binary(text).map_err(|e| e.to_string())?;
            if b.len() != *n {
                return Err(format!("{} bytes, the array holds {n}", b.len()));
            }
            Value::Bytes(b)
        }
        PartKind::Unit => Value::Unit,
        PartKind::Uuid => Value::Uuid(
            uuid::Uuid::try_parse(text).map_err(|_| bad("a UUID (hyphenated or 32 hex digits)"))?,
        ),
        PartKind::Date => Value::Date(text.parse().map_err(|_| bad("a date (2021-12-01)"))?),
        PartKind::Date9999 => {
            let d = text.parse().map_err(|_| bad("a date (2021-12-01)"))?;
            if !crate::value::within_9999(d) {
                return Err(bad("a date within ±9999 years"));
            }
            Value::Date(d)
        }
        PartKind::Decimal => Value::Decimal(text.parse().map_err(|_| bad("a decimal (19.99)"))?),
        PartKind::DateTime => Value::DateTime(
            text.parse()
                .map_err(|_| bad("a date and time (2021-12-01T08:30:00)"))?,
        ),
        PartKind::DateTimeUtc => Value::DateTimeUtc(
            text.parse()
                .map_err(|_| bad("a UTC time (2021-12-01T08:30:00Z)"))?,
        ),
        PartKind::Option(inner) => option(text, |t| part(inner, t))?,
        PartKind::Opaque(n) => {
            let b = keytext::parse_hex(text).map_err(|e| {
                format!("a type the layout cannot describe is given as its bytes in hex ({e})")
            })?;
            if let Some(n) = n {
                if b.len() != *n {
                    return Err(format!(
                        "{} bytes of hex, the type always writes {n}",
                        b.len()
                    ));
                }
            }
            Value::Opaque(b)
        }
    })
}
