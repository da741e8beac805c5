//! `impl RowKey`: `encoded_len`, `write_key` (what `encode_into` and
//! `to_key` write), the consts and `layout`.

use super::fields::{place, writes_ref_parts};
use super::{codec, prefix};
use crate::model::{FieldModel, KeyModel};
use proc_macro2::TokenStream;
use quote::quote;

pub fn impl_row_key(model: &KeyModel) -> TokenStream {
    let ident = model.ident;
    let (impl_generics, ty_generics, where_clause) = model.generics.split_for_impl();
    let sep = model.separator;
    let writes = model.fields.iter().enumerate().map(|(i, f)| {
        let field_name = f.name();
        let sep_write = match sep {
            Some(b) if i > 0 => quote!(__w.put_byte(#b)?;),
            _ => quote!(),
        };
        // The field's name goes into an error only on the error path: the
        // writer does not carry it through every write.
        let on_err = quote!(.__in_field(#field_name));
        let put = with_value(f, &on_err, |v| codec::put(f, v, &on_err));
        let start = prefix::encode_field_start(model, i);
        let end = prefix::encode_field_end(model, i);
        quote! {
            #sep_write
            #start
            #put
            #end
        }
    });
    let seps = match sep {
        Some(_) => model.fields.len() - 1,
        None => 0,
    };
    // Widths the derive knows (digits, timestamps, text forms) are summed
    // here into one number; only the others are expressions.
    let known = |f: &FieldModel| {
        if f.optional {
            return None;
        }
        codec::fixed_width(f)
    };
    let fixed: usize = seps + model.fields.iter().filter_map(known).sum::<usize>();
    let lens = model.fields.iter().filter(|f| known(f).is_none()).map(|f| {
        let len = with_value_len(f, |v| codec::encoded_len(f, v));
        quote!(+ #len)
    });
    let begin = prefix::encode_begin(model);
    let end = prefix::encode_end(model);
    let body = quote! {
        #begin
        #(#writes)*
        #end
        ::core::result::Result::Ok(())
    };
    let places: Vec<_> = model.fields.iter().map(place).collect();
    let idents = model.fields.iter().map(|f| f.ident);
    // Always inlined into `to_key`/`encode_into`, its callers, in
    // optimised builds: the writer then lives in registers and the
    // buffer's constant length folds the bounds checks, at every field
    // count. A debug build compiles it once.
    let inline = quote! {
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[cfg_attr(debug_assertions, inline)]
    };
    // A key a record can borrow its fields for writes them in one
    // function of the borrowed values, which `write_key` and the record's
    // `write_ref_parts` both call; any other reads them from `self`.
    let (write_fields, write_key_body) = if writes_ref_parts(model) {
        let types = model.fields.iter().map(|f| f.ty);
        let f = quote! {
            #inline
            #[allow(clippy::too_many_arguments)]
            fn __rk_write_fields(
                __w: &mut __rk::KeyWriter<'_>,
                #(#places: &#types,)*
            ) -> ::core::result::Result<(), __rk::EncodeError> {
                #body
            }
        };
        (f, quote!(__rk_write_fields(__w, #(&self.#idents),*)))
    } else {
        (quote!(), quote! { #(let #places = &self.#idents;)* #body })
    };
    let row_key = impl_row_key_trait(model, quote!(__PREFIX_LEN + #fixed #(#lens)*));
    quote! {
        #write_fields

        #[automatically_derived]
        impl #impl_generics __rk::WriteKey for #ident #ty_generics #where_clause {
            #inline
            fn write_key(&self, __w: &mut __rk::KeyWriter<'_>) -> ::core::result::Result<(), __rk::EncodeError> {
                #write_key_body
            }
        }

        #row_key
    }
}

/// `impl RowKey`: the layout constants' lengths and layout, and
/// `encoded_len`'s body.
pub(super) fn impl_row_key_trait(model: &KeyModel, encoded_len: TokenStream) -> TokenStream {
    let ident = model.ident;
    let (impl_generics, ty_generics, where_clause) = model.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics __rk::RowKey for #ident #ty_generics #where_clause {
            const MAX_LEN: usize = __MAX_LEN;
            const FIXED_LEN: ::core::option::Option<usize> = __FIXED_LEN;
            type Key = __rk::KeyBuf<__MAX_LEN>;

            #[inline]
            fn encoded_len(&self) -> usize {
                #encoded_len
            }

            #[inline]
            fn layout() -> &'static __rk::Layout {
                &__LAYOUT
            }
        }
    }
}

/// Runs `body` on a reference to the field's value, unwrapping `Option`
/// with a tag byte first.
fn with_value(
    f: &FieldModel,
    on_err: &TokenStream,
    body: impl Fn(TokenStream) -> TokenStream,
) -> TokenStream {
    let place = place(f);
    with_value_at_or(f, quote!(#place), on_err, body)
}

/// [`with_value`] for a value at `place` (a `&T`, or `&Option<T>`), each
/// `?` after `on_err` (a `.map_err(..)`).
fn with_value_at_or(
    f: &FieldModel,
    place: TokenStream,
    on_err: &TokenStream,
    body: impl Fn(TokenStream) -> TokenStream,
) -> TokenStream {
    if !f.optional {
        return body(place);
    }
    let desc = f.desc;
    let some = body(quote!(__v));
    quote! {
        match #place {
            ::core::option::Option::None => __rk::option::put_tag(__w, false, #desc)#on_err?,
            ::core::option::Option::Some(__v) => {
                __rk::option::put_tag(__w, true, #desc)#on_err?;
                #some
            }
        }
    }
}

fn with_value_len(f: &FieldModel, body: impl Fn(TokenStream) -> TokenStream) -> TokenStream {
    let ident = f.ident;
    if !f.optional {
        return body(quote!(&self.#ident));
    }
    let some = body(quote!(__v));
    quote! {
        (1 + match &self.#ident {
            ::core::option::Option::None => 0,
            ::core::option::Option::Some(__v) => #some,
        })
    }
}
