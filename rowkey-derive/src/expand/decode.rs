//! `impl DecodeKey` and the inherent `decode`.

use super::{codec, prefix};
use crate::model::{FieldModel, KeyModel};
use crate::ty;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

pub fn impl_decode_key(model: &KeyModel) -> TokenStream {
    let ident = model.ident;
    let name = ident.to_string();
    let (_, ty_generics, where_clause) = model.generics.split_for_impl();
    let lifetimes: Vec<_> = model.generics.lifetimes().map(|l| &l.lifetime).collect();
    // `impl<'__rowkey_de, 'a> DecodeKey<'__rowkey_de> for S<'a> where '__rowkey_de: 'a`, as
    // serde does: borrowed fields point into the input.
    let mut generics = model.generics.clone();
    generics.params.insert(0, syn::parse_quote!('__rowkey_de));
    {
        let wc = generics.make_where_clause();
        for l in &lifetimes {
            wc.predicates.push(syn::parse_quote!('__rowkey_de: #l));
        }
    }
    if model.fields.iter().any(|f| ty::mentions_static(f.ty)) {
        // A borrowed `&'static str` field can only come from 'static input.
        generics
            .make_where_clause()
            .predicates
            .push(syn::parse_quote!('__rowkey_de: 'static));
    }
    let (impl_generics, _, de_where) = generics.split_for_impl();
    let sep = model.separator;
    let locals: Vec<_> = model
        .fields
        .iter()
        .map(|f| format_ident!("__field_{}", f.name()))
        .collect();
    let reads = model
        .fields
        .iter()
        .zip(&locals)
        .enumerate()
        .map(|(i, (f, local))| {
            let field_name = f.name();
            // The field's name goes into an error only on the error path:
            // the reader does not carry it through every read.
            let on_err = quote!(.__in_field(#field_name));
            let sep_read = match sep {
                Some(b) if i > 0 => quote!(__r.expect_separator(#b)#on_err?;),
                _ => quote!(),
            };
            let ty = f.ty;
            let take = with_option(f, &on_err, codec::take(f, &on_err));
            let start = prefix::decode_field_start(model, i);
            let end = prefix::decode_field_end(model, i);
            quote! {
                #sep_read
                #start
                let #local: #ty = #take;
                #end
            }
        });
    let idents = model.fields.iter().map(|f| f.ident);
    let mut inherent_where: Vec<TokenStream> =
        lifetimes.iter().map(|l| quote!('__rowkey_de: #l)).collect();
    if model.fields.iter().any(|f| ty::mentions_static(f.ty)) {
        inherent_where.push(quote!('__rowkey_de: 'static));
    }
    let (plain_impl_generics, _, _) = model.generics.split_for_impl();
    let begin = prefix::decode_begin(model);
    let verify = prefix::decode_verify(model);
    let _ = where_clause;
    quote! {
        #[automatically_derived]
        impl #impl_generics __rk::DecodeKey<'__rowkey_de> for #ident #ty_generics #de_where {
            // Always inlined (optimised builds), as `to_key` is, at every
            // field count: the caller sees the fast path's single length
            // check; keys of another length go to the out-of-line copy.
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn decode(__bytes: &'__rowkey_de [u8]) -> ::core::result::Result<Self, __rk::DecodeError> {
                __rk::decode_fields(#name, __FIXED_LEN, __bytes, Self::__rowkey_decode_fields)
            }
        }

        impl #plain_impl_generics #ident #ty_generics {
            /// Decodes a key written by [`RowKey::encode_into`](__rk::RowKey::encode_into);
            /// see [`DecodeKey::decode`](__rk::DecodeKey::decode).
            #[allow(dead_code)]
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            pub fn decode<'__rowkey_de>(__bytes: &'__rowkey_de [u8]) -> ::core::result::Result<Self, __rk::DecodeError>
            where #(#inherent_where),*
            {
                <Self as __rk::DecodeKey<'__rowkey_de>>::decode(__bytes)
            }

            // Inlined into both callers in optimised builds only: a debug
            // build would compile the fields twice for nothing. `inline`
            // in debug builds too, so a crate that defines keys and never
            // decodes them compiles none of this (as generic code is).
            #[doc(hidden)]
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn __rowkey_decode_fields<'__rowkey_de>(__bytes: &'__rowkey_de [u8]) -> ::core::result::Result<Self, __rk::DecodeError>
            where #(#inherent_where),*
            {
                let mut __reader = __rk::KeyReader::new(__bytes, #name);
                let __r = &mut __reader;
                #begin
                #(#reads)*
                __reader.finish()?;
                let __value = #ident { #(#idents: #locals),* };
                #verify
                ::core::result::Result::Ok(__value)
            }
        }
    }
}

fn with_option(f: &FieldModel, on_err: &TokenStream, take: TokenStream) -> TokenStream {
    if !f.optional {
        return take;
    }
    let desc = f.desc;
    quote! {
        if __rk::option::take_tag(__r, #desc)#on_err? {
            ::core::option::Option::Some(#take)
        } else {
            ::core::option::Option::None
        }
    }
}
