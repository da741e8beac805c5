//! Rules of `#[derive(KeyPart)]`: unit-only enums whose declared order
//! agrees with their discriminants (at most 256 variants), or single-field
//! newtype structs; no generics; only `crate = ".."` on the type.

use crate::attr;
use crate::ctxt::Ctxt;
use crate::model::{KeyPartModel, PartShape};
use quote::quote;
use syn::{Data, DeriveInput, Fields};

/// The checked model of a `#[derive(KeyPart)]` input, or `None` (errors
/// reported to `cx`).
pub fn key_part_model<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Option<KeyPartModel<'a>> {
    let attrs = attr::struct_attrs(cx, &input.attrs);
    if let Some(s) = &attrs.separator {
        cx.error_at(s.span, "#[derive(KeyPart)] takes only `crate = \"..\"`; a separator belongs on a #[derive(RowKey)] struct");
    }
    if let Some(m) = &attrs.max_len {
        cx.error_at(m.span, "#[derive(KeyPart)] takes only `crate = \"..\"`; the bound of a key part comes from its encoding");
    }
    if let Some(t) = &attrs.target {
        cx.error_at(t.span, "#[derive(KeyPart)] takes only `crate = \"..\"`; a target belongs on a #[derive(RowKey)] struct");
    }
    let krate = attrs.krate.unwrap_or_else(|| syn::parse_quote!(::rowkey));
    if let Some(p) = input.generics.params.first() {
        cx.error_spanned_by(p, "#[derive(KeyPart)] does not support generic parameters");
        return None;
    }
    let shape = match &input.data {
        Data::Enum(e) => unit_enum(cx, input, e)?,
        Data::Struct(s) => match &s.fields {
            Fields::Unnamed(u) if u.unnamed.len() == 1 => PartShape::Newtype(&u.unnamed[0].ty),
            Fields::Named(n) if n.named.iter().any(|f| bits_attr(f).is_some()) => {
                super::bits::packed_struct(cx, input, n)?
            }
            _ => {
                cx.error_spanned_by(
                    &input.ident,
                    "#[derive(KeyPart)] works on unit-only enums, newtype structs \
                     (struct Id(u64)) and structs whose every field is #[bits(n)]; for a \
                     struct of several fields use #[derive(RowKey)]",
                );
                return None;
            }
        },
        Data::Union(u) => {
            cx.error_spanned_by(u.union_token, "#[derive(KeyPart)] does not support unions");
            return None;
        }
    };
    (!cx.has_errors()).then_some(KeyPartModel {
        ident: &input.ident,
        krate,
        shape,
    })
}

/// The `#[bits(..)]` attribute of a field, if it has one.
pub(super) fn bits_attr(f: &syn::Field) -> Option<&syn::Attribute> {
    f.attrs.iter().find(|a| a.path().is_ident("bits"))
}

fn unit_enum<'a>(cx: &Ctxt, input: &DeriveInput, e: &'a syn::DataEnum) -> Option<PartShape<'a>> {
    for v in &e.variants {
        if !matches!(v.fields, Fields::Unit) {
            cx.error_spanned_by(
                v,
                format!(
                    "variant `{}` carries data; a KeyPart enum needs unit variants only \
                     (each is stored as its position, so declared order is sort order)",
                    v.ident
                ),
            );
        }
    }
    check_discriminants(cx, e);
    if e.variants.is_empty() {
        cx.error_spanned_by(
            &input.ident,
            "an enum with no variants has no value to store",
        );
    }
    if e.variants.len() > rowkey_core::layout::rules::MAX_ENUM_VARIANTS {
        cx.error_spanned_by(
            &input.ident,
            "a KeyPart enum has at most 256 variants (it is stored in one byte)",
        );
    }
    Some(PartShape::UnitEnum(
        e.variants.iter().map(|v| &v.ident).collect(),
    ))
}

/// The key stores each variant's position, and `#[derive(PartialOrd)]`
/// compares discriminants: the two orders must agree, so explicit
/// discriminants have to increase in declared order.
fn check_discriminants(cx: &Ctxt, e: &syn::DataEnum) {
    let mut prev: Option<(i128, &syn::Ident)> = None;
    for v in &e.variants {
        let value = match &v.discriminant {
            None => prev.map_or(Some(0), |(p, _)| p.checked_add(1)),
            Some((_, expr)) => match attr::int_literal(expr) {
                Some(n) => Some(n),
                None => {
                    cx.error_spanned_by(
                        expr,
                        format!(
                            "the discriminant of `{}` must be an integer literal, so the derive \
                             can check that declared order (the key's sort order) agrees with \
                             discriminant order (what PartialOrd compares)",
                            v.ident
                        ),
                    );
                    return;
                }
            },
        };
        let Some(value) = value else { return };
        if let Some((p, p_ident)) = prev {
            if value <= p {
                let at = v
                    .discriminant
                    .as_ref()
                    .map_or_else(|| quote!(#v), |(_, expr)| quote!(#expr));
                cx.error_spanned_by(
                    at,
                    format!(
                        "`{}` = {value} is declared after `{p_ident}` = {p}: the key sorts \
                         variants in declared order, and PartialOrd by discriminant, so the \
                         two would disagree; declare variants in increasing discriminant order",
                        v.ident
                    ),
                );
                return;
            }
        }
        prev = Some((value, &v.ident));
    }
}
