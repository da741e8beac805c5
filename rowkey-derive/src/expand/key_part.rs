//! `#[derive(KeyPart)]`: unit-only enums (one byte per variant index, in
//! declared order, so declared order is sort order) and single-field
//! newtype structs (the inner type's encoding).

use crate::ctxt::Ctxt;
use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields};

pub fn key_part(cx: &Ctxt, input: &DeriveInput) -> Option<TokenStream> {
    if let Some(p) = input.generics.params.first() {
        cx.error_spanned_by(p, "#[derive(KeyPart)] does not support generic parameters");
        return None;
    }
    match &input.data {
        Data::Enum(e) => unit_enum(cx, input, e),
        Data::Struct(s) => match &s.fields {
            Fields::Unnamed(u) if u.unnamed.len() == 1 => Some(newtype(input, &u.unnamed[0].ty)),
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

fn unit_enum(cx: &Ctxt, input: &DeriveInput, e: &syn::DataEnum) -> Option<TokenStream> {
    for v in &e.variants {
        if !matches!(v.fields, Fields::Unit) {
            cx.error_spanned_by(
                v,
                format!(
                    "variant `{}` carries data; a KeyPart enum needs unit variants only \
                     (each is stored as its index, so declared order is sort order)",
                    v.ident
                ),
            );
        }
    }
    if e.variants.is_empty() {
        cx.error_spanned_by(
            &input.ident,
            "an enum with no variants has no value to store",
        );
    }
    if e.variants.len() > 256 {
        cx.error_spanned_by(
            &input.ident,
            "a KeyPart enum has at most 256 variants (one byte)",
        );
    }
    if cx.has_errors() {
        return None;
    }
    let ident = &input.ident;
    let name = ident.to_string();
    let variants: Vec<_> = e.variants.iter().map(|v| &v.ident).collect();
    let indices: Vec<u8> = (0..variants.len()).map(|i| i as u8).collect();
    let msg = format!("no variant of {name} has this index");
    Some(quote! {
        const _: () = {
            use ::rowkey::__private as __rk;
            impl __rk::KeyPart for #ident {
                const MAX_LEN: usize = 1;
                const FIXED_LEN: ::core::option::Option<usize> = ::core::option::Option::Some(1);
                fn encoded_len(&self) -> usize { 1 }
                fn encode(&self, w: &mut __rk::KeyWriter<'_>) -> ::core::result::Result<(), __rk::EncodeError> {
                    w.put_byte(match self { #(#ident::#variants => #indices,)* })
                }
            }
            impl<'de> __rk::DecodePart<'de> for #ident {
                fn decode(r: &mut __rk::KeyReader<'de>) -> ::core::result::Result<Self, __rk::DecodeError> {
                    let at = r.position();
                    match r.take_byte()? {
                        #(#indices => ::core::result::Result::Ok(#ident::#variants),)*
                        _ => ::core::result::Result::Err(r.error_at(at, __rk::DecodeErrorKind::Invalid(#msg))),
                    }
                }
            }
        };
    })
}

fn newtype(input: &DeriveInput, inner: &syn::Type) -> TokenStream {
    let ident = &input.ident;
    quote! {
        const _: () = {
            use ::rowkey::__private as __rk;
            impl __rk::KeyPart for #ident {
                const MAX_LEN: usize = <#inner as __rk::KeyPart>::MAX_LEN;
                const FIXED_LEN: ::core::option::Option<usize> = <#inner as __rk::KeyPart>::FIXED_LEN;
                const ORDERED: bool = <#inner as __rk::KeyPart>::ORDERED;
                fn encoded_len(&self) -> usize { __rk::KeyPart::encoded_len(&self.0) }
                fn encode(&self, w: &mut __rk::KeyWriter<'_>) -> ::core::result::Result<(), __rk::EncodeError> {
                    __rk::KeyPart::encode(&self.0, w)
                }
            }
            impl<'de> __rk::DecodePart<'de> for #ident {
                fn decode(r: &mut __rk::KeyReader<'de>) -> ::core::result::Result<Self, __rk::DecodeError> {
                    <#inner as __rk::DecodePart<'de>>::decode(r).map(#ident)
                }
            }
        };
    }
}
