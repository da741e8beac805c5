//! `#[derive(KeyPart)]`: unit-only enums (one byte, the variant's position
//! in declared order, so declared order is sort order) and single-field
//! newtype structs (the inner type's encoding, order and bounds). Enums
//! are also salt bucket groups (`KeyGroup`): one group per variant.

use crate::attr;
use crate::ctxt::Ctxt;
use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields, Path};

pub fn key_part(cx: &Ctxt, input: &DeriveInput) -> Option<TokenStream> {
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
    match &input.data {
        Data::Enum(e) => unit_enum(cx, input, e, &krate),
        Data::Struct(s) => match &s.fields {
            Fields::Unnamed(u) if u.unnamed.len() == 1 => {
                Some(newtype(input, &u.unnamed[0].ty, &krate))
            }
            _ => {
                cx.error_spanned_by(
                    &input.ident,
                    "#[derive(KeyPart)] works on unit-only enums and newtype structs \
                     (struct Id(u64)); for a struct of several fields use #[derive(RowKey)]",
                );
                None
            }
        },
        Data::Union(u) => {
            cx.error_spanned_by(u.union_token, "#[derive(KeyPart)] does not support unions");
            None
        }
    }
}

fn unit_enum(
    cx: &Ctxt,
    input: &DeriveInput,
    e: &syn::DataEnum,
    krate: &Path,
) -> Option<TokenStream> {
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
    if e.variants.len() > 256 {
        cx.error_spanned_by(
            &input.ident,
            "a KeyPart enum has at most 256 variants (it is stored in one byte)",
        );
    }
    if cx.has_errors() {
        return None;
    }
    let ident = &input.ident;
    let name = ident.to_string();
    let variants: Vec<_> = e.variants.iter().map(|v| &v.ident).collect();
    let indices: Vec<u8> = (0..variants.len()).map(|i| i as u8).collect();
    let msg = format!("no variant of {name} is stored as this byte");
    let count = variants.len() as u32;
    Some(quote! {
        const _: () = {
            use #krate::__private as __rk;
            #[automatically_derived]
            impl __rk::KeyPart for #ident {
                const MAX_LEN: usize = 1;
                const FIXED_LEN: ::core::option::Option<usize> = ::core::option::Option::Some(1);
                fn encoded_len(&self) -> usize { 1 }
                fn encode(&self, __w: &mut __rk::KeyWriter<'_>) -> ::core::result::Result<(), __rk::EncodeError> {
                    __w.put_byte(match self { #(#ident::#variants => #indices,)* })
                }
            }
            #[automatically_derived]
            impl __rk::KeyGroup for #ident {
                const GROUPS: u32 = #count;
                fn group(&self) -> u32 {
                    match self { #(#ident::#variants => #indices as u32,)* }
                }
            }
            #[automatically_derived]
            impl<'__rowkey_de> __rk::DecodePart<'__rowkey_de> for #ident {
                fn decode(__r: &mut __rk::KeyReader<'__rowkey_de>) -> ::core::result::Result<Self, __rk::DecodeError> {
                    let __at = __r.position();
                    // With 256 variants every byte is a variant and the
                    // fallback arm is unreachable.
                    #[allow(unreachable_patterns)]
                    match __r.take_byte()? {
                        #(#indices => ::core::result::Result::Ok(#ident::#variants),)*
                        _ => ::core::result::Result::Err(__r.error_at(__at, __rk::DecodeErrorKind::Invalid(#msg))),
                    }
                }
            }
        };
    })
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

/// A newtype is stored exactly as its inner value, so it inherits the
/// inner type's bounds and whether its bytes keep order (`ORDERED`).
fn newtype(input: &DeriveInput, inner: &syn::Type, krate: &Path) -> TokenStream {
    let ident = &input.ident;
    quote! {
        const _: () = {
            use #krate::__private as __rk;
            #[automatically_derived]
            impl __rk::KeyPart for #ident {
                const MAX_LEN: usize = <#inner as __rk::KeyPart>::MAX_LEN;
                const FIXED_LEN: ::core::option::Option<usize> = <#inner as __rk::KeyPart>::FIXED_LEN;
                const ORDERED: bool = <#inner as __rk::KeyPart>::ORDERED;
                fn encoded_len(&self) -> usize { __rk::KeyPart::encoded_len(&self.0) }
                fn encode(&self, __w: &mut __rk::KeyWriter<'_>) -> ::core::result::Result<(), __rk::EncodeError> {
                    __rk::KeyPart::encode(&self.0, __w)
                }
            }
            #[automatically_derived]
            impl<'__rowkey_de> __rk::DecodePart<'__rowkey_de> for #ident {
                fn decode(__r: &mut __rk::KeyReader<'__rowkey_de>) -> ::core::result::Result<Self, __rk::DecodeError> {
                    <#inner as __rk::DecodePart<'__rowkey_de>>::decode(__r).map(#ident)
                }
            }
        };
    }
}
