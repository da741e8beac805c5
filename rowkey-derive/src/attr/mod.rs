//! Reads `#[rowkey(..)]` on the struct and the field attributes (`#[text]`,
//! `#[pad]`, `#[max_len]`, `#[reverse]`, `#[desc_ts]`, `#[desc]`) into
//! plain data that keeps the span of every value, so later checks can
//! point at the exact token at fault. No rule about combinations lives
//! here: that is `check.rs`.

mod index;
mod phoenix;
mod prefix;
pub mod record;

pub use prefix::{int_literal, HashChoice, HashPrefixAttr, PrefixAlgo, SaltAttr};

use crate::ctxt::Ctxt;
use crate::suggest;
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Attribute, Lit, LitInt, Path};

/// The field attributes this derive owns.
pub const FIELD_ATTRS: &[&str] = &[
    "text",
    "pad",
    "max_len",
    "reverse",
    "desc_ts",
    "desc",
    "salt",
    "hash_prefix",
    "phoenix",
];

/// A value and where it was written.
#[derive(Clone, Copy, Debug)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    fn new(value: T, span: Span) -> Self {
        Spanned { value, span }
    }
}

/// `#[rowkey(..)]` on the struct.
#[derive(Default)]
pub struct StructAttrs {
    pub separator: Option<Spanned<u8>>,
    pub max_len: Option<Spanned<usize>>,
    pub target: Option<Spanned<Target>>,
    pub krate: Option<Path>,
    /// `#[rowkey(index_of = Main)]`: the main key this one indexes.
    pub index_of: Option<syn::Type>,
    /// `#[rowkey(phoenix)]`: an Apache Phoenix table's primary key.
    pub phoenix: Option<Span>,
}

/// `#[rowkey(target = "bigtable" | "hbase")]`: the store whose row key
/// limit the layout must fit.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Bigtable,
    Hbase,
}

impl Target {
    /// The store's limit on a key's length, and its name for messages.
    pub fn limit(self) -> (usize, &'static str) {
        match self {
            Target::Bigtable => (rowkey_core::BIGTABLE_MAX_KEY_LEN, "Bigtable"),
            Target::Hbase => (rowkey_core::HBASE_MAX_KEY_LEN, "HBase"),
        }
    }
}

/// `#[text]` / `#[text(width = N)]` / `#[text(format = "..")]` /
/// `#[text(width = W, scale = S)]`.
pub struct TextAttr {
    pub width: Option<Spanned<usize>>,
    pub format: Option<Spanned<String>>,
    pub scale: Option<Spanned<usize>>,
}

/// `#[pad(width = N, fill = B, align = left|right)]`.
pub struct PadAttr {
    pub width: Option<Spanned<usize>>,
    pub fill: Option<Spanned<u8>>,
    pub left: Option<Spanned<bool>>,
}

/// `#[reverse]` / `#[reverse(segments = ".")]`.
pub struct ReverseAttr {
    pub segments: Option<Spanned<u8>>,
}

/// Everything written on one field; each attribute with the span of its
/// name (`pad` in `#[pad(..)]`).
#[derive(Default)]
pub struct FieldAttrs {
    pub text: Option<Spanned<TextAttr>>,
    pub pad: Option<Spanned<PadAttr>>,
    pub max_len: Option<Spanned<Spanned<usize>>>,
    pub reverse: Option<Spanned<ReverseAttr>>,
    pub desc_ts: Option<Span>,
    pub desc: Option<Span>,
    pub salt: Option<Spanned<SaltAttr>>,
    pub hash_prefix: Option<Spanned<HashPrefixAttr>>,
    /// `#[phoenix(varchar(10))]`: a Phoenix key column's SQL type.
    pub phoenix: Option<Spanned<rowkey_core::codec::phoenix::PhoenixType>>,
    /// One of our attributes (or a near miss of one) was rejected; its
    /// error is reported, and checks that would only repeat it are skipped.
    pub malformed: bool,
    /// A `#[salt(..)]` or `#[hash_prefix(..)]` was rejected: the key's
    /// prefix is not known, and its checks (a salt's bucket count on
    /// another salted field) would only add errors to the one reported.
    pub prefix_malformed: bool,
}

/// Reads `#[rowkey(..)]`.
pub fn struct_attrs(cx: &Ctxt, attrs: &[Attribute]) -> StructAttrs {
    let mut out = StructAttrs::default();
    for attr in attrs {
        if !attr.path().is_ident("rowkey") {
            continue;
        }
        let res = attr.parse_nested_meta(|meta| {
            let name = ident_of(&meta);
            match name.as_str() {
                "separator" => {
                    let lit: Lit = meta.value()?.parse()?;
                    let byte = separator_byte(&lit)?;
                    set_once(
                        cx,
                        &mut out.separator,
                        Spanned::new(byte, lit.span()),
                        &meta,
                        "separator",
                    );
                }
                "max_len" => {
                    let lit: LitInt = meta.value()?.parse()?;
                    let n = Spanned::new(lit.base10_parse()?, lit.span());
                    set_once(cx, &mut out.max_len, n, &meta, "max_len");
                }
                "target" => {
                    let s: syn::LitStr = meta.value()?.parse()?;
                    let target = match s.value().as_str() {
                        "bigtable" => Target::Bigtable,
                        "hbase" => Target::Hbase,
                        other => {
                            return Err(syn::Error::new(
                                s.span(),
                                format!(
                                    "unknown target `{other}`; use target = \"bigtable\" (keys up \
                                     to {} bytes) or target = \"hbase\" ({} bytes)",
                                    rowkey_core::BIGTABLE_MAX_KEY_LEN,
                                    rowkey_core::HBASE_MAX_KEY_LEN,
                                ),
                            ))
                        }
                    };
                    set_once(
                        cx,
                        &mut out.target,
                        Spanned::new(target, s.span()),
                        &meta,
                        "target",
                    );
                }
                "crate" => {
                    let s: syn::LitStr = meta.value()?.parse()?;
                    let path: Path = s.parse()?;
                    // The expansion's const block names rowkey's private
                    // module `__rk`: a path starting with it would name one
                    // thing in the scan states (module level) and another
                    // in their `ScanField` impls (in the block), and core's
                    // casts between a state and its step rely on the two
                    // naming the same `Step` (`scan/state_cast.rs`).
                    if path.leading_colon.is_none()
                        && path.segments.first().is_some_and(|p| p.ident == "__rk")
                    {
                        return Err(syn::Error::new(
                            s.span(),
                            "a crate path cannot start with `__rk`, the name the derive gives \
                             rowkey's private module in its expansion; write it from `self::`, \
                             `crate::` or `::`",
                        ));
                    }
                    out.krate = Some(path);
                }
                "index_of" => index::parse_index_of(cx, &meta, &mut out.index_of)?,
                "phoenix" => {
                    if out.phoenix.is_some() {
                        cx.error_spanned_by(&meta.path, "`phoenix` is given twice");
                    }
                    out.phoenix = Some(meta.path.span());
                }
                other => {
                    return Err(meta.error(format!(
                        "unknown option `{other}` in #[rowkey(..)]; {}",
                        suggest::hint(
                            other,
                            &[
                                "separator",
                                "max_len",
                                "target",
                                "crate",
                                "index_of",
                                "phoenix"
                            ]
                        )
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

/// Reads the field attributes of one field.
pub fn field_attrs(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    for attr in attrs {
        let Some(ident) = attr.path().get_ident().map(|i| i.to_string()) else {
            continue;
        };
        // The attribute's name: a span of several tokens cannot be made on
        // stable, and `#` alone says nothing.
        let span = attr.path().span();
        let res = match ident.as_str() {
            "text" => parse_text(attr).map(|t| set_attr(cx, &mut out.text, t, attr)),
            "pad" => parse_pad(attr).map(|p| set_attr(cx, &mut out.pad, p, attr)),
            "max_len" => parse_max_len(attr).map(|n| set_attr(cx, &mut out.max_len, n, attr)),
            "reverse" => parse_reverse(attr).map(|r| set_attr(cx, &mut out.reverse, r, attr)),
            "desc_ts" => flag(attr).map(|()| set_attr(cx, &mut out.desc_ts, span, attr)),
            "desc" => flag(attr).map(|()| set_attr(cx, &mut out.desc, span, attr)),
            "salt" => prefix::parse_salt(attr).map(|s| set_attr(cx, &mut out.salt, s, attr)),
            "hash_prefix" => {
                prefix::parse_hash_prefix(attr).map(|h| set_attr(cx, &mut out.hash_prefix, h, attr))
            }
            "phoenix" => {
                phoenix::parse_phoenix(attr).map(|t| set_attr(cx, &mut out.phoenix, t, attr))
            }
            "rowkey" => Err(syn::Error::new_spanned(
                attr,
                "#[rowkey(..)] goes on the struct; fields take #[text], #[pad], #[max_len], \
                 #[reverse], #[desc_ts], #[desc], #[salt] or #[hash_prefix]",
            )),
            other => {
                // Not ours; but a near miss of ours is almost surely a typo.
                if let Some(near) = suggest::nearest(other, FIELD_ATTRS) {
                    out.malformed = true;
                    cx.error_at(
                        attr.path().span(),
                        format!("unknown field attribute `{other}`; did you mean `#[{near}]`?"),
                    );
                }
                Ok(())
            }
        };
        if let Err(e) = res {
            out.malformed = true;
            out.prefix_malformed |= matches!(ident.as_str(), "salt" | "hash_prefix");
            cx.syn_error(e);
        }
    }
    out
}

pub(crate) fn ident_of(meta: &ParseNestedMeta) -> String {
    meta.path
        .get_ident()
        .map(|i| i.to_string())
        .unwrap_or_else(|| {
            let path = &meta.path;
            quote::quote!(#path).to_string()
        })
}

fn set_once<T>(cx: &Ctxt, slot: &mut Option<T>, value: T, meta: &ParseNestedMeta, name: &str) {
    if slot.is_some() {
        cx.error_spanned_by(&meta.path, format!("`{name}` is given twice"));
    } else {
        *slot = Some(value);
    }
}

trait AttrSlot<T> {
    fn store(&mut self, value: T, span: Span) -> bool;
}
impl<T> AttrSlot<T> for Option<Spanned<T>> {
    fn store(&mut self, value: T, span: Span) -> bool {
        let free = self.is_none();
        if free {
            *self = Some(Spanned::new(value, span));
        }
        free
    }
}
impl AttrSlot<Span> for Option<Span> {
    fn store(&mut self, value: Span, _: Span) -> bool {
        let free = self.is_none();
        if free {
            *self = Some(value);
        }
        free
    }
}

fn set_attr<T, S: AttrSlot<T>>(cx: &Ctxt, slot: &mut S, value: T, attr: &Attribute) {
    if !slot.store(value, attr.path().span()) {
        let name = attr
            .path()
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_default();
        cx.error_spanned_by(attr, format!("duplicate #[{name}] on this field; keep one"));
    }
}

fn flag(attr: &Attribute) -> syn::Result<()> {
    match &attr.meta {
        syn::Meta::Path(_) => Ok(()),
        _ => {
            let name = attr
                .path()
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            Err(syn::Error::new_spanned(
                attr,
                format!("#[{name}] takes no options; write it as #[{name}]"),
            ))
        }
    }
}

fn parse_text(attr: &Attribute) -> syn::Result<TextAttr> {
    let mut text = TextAttr {
        width: None,
        format: None,
        scale: None,
    };
    if let syn::Meta::Path(_) = attr.meta {
        return Ok(text);
    }
    attr.parse_nested_meta(|meta| {
        let name = ident_of(&meta);
        match name.as_str() {
            "width" => {
                text.width = Some(int_value(&meta)?);
                Ok(())
            }
            "scale" => {
                text.scale = Some(int_value(&meta)?);
                Ok(())
            }
            "format" => {
                let s: syn::LitStr = meta.value()?.parse()?;
                text.format = Some(Spanned::new(s.value(), s.span()));
                Ok(())
            }
            other => Err(meta.error(format!(
                "unknown option `{other}` in #[text(..)]; {}",
                suggest::hint(other, &["width", "format", "scale"])
            ))),
        }
    })?;
    Ok(text)
}

fn parse_pad(attr: &Attribute) -> syn::Result<PadAttr> {
    let mut pad = PadAttr {
        width: None,
        fill: None,
        left: None,
    };
    if let syn::Meta::Path(_) = attr.meta {
        return Err(syn::Error::new_spanned(
            attr,
            "#[pad] needs a width: #[pad(width = N)] (options: fill = 0x00, align = left|right)",
        ));
    }
    attr.parse_nested_meta(|meta| {
        let name = ident_of(&meta);
        match name.as_str() {
            "width" => pad.width = Some(int_value(&meta)?),
            "fill" => {
                let lit: Lit = meta.value()?.parse()?;
                pad.fill = Some(Spanned::new(fill_byte(&lit)?, lit.span()));
            }
            "align" => {
                let value = meta.value()?;
                let (word, span) = if value.peek(syn::LitStr) {
                    let s: syn::LitStr = value.parse()?;
                    (s.value(), s.span())
                } else {
                    let i: syn::Ident = value.parse()?;
                    (i.to_string(), i.span())
                };
                let left = match word.as_str() {
                    "left" => true,
                    "right" => false,
                    _ => {
                        return Err(syn::Error::new(
                            span,
                            "align must be `left` (fill before the value, like leftPad) \
                             or `right` (fill after it)",
                        ))
                    }
                };
                pad.left = Some(Spanned::new(left, span));
            }
            other => {
                return Err(meta.error(format!(
                    "unknown option `{other}` in #[pad(..)]; {}",
                    suggest::hint(other, &["width", "fill", "align"])
                )))
            }
        }
        Ok(())
    })?;
    if pad.width.is_none() {
        return Err(syn::Error::new_spanned(
            attr,
            "#[pad] needs a width: #[pad(width = N)]",
        ));
    }
    Ok(pad)
}

fn parse_max_len(attr: &Attribute) -> syn::Result<Spanned<usize>> {
    let lit: LitInt = attr.parse_args().map_err(|_| {
        syn::Error::new_spanned(
            attr,
            "write the bound as #[max_len(N)], N a number of bytes",
        )
    })?;
    Ok(Spanned::new(lit.base10_parse()?, lit.span()))
}

fn parse_reverse(attr: &Attribute) -> syn::Result<ReverseAttr> {
    let mut rev = ReverseAttr { segments: None };
    if let syn::Meta::Path(_) = attr.meta {
        return Ok(rev);
    }
    attr.parse_nested_meta(|meta| {
        let name = ident_of(&meta);
        match name.as_str() {
            "segments" => {
                let lit: Lit = meta.value()?.parse()?;
                rev.segments = Some(Spanned::new(separator_byte(&lit)?, lit.span()));
                Ok(())
            }
            other => Err(meta.error(format!(
                "unknown option `{other}` in #[reverse(..)]; {}",
                suggest::hint(other, &["segments"])
            ))),
        }
    })?;
    Ok(rev)
}

fn int_value(meta: &ParseNestedMeta) -> syn::Result<Spanned<usize>> {
    let lit: LitInt = meta.value()?.parse()?;
    Ok(Spanned::new(lit.base10_parse()?, lit.span()))
}

/// A fill byte: `0x01`, `b'_'` or `'_'` (ASCII).
fn fill_byte(lit: &Lit) -> syn::Result<u8> {
    let out_of_range = || {
        syn::Error::new(
            lit.span(),
            "fill must be one byte: a number from 0 to 255 (0x00 to 0xFF), b'_' or an ASCII char",
        )
    };
    match lit {
        Lit::Int(i) => i
            .base10_parse::<u64>()
            .ok()
            .and_then(|v| u8::try_from(v).ok())
            .ok_or_else(out_of_range),
        Lit::Byte(b) => Ok(b.value()),
        Lit::Char(c) if c.value().is_ascii() => Ok(c.value() as u8),
        _ => Err(out_of_range()),
    }
}

/// A one-character ASCII separator: `"_"`, `'_'` or `b'_'`.
fn separator_byte(lit: &Lit) -> syn::Result<u8> {
    let value = match lit {
        Lit::Str(s) => s.value(),
        Lit::Char(c) => c.value().to_string(),
        Lit::Byte(b) => (b.value() as char).to_string(),
        _ => String::new(),
    };
    let mut chars = value.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_graphic() => Ok(c as u8),
        _ => Err(syn::Error::new(
            lit.span(),
            "a separator is one printable ASCII character, such as \"_\", \"|\" or \"#\" \
             (one byte, so a value can be checked for it)",
        )),
    }
}
