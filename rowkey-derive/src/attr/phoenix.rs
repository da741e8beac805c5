//! `#[phoenix(TYPE)]`: a Phoenix key column's SQL type, as Phoenix's DDL
//! writes it (`varchar`, `varchar(10)`, `char(3)`, `decimal(10, 2)`,
//! `unsigned_int`...), in any case.

use crate::suggest;
use rowkey_core::codec::phoenix::PhoenixType;
use syn::parse::Parse;
use syn::{Attribute, LitInt};

/// Phoenix's type names, lowercase.
const NAMES: &[&str] = &[
    "varchar",
    "char",
    "binary",
    "varbinary",
    "tinyint",
    "smallint",
    "integer",
    "bigint",
    "unsigned_tinyint",
    "unsigned_smallint",
    "unsigned_int",
    "unsigned_long",
    "float",
    "double",
    "unsigned_float",
    "unsigned_double",
    "decimal",
    "boolean",
    "date",
    "time",
    "timestamp",
    "unsigned_date",
    "unsigned_time",
    "unsigned_timestamp",
];

pub(super) fn parse_phoenix(attr: &Attribute) -> syn::Result<PhoenixType> {
    let mut ty = None;
    attr.parse_nested_meta(|meta| {
        if ty.is_some() {
            return Err(meta.error("#[phoenix(..)] names one type"));
        }
        let name = super::ident_of(&meta).to_ascii_lowercase();
        let mut args: Vec<u32> = Vec::new();
        if meta.input.peek(syn::token::Paren) {
            let content;
            syn::parenthesized!(content in meta.input);
            let lits = content.parse_terminated(LitInt::parse, syn::Token![,])?;
            for lit in lits {
                args.push(lit.base10_parse()?);
            }
        }
        let one = |what: &str| -> syn::Result<u32> {
            match args[..] {
                [n] if n > 0 => Ok(n),
                _ => Err(meta.error(format!("{name} takes its {what}: {name}(N), N at least 1"))),
            }
        };
        let none = || -> syn::Result<()> {
            if args.is_empty() {
                Ok(())
            } else {
                Err(meta.error(format!("{name} takes no length")))
            }
        };
        ty = Some(match name.as_str() {
            "varchar" => PhoenixType::Varchar {
                max_chars: if args.is_empty() {
                    None
                } else {
                    Some(one("most characters")?)
                },
            },
            "char" => PhoenixType::Char { len: one("width")? },
            "binary" => PhoenixType::Binary { len: one("width")? },
            "decimal" => match args[..] {
                [] => PhoenixType::Decimal {
                    precision: None,
                    scale: None,
                },
                [p] | [p, _] if p == 0 || p > 38 => {
                    return Err(meta.error("a DECIMAL's precision is 1 to 38"))
                }
                [p] => PhoenixType::Decimal {
                    precision: Some(p as u8),
                    scale: Some(0),
                },
                // Phoenix takes a scale above the precision as the precision.
                [p, s] => PhoenixType::Decimal {
                    precision: Some(p as u8),
                    scale: Some(s.min(p) as u8),
                },
                _ => return Err(meta.error("decimal takes (precision) or (precision, scale)")),
            },
            other => {
                let simple = match other {
                    "varbinary" => PhoenixType::Varbinary,
                    "tinyint" => PhoenixType::TinyInt,
                    "smallint" => PhoenixType::SmallInt,
                    "integer" => PhoenixType::Integer,
                    "bigint" => PhoenixType::BigInt,
                    "unsigned_tinyint" => PhoenixType::UnsignedTinyInt,
                    "unsigned_smallint" => PhoenixType::UnsignedSmallInt,
                    "unsigned_int" => PhoenixType::UnsignedInt,
                    "unsigned_long" => PhoenixType::UnsignedLong,
                    "float" => PhoenixType::Float,
                    "double" => PhoenixType::Double,
                    "unsigned_float" => PhoenixType::UnsignedFloat,
                    "unsigned_double" => PhoenixType::UnsignedDouble,
                    "boolean" => PhoenixType::Boolean,
                    "date" => PhoenixType::Date,
                    "time" => PhoenixType::Time,
                    "timestamp" => PhoenixType::Timestamp,
                    "unsigned_date" => PhoenixType::UnsignedDate,
                    "unsigned_time" => PhoenixType::UnsignedTime,
                    "unsigned_timestamp" => PhoenixType::UnsignedTimestamp,
                    _ => {
                        return Err(meta.error(format!(
                            "`{other}` is not a Phoenix type this key writes; {}",
                            suggest::hint(other, NAMES)
                        )))
                    }
                };
                none()?;
                simple
            }
        });
        Ok(())
    })?;
    ty.ok_or_else(|| {
        syn::Error::new_spanned(
            attr,
            "#[phoenix(..)] names the column's Phoenix type: #[phoenix(varchar(10))], \
             #[phoenix(decimal(10, 2))], #[phoenix(unsigned_int)]",
        )
    })
}
