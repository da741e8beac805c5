//! `impl KeyFields` and one `impl KeyField<I, T>` per field: the key's
//! fields by name, which `#[derive(Record)]` matches a record's fields to.
//! Only for keys without generics or borrowed fields (a record's key
//! owns its fields).

use super::fields::{has_key_fields, place, writes_ref_parts};
use crate::model::KeyModel;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

pub fn impl_key_fields(model: &KeyModel) -> TokenStream {
    if !has_key_fields(model) {
        return TokenStream::new();
    }
    let ident = model.ident;
    let names: Vec<String> = model.fields.iter().map(|f| f.name()).collect();
    let idents: Vec<_> = model.fields.iter().map(|f| f.ident).collect();
    let types: Vec<_> = model.fields.iter().map(|f| f.ty).collect();
    let index: Vec<_> = (0..model.fields.len())
        .map(Literal::usize_unsuffixed)
        .collect();
    // The tuple spelled out, not `Self::RefParts<'__a>`: where the
    // runtime's import failed (`#[rowkey(crate = "..")]` naming another
    // crate), that path is a second error at the derive.
    let ref_parts = quote!((#(__rk::Option<&'__a #types>,)*));
    let nones = model.fields.iter().map(|_| quote!(__rk::None));
    let ref_nones = nones.clone();
    let writes = writes_ref_parts(model);
    let write = if writes {
        let places: Vec<_> = model.fields.iter().map(place).collect();
        quote! {
            match *__parts {
                (#(__rk::Some(#places),)*) => __rk_write_fields(__w, #(#places),*),
                _ => __rk::Err(__w.error(__rk::EncodeErrorKind::Invalid(
                    "a record left a key field unset",
                ))),
            }
        }
    } else {
        quote!(__rk::Err(__w.error(__rk::EncodeErrorKind::Invalid(
            "this key is written from the whole struct (a custom salt hash)",
        ))))
    };
    let slots = model.fields.iter().zip(&index).map(|(f, i)| {
        let ty = f.ty;
        quote! {
            #[automatically_derived]
            impl __rk::KeyField<#i, #ty> for #ident {
                fn slot(__parts: &mut Self::Parts) -> &mut __rk::Option<#ty> {
                    &mut __parts.#i
                }
                fn ref_slot<'__p, '__a>(
                    __parts: &'__p mut #ref_parts,
                ) -> &'__p mut __rk::Option<&'__a #ty>
                where
                    '__a: '__p,
                {
                    &mut __parts.#i
                }
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl __rk::KeyFields for #ident {
            const NAMES: &'static [&'static str] = &[#(#names),*];
            type Parts = (#(__rk::Option<#types>,)*);
            fn empty_parts() -> Self::Parts {
                (#(#nones,)*)
            }
            fn decode_parts(__bytes: &[u8]) -> __rk::Result<Self::Parts, __rk::DecodeError> {
                let __key: Self = <Self as __rk::DecodeKey<'_>>::decode(__bytes)?;
                __rk::Ok((#(__rk::Some(__key.#idents),)*))
            }
            fn from_parts(__parts: Self::Parts) -> __rk::Option<Self> {
                __rk::Some(#ident { #(#idents: __parts.#index?,)* })
            }
            type RefParts<'__a> = #ref_parts;
            fn empty_ref_parts<'__a>() -> #ref_parts
            where
                '__a: '__a,
            {
                (#(#ref_nones,)*)
            }
            const WRITES_REF_PARTS: bool = #writes;
            #[inline(always)]
            fn write_ref_parts<'__a>(
                __parts: &#ref_parts,
                __w: &mut __rk::KeyWriter<'_>,
            ) -> __rk::Result<(), __rk::EncodeError> {
                #write
            }
        }
        #(#slots)*
    }
}
