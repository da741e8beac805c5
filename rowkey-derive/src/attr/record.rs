//! Reads `#[record(..)]` on the struct and `#[cell(..)]` on its fields for
//! `#[derive(Record)]`, keeping the span of every value. The rules are in
//! `check/record.rs`.

use super::{ident_of, Spanned};
use crate::ctxt::Ctxt;
use crate::suggest;
use proc_macro2::Span;
use rowkey_core::codec::phoenix::PhoenixType;
use syn::spanned::Spanned as _;
use syn::{Attribute, LitStr, Path, Type};

/// `#[record(key = K, family = "d", phoenix, crate = "..")]`.
#[derive(Default)]
pub struct RecordAttrs {
    pub key: Option<Type>,
    pub family: Option<Spanned<String>>,
    /// `phoenix`, `phoenix(column_encoded_bytes = N,
    /// single_cell_array_with_offsets)`: the table's layout.
    pub phoenix: Option<Spanned<PhoenixTableAttr>>,
    pub krate: Option<Path>,
}

/// `#[record(phoenix(..))]`: how the table stores its columns.
#[derive(Clone, Copy)]
pub struct PhoenixTableAttr {
    /// `COLUMN_ENCODED_BYTES` (2 by default; 0: columns named).
    pub encoded_bytes: u8,
    /// `IMMUTABLE_STORAGE_SCHEME = SINGLE_CELL_ARRAY_WITH_OFFSETS`.
    pub single_cell: bool,
}

/// How a cell's value is written.
pub enum CellCodecAttr {
    /// `with = path`.
    With(Path),
    /// `json`.
    Json(Span),
}

/// `#[cell(..)]` on one field.
#[derive(Default)]
pub struct CellAttrs {
    pub family: Option<Spanned<String>>,
    pub qualifier: Option<Spanned<String>>,
    /// `qualifier = 11`: a Phoenix column's number.
    pub number: Option<Spanned<u32>>,
    pub skip: Option<Span>,
    pub codec: Option<CellCodecAttr>,
    /// The first `#[cell(..)]`: where "not a cell" errors point.
    pub span: Option<Span>,
    /// `#[phoenix(TYPE)]`: a Phoenix record's column type.
    pub phoenix: Option<Spanned<PhoenixType>>,
}

const RECORD_OPTIONS: &[&str] = &["key", "family", "phoenix", "crate"];
const CELL_OPTIONS: &[&str] = &["family", "qualifier", "skip", "with", "json"];

/// Reads `#[record(..)]`.
pub fn record_attrs(cx: &Ctxt, attrs: &[Attribute]) -> RecordAttrs {
    let mut out = RecordAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("record")) {
        let res = attr.parse_nested_meta(|meta| {
            let name = ident_of(&meta);
            match name.as_str() {
                "key" => {
                    let ty: Type = meta.value()?.parse().map_err(|e| {
                        syn::Error::new(
                            e.span(),
                            "write the key's type: #[record(key = ReadingKey)]",
                        )
                    })?;
                    if out.key.replace(ty).is_some() {
                        cx.error_spanned_by(&meta.path, "`key` is given twice");
                    }
                }
                "family" => {
                    let s: LitStr = meta.value()?.parse()?;
                    let v = Spanned {
                        value: s.value(),
                        span: s.span(),
                    };
                    if out.family.replace(v).is_some() {
                        cx.error_spanned_by(&meta.path, "`family` is given twice");
                    }
                }
                "crate" => {
                    let s: LitStr = meta.value()?.parse()?;
                    out.krate = Some(s.parse()?);
                }
                "phoenix" => {
                    let span = meta.path.span();
                    let mut table = PhoenixTableAttr {
                        encoded_bytes: 2,
                        single_cell: false,
                    };
                    if meta.input.peek(syn::token::Paren) {
                        meta.parse_nested_meta(|inner| {
                            if inner.path.is_ident("single_cell_array_with_offsets") {
                                table.single_cell = true;
                                return Ok(());
                            }
                            if !inner.path.is_ident("column_encoded_bytes") {
                                return Err(inner.error(
                                    "#[record(phoenix(..))] takes the table's \
                                     COLUMN_ENCODED_BYTES and storage: \
                                     phoenix(column_encoded_bytes = 2), 0 to 4, and \
                                     single_cell_array_with_offsets",
                                ));
                            }
                            let n: syn::LitInt = inner.value()?.parse()?;
                            table.encoded_bytes = match n.base10_parse::<u8>() {
                                Ok(b @ 0..=4) => b,
                                _ => {
                                    return Err(syn::Error::new(
                                        n.span(),
                                        "COLUMN_ENCODED_BYTES is 0 (columns named) to 4",
                                    ))
                                }
                            };
                            Ok(())
                        })?;
                    }
                    if table.single_cell && table.encoded_bytes == 0 {
                        return Err(meta.error(
                            "Phoenix packs columns into one cell only by number: \
                             SINGLE_CELL_ARRAY_WITH_OFFSETS needs COLUMN_ENCODED_BYTES 1 to 4",
                        ));
                    }
                    let v = Spanned { value: table, span };
                    if out.phoenix.replace(v).is_some() {
                        cx.error_spanned_by(&meta.path, "`phoenix` is given twice");
                    }
                }
                other => {
                    return Err(meta.error(format!(
                        "unknown option `{other}` in #[record(..)]; {}",
                        suggest::hint(other, RECORD_OPTIONS)
                    )))
                }
            }
            Ok(())
        });
        if let Err(e) = res {
            cx.syn_error(e);
        }
    }
    out
}

/// Reads the `#[cell(..)]` of one field.
pub fn cell_attrs(cx: &Ctxt, attrs: &[Attribute]) -> CellAttrs {
    let mut out = CellAttrs::default();
    for attr in attrs {
        let Some(name) = attr.path().get_ident().map(ToString::to_string) else {
            continue;
        };
        if name == "record" {
            cx.error_spanned_by(
                attr,
                "#[record(..)] goes on the struct; a field takes #[cell(..)]",
            );
            continue;
        }
        if name == "phoenix" {
            match super::phoenix::parse_phoenix(attr) {
                Ok(t) => {
                    let v = Spanned {
                        value: t,
                        span: attr.path().span(),
                    };
                    if out.phoenix.replace(v).is_some() {
                        cx.error_spanned_by(attr, "#[phoenix(..)] is given twice");
                    }
                }
                Err(e) => cx.syn_error(e),
            }
            continue;
        }
        if name != "cell" {
            if let Some(near) = suggest::nearest(&name, &["cell"]) {
                cx.error_at(
                    attr.path().span(),
                    format!("unknown field attribute `{name}`; did you mean `#[{near}(..)]`?"),
                );
            }
            continue;
        }
        out.span.get_or_insert(attr.path().span());
        if let syn::Meta::Path(_) = attr.meta {
            cx.error_spanned_by(
                attr,
                "#[cell] needs options: #[cell(family = \"d\")], #[cell(qualifier = \"v\")], \
                 #[cell(skip)], #[cell(with = Codec)] or #[cell(json)]",
            );
            continue;
        }
        let res = attr.parse_nested_meta(|meta| {
            let opt = ident_of(&meta);
            let span = meta.path.span();
            match opt.as_str() {
                "qualifier" if !meta.input.peek(syn::Token![=]) => {
                    return Err(meta.error("write #[cell(qualifier = \"v\")]"));
                }
                "qualifier" if meta.input.peek2(syn::LitInt) => {
                    let n: syn::LitInt = meta.value()?.parse()?;
                    let v = Spanned {
                        value: n.base10_parse::<u32>()?,
                        span: n.span(),
                    };
                    if out.number.replace(v).is_some() || out.qualifier.is_some() {
                        cx.error_at(span, "`qualifier` is given twice");
                    }
                }
                "family" | "qualifier" => {
                    let s: LitStr = meta.value()?.parse()?;
                    let v = Spanned {
                        value: s.value(),
                        span: s.span(),
                    };
                    let had_number = opt == "qualifier" && out.number.is_some();
                    let slot = if opt == "family" {
                        &mut out.family
                    } else {
                        &mut out.qualifier
                    };
                    if slot.replace(v).is_some() || had_number {
                        cx.error_at(span, format!("`{opt}` is given twice"));
                    }
                }
                "skip" => {
                    if out.skip.replace(span).is_some() {
                        cx.error_at(span, "`skip` is given twice");
                    }
                }
                "with" => {
                    let path: Path = meta.value()?.parse().map_err(|e| {
                        syn::Error::new(
                            e.span(),
                            "write the codec's type: #[cell(with = MyCodec)], a type \
                             implementing rowkey::store::cell::CellCodec",
                        )
                    })?;
                    set_codec(cx, &mut out.codec, CellCodecAttr::With(path), span);
                }
                "json" => set_codec(cx, &mut out.codec, CellCodecAttr::Json(span), span),
                other => {
                    return Err(meta.error(format!(
                        "unknown option `{other}` in #[cell(..)]; {}",
                        suggest::hint(other, CELL_OPTIONS)
                    )))
                }
            }
            Ok(())
        });
        if let Err(e) = res {
            cx.syn_error(e);
        }
    }
    out
}

fn set_codec(cx: &Ctxt, slot: &mut Option<CellCodecAttr>, codec: CellCodecAttr, span: Span) {
    if slot.is_some() {
        cx.error_at(
            span,
            "a field has one codec: keep one of #[cell(with = ..)] and #[cell(json)]",
        );
    } else {
        *slot = Some(codec);
    }
}
