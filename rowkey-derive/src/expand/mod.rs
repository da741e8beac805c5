//! Code generation from a checked [`KeyModel`]. The generated code is a
//! short sequence of calls into `rowkey-core` with the plan's constants
//! baked in; no byte rule is implemented here.

pub mod cell_value;
mod codec;
mod decode;
mod encode;
mod fields;
mod index;
mod key_fields;
pub mod key_part;
mod layout;
mod phoenix;
mod prefix;
pub mod record;
mod scan;

use crate::model::KeyModel;
use proc_macro2::TokenStream;
use quote::quote;

/// `krate::name`, the appended name spanned at the crate path: a
/// `#[rowkey(crate = "..")]` that names another crate is an error at the
/// attribute's string, not at the derive.
pub fn facade_item(krate: &syn::Path, name: &str) -> TokenStream {
    let ident = syn::Ident::new(name, syn::spanned::Spanned::span(krate));
    quote!(#krate::#ident)
}

/// The name the expansion gives the runtime (`krate::__private`) beside
/// the key struct: every path of the expansion goes through this one
/// import, so a `#[rowkey(crate = "..")]` that names another crate is one
/// error, at the attribute (rustc reports a failed import once and
/// nothing that goes through it).
pub fn runtime(model: &KeyModel) -> syn::Ident {
    let span = syn::spanned::Spanned::span(&model.krate);
    quote::format_ident!("__rowkey_runtime_{}", model.ident, span = span)
}

/// The whole expansion of `#[derive(RowKey)]`.
pub fn row_key(model: &KeyModel) -> TokenStream {
    let private = facade_item(&model.krate, "__private");
    let runtime = runtime(model);
    let span = syn::spanned::Spanned::span(&model.krate);
    let import = quote::quote_spanned! {span=>
        #[doc(hidden)]
        #[allow(unused_imports)]
        use #private as #runtime;
    };
    let consts = layout::consts(model);
    if model.phoenix {
        let key = phoenix::impl_row_key(model);
        // A record's key fields by name; the key is written from the
        // whole struct (WRITES_REF_PARTS is false).
        let key_fields = key_fields::impl_key_fields(model);
        // The typed scan is every key's: its Phoenix codec is core's.
        let scan_structs = scan::scan_structs(model);
        let scan_impls = scan::scan_impls(model);
        return quote! {
            #import
            #scan_structs
            #[doc(hidden)]
            #[allow(non_upper_case_globals, unused_qualifications, clippy::identity_op)]
            const _: () = {
                use #runtime as __rk;
                use __rk::InField as _;
                #consts
                #key
                #scan_impls
                #key_fields
            };
        };
    }
    let encode = encode::impl_row_key(model);
    let decode = decode::impl_decode_key(model);
    let scan_structs = scan::scan_structs(model);
    let scan_impls = scan::scan_impls(model);
    let index_of = index::impl_index_of(model);
    let key_fields = key_fields::impl_key_fields(model);
    quote! {
        #import
        #scan_structs
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::identity_op)]
        const _: () = {
            use #runtime as __rk;
            use __rk::InField as _;
            #consts
            #encode
            #decode
            #scan_impls
            #index_of
            #key_fields
        };
    }
}
