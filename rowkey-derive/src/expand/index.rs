//! `impl IndexOf<Main>` for `#[rowkey(index_of = Main)]`: each index
//! field copied from the main key's field of the same name.

use crate::model::KeyModel;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

/// The impl, or nothing without `index_of`.
pub fn impl_index_of(model: &KeyModel) -> TokenStream {
    let Some(main) = &model.index_of else {
        return TokenStream::new();
    };
    let ident = model.ident;
    let (impl_generics, ty_generics, where_clause) = model.generics.split_for_impl();
    // Spanned at the index field, so that a field the main key lacks, or
    // one of another type, is one error there.
    let fields = model.fields.iter().map(|f| {
        let name = f.ident;
        let ty = f.ty;
        quote_spanned! {name.span()=>
            #name: {
                let __value: &#ty = &__main.#name;
                ::core::clone::Clone::clone(__value)
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics __rk::IndexOf<#main> for #ident #ty_generics #where_clause {
            fn index_key(__main: &#main) -> Self {
                #ident { #(#fields,)* }
            }
        }
    }
}
