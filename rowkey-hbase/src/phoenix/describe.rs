//! [`PhoenixTable::key_struct`]: the `#[rowkey(phoenix)]` struct of a
//! table's primary key, as Rust source.

use super::catalog::{PhoenixColumnDef, PhoenixTable};
use rowkey_core::codec::phoenix::PhoenixType;
use std::fmt::Write;

/// The most bytes a `VARCHAR` or `VARBINARY` key value without a length
/// takes in a generated struct: the generated line says to set it.
const UNBOUNDED: usize = 256;

/// The Rust type of a column of `ty`.
fn rust_type(ty: &PhoenixType) -> &'static str {
    match ty {
        PhoenixType::Varchar { .. } | PhoenixType::Char { .. } => "String",
        PhoenixType::Binary { .. } | PhoenixType::Varbinary => "Vec<u8>",
        PhoenixType::TinyInt => "i8",
        PhoenixType::SmallInt => "i16",
        PhoenixType::Integer => "i32",
        PhoenixType::BigInt | PhoenixType::Date | PhoenixType::Time => "i64",
        PhoenixType::UnsignedTinyInt => "u8",
        PhoenixType::UnsignedSmallInt => "u16",
        PhoenixType::UnsignedInt => "u32",
        PhoenixType::UnsignedLong | PhoenixType::UnsignedDate | PhoenixType::UnsignedTime => "u64",
        PhoenixType::Float | PhoenixType::UnsignedFloat => "f32",
        PhoenixType::Double | PhoenixType::UnsignedDouble => "f64",
        PhoenixType::Decimal { .. } => "rust_decimal::Decimal",
        PhoenixType::Boolean => "bool",
        PhoenixType::Timestamp | PhoenixType::UnsignedTimestamp => {
            "rowkey::codec::phoenix::PhoenixTimestamp"
        }
    }
}

/// The Rust type of a column's field: an `Option` where it may be NULL.
pub(super) fn field_type(c: &PhoenixColumnDef) -> String {
    let rust = rust_type(&c.ty);
    if c.nullable {
        format!("Option<{rust}>")
    } else {
        rust.to_owned()
    }
}

/// A column's name as a Rust field: lowercase, a keyword raw.
pub(super) fn field_name(column: &str) -> String {
    let mut name: String = column
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    const KEYWORDS: &[&str] = &[
        "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn",
        "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
        "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use",
        "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final",
        "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try",
    ];
    if KEYWORDS.contains(&name.as_str()) {
        name.insert_str(0, "r#");
    }
    name
}

/// A table's name as a Rust type: `METRICS_BY_HOST` is `MetricsByHost`.
pub(super) fn type_name(table: &str) -> String {
    let mut out = String::new();
    for word in table
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars.map(|c| c.to_ascii_lowercase()));
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'T');
    }
    out
}

fn column_lines(out: &mut String, c: &PhoenixColumnDef, salt: Option<u32>) {
    if let Some(n) = salt {
        let _ = writeln!(out, "    #[salt(buckets = {n})]");
    }
    let ty = c.ty.to_string().to_ascii_lowercase();
    let _ = writeln!(out, "    #[phoenix({ty})]");
    if c.ty.max_width().is_none() {
        let _ = writeln!(
            out,
            "    #[max_len({UNBOUNDED})] // {} has no length: the most bytes a value takes",
            c.ty
        );
    }
    if c.desc {
        let _ = writeln!(out, "    #[desc]");
    }
    let rust = field_type(c);
    let _ = writeln!(out, "    pub {}: {rust},", field_name(&c.name));
}

impl PhoenixTable {
    /// The `#[derive(RowKey)] #[rowkey(phoenix)]` struct of the table's
    /// primary key, as Rust source: each key column's type named, its
    /// `DESC`, its NULL (an `Option`), the salt on the first column.
    /// A `VARCHAR` or `VARBINARY` without a length gets `#[max_len(256)]`
    /// and a comment to set it.
    pub fn key_struct(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "/// The primary key of Phoenix table {}, from its SYSTEM.CATALOG.",
            self.full_name()
        );
        let _ = writeln!(out, "#[derive(rowkey::RowKey, Debug, Clone, PartialEq)]");
        let _ = writeln!(out, "#[rowkey(phoenix)]");
        let _ = writeln!(out, "pub struct {}Key {{", type_name(&self.name));
        for (i, c) in self.key_columns().enumerate() {
            let salt = if i == 0 { self.salt_buckets } else { None };
            column_lines(&mut out, c, salt);
        }
        out.push_str("}\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_rust_names() {
        assert_eq!(field_name("HOST"), "host");
        assert_eq!(field_name("TYPE"), "r#type");
        assert_eq!(field_name("1ST"), "_1st");
        assert_eq!(type_name("METRICS_BY_HOST"), "MetricsByHost");
    }
}
