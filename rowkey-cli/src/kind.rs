//! What a field's Rust type, as the layout spells it, says about its bytes:
//! the types whose encoding rowkey defines, and everything else (a user's
//! `KeyPart`), which is shown as hex.

use rowkey_core::layout::{FieldCodec, FieldLayout};

/// An integer type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum IntTy {
    U8,
    U16,
    U32,
    U64,
    U128,
    I8,
    I16,
    I32,
    I64,
    I128,
}

impl IntTy {
    fn parse(ty: &str) -> Option<IntTy> {
        Some(match ty {
            "u8" => IntTy::U8,
            "u16" => IntTy::U16,
            "u32" => IntTy::U32,
            "u64" => IntTy::U64,
            "u128" => IntTy::U128,
            "i8" => IntTy::I8,
            "i16" => IntTy::I16,
            "i32" => IntTy::I32,
            "i64" => IntTy::I64,
            "i128" => IntTy::I128,
            _ => return None,
        })
    }

    /// Bytes in binary.
    pub fn bytes(self) -> usize {
        match self {
            IntTy::U8 | IntTy::I8 => 1,
            IntTy::U16 | IntTy::I16 => 2,
            IntTy::U32 | IntTy::I32 => 4,
            IntTy::U64 | IntTy::I64 => 8,
            IntTy::U128 | IntTy::I128 => 16,
        }
    }

    /// Whether it is signed.
    pub fn signed(self) -> bool {
        matches!(
            self,
            IntTy::I8 | IntTy::I16 | IntTy::I32 | IntTy::I64 | IntTy::I128
        )
    }

    /// The type's name.
    pub fn name(self) -> &'static str {
        match self {
            IntTy::U8 => "u8",
            IntTy::U16 => "u16",
            IntTy::U32 => "u32",
            IntTy::U64 => "u64",
            IntTy::U128 => "u128",
            IntTy::I8 => "i8",
            IntTy::I16 => "i16",
            IntTy::I32 => "i32",
            IntTy::I64 => "i64",
            IntTy::I128 => "i128",
        }
    }
}

/// A binary key part's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartKind {
    /// Big-endian, sign bit flipped when signed.
    Int(IntTy),
    /// `f32`, IEEE 754 bits in total order.
    F32,
    /// `f64`, IEEE 754 bits in total order.
    F64,
    /// One byte, 0 or 1.
    Bool,
    /// The scalar value, 4 bytes.
    Char,
    /// `[u8; N]`, as is.
    Array(usize),
    /// `()`: no bytes.
    Unit,
    /// `uuid::Uuid`: 16 bytes.
    Uuid,
    /// chrono `NaiveDate`: epoch days as `i32`.
    Date,
    /// time's `Date` or jiff's `civil::Date`: epoch days as `i32`, within
    /// their ±9999 years.
    Date9999,
    /// chrono `NaiveDateTime`, time's `PrimitiveDateTime`, jiff's
    /// `civil::DateTime`: epoch nanoseconds as `i64` (one encoding for the
    /// three crates).
    DateTime,
    /// chrono `DateTime<Utc>`, time's `OffsetDateTime`, jiff's
    /// `Timestamp`: epoch nanoseconds as `i64`.
    DateTimeUtc,
    /// `rust_decimal::Decimal`: base-100 digits after a header, up to 16
    /// bytes.
    Decimal,
    /// `Option<T>` as a part: tag, then `T`.
    Option(Box<PartKind>),
    /// A type the layout cannot describe: its bytes, `Some(n)` when the
    /// layout says it is always `n` bytes.
    Opaque(Option<usize>),
}

impl PartKind {
    /// Bytes every value takes, when fixed.
    pub fn fixed_len(&self) -> Option<usize> {
        Some(match self {
            PartKind::Int(t) => t.bytes(),
            PartKind::F32 | PartKind::Char => 4,
            PartKind::F64 | PartKind::DateTime | PartKind::DateTimeUtc => 8,
            PartKind::Bool => 1,
            PartKind::Array(n) => *n,
            PartKind::Unit => 0,
            PartKind::Uuid => 16,
            PartKind::Date | PartKind::Date9999 => 4,
            PartKind::Option(_) | PartKind::Decimal => return None,
            PartKind::Opaque(n) => return *n,
        })
    }

    /// The most bytes a value takes, when known.
    fn max_len(&self) -> Option<usize> {
        match self {
            PartKind::Option(inner) => inner.max_len().map(|n| n + 1),
            PartKind::Decimal => Some(16),
            PartKind::Opaque(_) => None,
            k => k.fixed_len(),
        }
    }

    /// Whether the layout cannot describe (some of) its bytes.
    pub fn is_opaque(&self) -> bool {
        match self {
            PartKind::Opaque(_) => true,
            PartKind::Option(inner) => inner.is_opaque(),
            _ => false,
        }
    }
}

/// The type written without spaces, lifetimes or leading paths of the
/// standard library: `&'a str` -> `&str`, `std::primitive::u64` -> `u64`,
/// `chrono::DateTime<chrono::Utc>` -> `DateTime<Utc>`.
pub fn normalize(ty: &str) -> String {
    // Drop lifetimes (`'a` and the `,` after one) before spaces, which
    // separate them from the type they precede.
    let mut out = String::new();
    let mut rest = ty;
    while let Some(i) = rest.find('\'') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let end = after
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let after = after[end..].trim_start();
        rest = after.strip_prefix(',').unwrap_or(after);
    }
    out.push_str(rest);
    let out: String = out.chars().filter(|c| !c.is_whitespace()).collect();
    // Keep the last segment of every path.
    let mut simple = String::new();
    let mut token = String::new();
    for c in out.chars() {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            token.push(c);
        } else {
            simple.push_str(token.rsplit("::").next().unwrap_or(""));
            token.clear();
            simple.push(c);
        }
    }
    simple.push_str(token.rsplit("::").next().unwrap_or(""));
    simple
}

/// The inner type of `Option<T>`.
pub fn strip_option(ty: &str) -> Option<&str> {
    ty.strip_prefix("Option<").and_then(|t| t.strip_suffix('>'))
}

/// The value type of a field: its type without the `Option` the layout
/// marks as `optional`.
pub fn value_type(f: &FieldLayout) -> String {
    let ty = normalize(f.rust_type);
    if f.optional {
        if let Some(inner) = strip_option(&ty) {
            return inner.to_string();
        }
    }
    ty
}

/// The kind of a `FieldCodec::Binary` field, checked against the width the
/// layout records: a type that only looks like a known one (a user type
/// named `u64`, an alias) is opaque.
pub fn binary_kind(f: &FieldLayout) -> PartKind {
    let ty = value_type(f);
    let kind = part_kind(&ty);
    let stored_len = if f.optional {
        f.max_len.checked_sub(1)
    } else {
        Some(f.max_len)
    };
    let opaque = PartKind::Opaque(if f.optional { None } else { f.fixed_len });
    match (&kind, stored_len) {
        (PartKind::Opaque(_), _) => opaque,
        (k, Some(max)) if k.max_len() == Some(max) => kind,
        _ => opaque,
    }
}

fn part_kind(ty: &str) -> PartKind {
    if let Some(int) = IntTy::parse(ty) {
        return PartKind::Int(int);
    }
    if let Some(inner) = strip_option(ty) {
        return PartKind::Option(Box::new(part_kind(inner)));
    }
    if let Some(n) = ty
        .strip_prefix("[u8;")
        .and_then(|t| t.strip_suffix(']'))
        .and_then(|n| n.trim_end_matches("usize").parse::<usize>().ok())
    {
        return PartKind::Array(n);
    }
    match ty {
        "f32" => PartKind::F32,
        "f64" => PartKind::F64,
        "bool" => PartKind::Bool,
        "char" => PartKind::Char,
        "()" => PartKind::Unit,
        "Uuid" => PartKind::Uuid,
        "NaiveDate" => PartKind::Date,
        "Date" => PartKind::Date9999,
        "NaiveDateTime" | "PrimitiveDateTime" | "DateTime" => PartKind::DateTime,
        "DateTime<Utc>" | "OffsetDateTime" | "Timestamp" => PartKind::DateTimeUtc,
        "Decimal" => PartKind::Decimal,
        _ => PartKind::Opaque(None),
    }
}

/// The integer type of a `#[text]` or `#[desc_ts]` field.
pub fn int_type(f: &FieldLayout) -> Option<IntTy> {
    IntTy::parse(&value_type(f))
}

/// Whether a text/bytes field holds UTF-8 text (`String`, `&str`,
/// `Cow<str>`, `Box<str>`) rather than bytes.
pub fn is_text(f: &FieldLayout) -> bool {
    let ty = value_type(f);
    matches!(f.codec, FieldCodec::Bytes { .. }) && (ty.contains("str") || ty.contains("String"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_types_as_written() {
        assert_eq!(normalize("&'a str"), "&str");
        assert_eq!(normalize("Cow<'a, [u8]>"), "Cow<[u8]>");
        assert_eq!(normalize("std::primitive::u64"), "u64");
        assert_eq!(normalize("chrono::DateTime<chrono::Utc>"), "DateTime<Utc>");
        assert_eq!(normalize("[u8; 4]"), "[u8;4]");
        assert_eq!(normalize("Option<uuid::Uuid>"), "Option<Uuid>");
        assert_eq!(part_kind("[u8;4]"), PartKind::Array(4));
        assert_eq!(
            part_kind("Option<u8>"),
            PartKind::Option(Box::new(PartKind::Int(IntTy::U8)))
        );
    }
}
