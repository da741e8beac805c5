//! `#[derive(KeyPart)]` code: unit-only enums (one byte, the variant's
//! position in declared order, so declared order is sort order) and
//! single-field newtype structs (the inner type's encoding, order and
//! bounds). Enums are also salt bucket groups (`KeyGroup`): one group per
//! variant. The rules are in `check/key_part.rs`.

use crate::model::{BitsFieldModel, KeyPartModel, PartShape};
use proc_macro2::TokenStream;
use quote::quote;

/// The impls of a checked `#[derive(KeyPart)]`.
pub fn key_part(model: &KeyPartModel) -> TokenStream {
    match &model.shape {
        PartShape::UnitEnum(variants) => unit_enum(model, variants),
        PartShape::Newtype(inner) => newtype(model, inner),
        PartShape::Bits(fields) => bits(model, fields),
    }
}

/// A struct of `#[bits(n)]` fields is one big-endian word of whole
/// bytes, the first field in the highest bits (`rowkey_core::codec::bits`
/// does the byte work): fixed width, ordered as the fields in declared
/// order.
fn bits(model: &KeyPartModel, fields: &[BitsFieldModel]) -> TokenStream {
    let private = super::facade_item(&model.krate, "__private");
    let ident = model.ident;
    let name = ident.to_string();
    let total: u32 = fields.iter().map(|f| u32::from(f.bits)).sum();
    let len = (total / 8) as usize;
    let idents: Vec<_> = fields.iter().map(|f| f.ident).collect();
    let names: Vec<String> = idents.iter().map(|i| i.to_string()).collect();
    let tys: Vec<_> = fields.iter().map(|f| f.ty).collect();
    let bits: Vec<u8> = fields.iter().map(|f| f.bits).collect();
    let mut left = total;
    let shifts: Vec<u32> = bits
        .iter()
        .map(|&b| {
            left -= u32::from(b);
            left
        })
        .collect();
    let too_wide: Vec<String> = names
        .iter()
        .zip(&bits)
        .map(|(n, b)| format!("`{n}` takes {b} bits, more than its type holds"))
        .collect();
    quote! {
        const _: () = {
            use #private as __rk;
            // Types the derive cannot name are checked here.
            #( const _: () = ::core::assert!(#bits as u32 <= <#tys as __rk::BitField>::WIDTH, #too_wide); )*
            #[automatically_derived]
            impl __rk::KeyPart for #ident {
                const MAX_LEN: usize = #len;
                const FIXED_LEN: ::core::option::Option<usize> = ::core::option::Option::Some(#len);
                const VALUE: __rk::ValueKind = __rk::ValueKind::Bits {
                    name: #name,
                    fields: &[#(__rk::BitsField {
                        name: #names,
                        bits: #bits,
                        boolean: <#tys as __rk::BitField>::BOOLEAN,
                    }),*],
                };
                fn encoded_len(&self) -> usize { #len }
                fn encode(&self, __w: &mut __rk::KeyWriter<'_>) -> ::core::result::Result<(), __rk::EncodeError> {
                    let mut __word: u64 = 0;
                    #( __word = __rk::bits::pack(__w, __word, self.#idents, #bits, #names)?; )*
                    __rk::bits::put_word(__w, __word, #len)
                }
            }
            #[automatically_derived]
            impl<'__rowkey_de> __rk::DecodePart<'__rowkey_de> for #ident {
                fn decode(__r: &mut __rk::KeyReader<'__rowkey_de>) -> ::core::result::Result<Self, __rk::DecodeError> {
                    let __word = __rk::bits::take_word(__r, #len)?;
                    ::core::result::Result::Ok(#ident {
                        #( #idents: __rk::bits::unpack::<#tys>(__word, #shifts, #bits), )*
                    })
                }
            }
        };
    }
}

fn unit_enum(model: &KeyPartModel, variants: &[&syn::Ident]) -> TokenStream {
    let private = super::facade_item(&model.krate, "__private");
    let ident = model.ident;
    let name = ident.to_string();
    let indices: Vec<u8> = (0..variants.len()).map(|i| i as u8).collect();
    let msg = format!("no variant of {name} is stored as this byte");
    let count = variants.len() as u32;
    let variant_names = variants.iter().map(|v| v.to_string());
    quote! {
        const _: () = {
            use #private as __rk;
            #[automatically_derived]
            impl __rk::KeyPart for #ident {
                const MAX_LEN: usize = 1;
                const FIXED_LEN: ::core::option::Option<usize> = ::core::option::Option::Some(1);
                const VALUE: __rk::ValueKind = __rk::ValueKind::Enum {
                    name: #name,
                    variants: &[#(#variant_names),*],
                };
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
    }
}

/// A newtype is stored exactly as its inner value, so it inherits the
/// inner type's bounds and whether its bytes keep order (`ORDERED`).
fn newtype(model: &KeyPartModel, inner: &syn::Type) -> TokenStream {
    let private = super::facade_item(&model.krate, "__private");
    let ident = model.ident;
    let name = ident.to_string();
    quote! {
        const _: () = {
            use #private as __rk;
            #[automatically_derived]
            impl __rk::KeyPart for #ident {
                const MAX_LEN: usize = <#inner as __rk::KeyPart>::MAX_LEN;
                const FIXED_LEN: ::core::option::Option<usize> = <#inner as __rk::KeyPart>::FIXED_LEN;
                const ORDERED: bool = <#inner as __rk::KeyPart>::ORDERED;
                const VALUE: __rk::ValueKind = __rk::ValueKind::Newtype {
                    name: #name,
                    inner: &<#inner as __rk::KeyPart>::VALUE,
                };
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
