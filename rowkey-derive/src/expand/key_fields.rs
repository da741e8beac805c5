//! `impl KeyFields` and one `impl KeyField<I, T>` per field: the key's
//! fields by name, which `#[derive(Record)]` matches a record's fields to.
//! Only for keys without generics or borrowed fields (a record's key
//! owns its fields).

use crate::model::KeyModel;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

pub fn impl_key_fields(model: &KeyModel) -> TokenStream {
    if !model.generics.params.is_empty() || model.fields.iter().any(|f| crate::ty::borrows(f.ty)) {
        return TokenStream::new();
    }
    let ident = model.ident;
    let names: Vec<String> = model.fields.iter().map(|f| f.name()).collect();
    let idents: Vec<_> = model.fields.iter().map(|f| f.ident).collect();
    let types: Vec<_> = model.fields.iter().map(|f| f.ty).collect();
    let index: Vec<_> = (0..model.fields.len())
        .map(Literal::usize_unsuffixed)
        .collect();
    let nones = model.fields.iter().map(|_| quote!(__rk::None));
    let slots = model.fields.iter().zip(&index).map(|(f, i)| {
        let ty = f.ty;
        quote! {
            #[automatically_derived]
            impl __rk::KeyField<#i, #ty> for #ident {
                fn slot(__parts: &mut Self::Parts) -> &mut __rk::Option<#ty> {
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
        }
        #(#slots)*
    }
}
