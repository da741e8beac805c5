//! What a derive emits when its input has errors: the errors, and stub
//! impls of what it would have generated, so that code using the key
//! (`to_key()`, `decode`, `scan().field.eq(..).plan()`, `key_as`) adds no
//! follow-on errors and a user sees only the real mistake. thiserror's
//! `fallback.rs` is the model. The stubs never run: the crate does not
//! compile while the errors stand.

use crate::attr;
use crate::ctxt::Ctxt;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, Path};

/// The `rowkey` path the user chose, if it can be read; `::rowkey` else.
fn krate(input: &DeriveInput) -> Path {
    let cx = Ctxt::default();
    let attrs = attr::struct_attrs(&cx, &input.attrs);
    // Its errors are the derive's own, already reported.
    let _ = cx.check();
    attrs.krate.unwrap_or_else(|| syn::parse_quote!(::rowkey))
}

/// The input's generics with the decode lifetime `'__rowkey_de` first.
fn with_de_lifetime(generics: &syn::Generics) -> syn::Generics {
    let mut g = generics.clone();
    g.params.insert(0, syn::parse_quote!('__rowkey_de));
    g
}

/// `errors` plus stubs of `RowKey`, `DecodeKey`, the inherent `decode` and
/// the scan builder's setters and `plan()`/`key()`.
pub fn row_key(input: &DeriveInput, errors: TokenStream) -> TokenStream {
    let krate = krate(input);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let de_generics = with_de_lifetime(&input.generics);
    let (de_impl_generics, _, _) = de_generics.split_for_impl();
    let scan = format_ident!("{}Scan0", ident);
    let vis = &input.vis;
    // Every key field, each absorbing any finisher and returning the stub
    // state again, so `scan().a.eq(..).b.range(..)` adds no error.
    let fields: Vec<_> = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(n) => n.named.iter().filter_map(|f| f.ident.as_ref()).collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    // A record keyed by it takes every one of its fields for a key field
    // of any type (`STUB`), so the record adds no errors of its own.
    let key_fields = if input.generics.params.is_empty() {
        quote! {
            #[automatically_derived]
            impl __rk::KeyFields for #ident {
                const NAMES: &'static [&'static str] = &[];
                const STUB: bool = true;
                type Parts = ();
                fn empty_parts() -> Self::Parts {}
                fn decode_parts(_: &[u8]) -> __rk::Result<Self::Parts, __rk::DecodeError> {
                    ::core::unimplemented!()
                }
                fn from_parts(_: Self::Parts) -> __rk::Option<Self> {
                    ::core::unimplemented!()
                }
                type RefParts<'__a> = ();
                fn empty_ref_parts<'__a>()
                where
                    '__a: '__a,
                {
                }
                const WRITES_REF_PARTS: bool = false;
                fn write_ref_parts(
                    _: &(),
                    _: &mut __rk::KeyWriter<'_>,
                ) -> __rk::Result<(), __rk::EncodeError> {
                    ::core::unimplemented!()
                }
            }

            #[automatically_derived]
            impl<const __I: usize, __T> __rk::KeyField<__I, __T> for #ident {
                fn slot(_: &mut Self::Parts) -> &mut __rk::Option<__T> {
                    ::core::unimplemented!()
                }
                fn ref_slot<'__p, '__a>(_: &'__p mut ()) -> &'__p mut __rk::Option<&'__a __T>
                where
                    '__a: '__p,
                {
                    ::core::unimplemented!()
                }
            }
        }
    } else {
        TokenStream::new()
    };
    quote! {
        #errors

        #[doc(hidden)]
        #[derive(Default)]
        #vis struct #scan {
            #(pub #fields: #krate::__private::scan::AbsorbStep<#scan>,)*
        }

        #[allow(dead_code, unused_qualifications)]
        const _: () = {
            use #krate::__private as __rk;

            #[automatically_derived]
            impl #impl_generics __rk::WriteKey for #ident #ty_generics #where_clause {
                fn write_key(&self, _: &mut __rk::KeyWriter<'_>) -> __rk::Result<(), __rk::EncodeError> {
                    ::core::unimplemented!()
                }
            }

            #[automatically_derived]
            impl #impl_generics __rk::RowKey for #ident #ty_generics #where_clause {
                const MAX_LEN: usize = 0;
                const FIXED_LEN: __rk::Option<usize> = __rk::None;
                type Key = __rk::KeyBuf<0>;
                fn encoded_len(&self) -> usize {
                    ::core::unimplemented!()
                }
                fn layout() -> &'static __rk::Layout {
                    ::core::unimplemented!()
                }
            }

            #[automatically_derived]
            impl #de_impl_generics __rk::DecodeKey<'__rowkey_de> for #ident #ty_generics #where_clause {
                fn decode(_: &'__rowkey_de [u8]) -> __rk::Result<Self, __rk::DecodeError> {
                    ::core::unimplemented!()
                }
            }

            #key_fields

            impl #impl_generics #ident #ty_generics #where_clause {
                pub fn decode(_: &[u8]) -> __rk::Result<Self, __rk::DecodeError> {
                    ::core::unimplemented!()
                }
                pub fn scan() -> #scan {
                    ::core::unimplemented!()
                }
            }

            impl #scan {
                pub fn in_bucket(self, _: u32) -> Self {
                    self
                }
                pub fn with_max_ranges(self, _: usize) -> Self {
                    self
                }
                pub fn plan(&self) -> __rk::Result<__rk::ScanPlan<1>, __rk::EncodeError> {
                    ::core::unimplemented!()
                }
                pub fn key(&self) -> __rk::Result<__rk::KeyBuf<0>, __rk::EncodeError> {
                    ::core::unimplemented!()
                }
            }
        };
    }
}

/// `errors` plus stubs of `KeyPart` and `DecodePart`.
pub fn key_part(input: &DeriveInput, errors: TokenStream) -> TokenStream {
    let krate = krate(input);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let de_generics = with_de_lifetime(&input.generics);
    let (de_impl_generics, _, _) = de_generics.split_for_impl();
    quote! {
        #errors

        #[allow(dead_code, unused_qualifications)]
        const _: () = {
            use #krate::__private as __rk;

            #[automatically_derived]
            impl #impl_generics __rk::KeyPart for #ident #ty_generics #where_clause {
                const MAX_LEN: usize = 0;
                const FIXED_LEN: __rk::Option<usize> = __rk::None;
                fn encoded_len(&self) -> usize {
                    ::core::unimplemented!()
                }
                fn encode(&self, _: &mut __rk::KeyWriter<'_>) -> __rk::Result<(), __rk::EncodeError> {
                    ::core::unimplemented!()
                }
            }

            #[automatically_derived]
            impl #de_impl_generics __rk::DecodePart<'__rowkey_de> for #ident #ty_generics #where_clause {
                fn decode(_: &mut __rk::KeyReader<'__rowkey_de>) -> __rk::Result<Self, __rk::DecodeError> {
                    ::core::unimplemented!()
                }
            }
        };
    }
}

/// `errors` plus a stub `Record` impl (keyed by a placeholder when the
/// key type is not given), so
/// that `put_record`, `query_records` and `index_of` uses of the record
/// add no errors.
pub fn record(input: &DeriveInput, errors: TokenStream) -> TokenStream {
    let cx = Ctxt::default();
    let attrs = attr::record::record_attrs(&cx, &input.attrs);
    // Its errors are the derive's own, already reported.
    let _ = cx.check();
    if !input.generics.params.is_empty() {
        return errors;
    }
    let krate = attrs.krate.unwrap_or_else(|| syn::parse_quote!(::rowkey));
    let key = attrs
        .key
        .unwrap_or_else(|| syn::parse_quote!(#krate::__private::record::NoKey));
    let ident = &input.ident;
    quote! {
        #errors

        #[allow(dead_code, unused_qualifications)]
        const _: () = {
            use #krate::__private::record as __rr;

            #[automatically_derived]
            impl __rr::Record for #ident {
                type Key = #key;
                fn key(&self) -> #key {
                    ::core::unimplemented!()
                }
                fn cells(&self) -> __rr::Vec<__rr::Cell> {
                    ::core::unimplemented!()
                }
                fn from_row(_: &__rr::Row) -> ::core::result::Result<Self, __rr::RecordError> {
                    ::core::unimplemented!()
                }
            }
        };
    }
}
