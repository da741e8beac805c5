//! `impl RowKey`: `encoded_len`, `write_key` (what `encode_into` and
//! `to_key` write), the consts and `layout`.

use super::{codec, prefix};
use crate::model::{FieldCodec, FieldModel, KeyModel};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

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
        let put = with_value(f, &on_err, |v| put_value_or(f, v, &on_err));
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
        match f.codec {
            FieldCodec::Binary | FieldCodec::Bytes { .. } => None,
            _ => f.codec.width(),
        }
    };
    let fixed: usize = seps + model.fields.iter().filter_map(known).sum::<usize>();
    let lens = model.fields.iter().filter(|f| known(f).is_none()).map(|f| {
        let len = with_value_len(f, |v| value_len(f, v));
        quote!(+ #len)
    });
    let begin = prefix::encode_begin(model);
    let end = prefix::encode_end(model);
    quote! {
        impl #impl_generics __rk::RowKey for #ident #ty_generics #where_clause {
            const MAX_LEN: usize = __MAX_LEN;
            const FIXED_LEN: ::core::option::Option<usize> = __FIXED_LEN;
            type Key = __rk::KeyBuf<__MAX_LEN>;

            #[inline]
            fn encoded_len(&self) -> usize {
                __PREFIX_LEN + #fixed #(#lens)*
            }

            // Always inlined into `to_key`/`encode_into`, its two callers,
            // in optimised builds: the writer then lives in registers and
            // the buffer's constant length folds the bounds checks, at
            // every field count. A debug build compiles it once.
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn write_key(&self, __w: &mut __rk::KeyWriter<'_>) -> ::core::result::Result<(), __rk::EncodeError> {
                #begin
                #(#writes)*
                #end
                ::core::result::Result::Ok(())
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
    let ident = f.ident;
    with_value_at_or(f, quote!(&self.#ident), on_err, body)
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

/// The call that writes one value (`v: &T`), its `?` after `on_err`.
fn put_value_or(f: &FieldModel, v: TokenStream, on_err: &TokenStream) -> TokenStream {
    let ty = f.value_ty;
    // Locals are interpolated with call-site spans: a span taken from the
    // type may carry a `macro_rules!` hygiene context that cannot see them.
    let w = quote!(__w);
    let desc = f.desc;
    // Spanned at the field's type, so a missing trait points there.
    match f.codec {
        // A trait call, not a bounded helper, where nothing is inverted:
        // a type without `KeyPart` is then one error at the field, not a
        // second one pointing into rowkey-core.
        FieldCodec::Binary if !desc => quote_spanned! {ty.span()=>
            <#ty as __rk::KeyPart>::encode(#v, #w)#on_err?;
        },
        FieldCodec::Binary => quote_spanned! {ty.span()=>
            __rk::desc::put_part::<#ty>(#w, #v, #desc)#on_err?;
        },
        FieldCodec::Text { width, reverse } => {
            let digits = codec::digits(width, reverse, desc);
            quote_spanned! {ty.span()=>
                #digits.put::<#ty>(#w, *#v)#on_err?;
            }
        }
        FieldCodec::Bytes { .. } => {
            let c = codec::bytes_codec_name(f);
            quote_spanned! {ty.span()=>
                #c.put(#w, <#ty as __rk::KeyBytes>::key_bytes(#v), <#ty as __rk::KeyBytes>::IS_TEXT)#on_err?;
            }
        }
        FieldCodec::DescTimestamp { text } => quote_spanned! {ty.span()=>
            __rk::DescTs { text: #text }.put::<#ty>(#w, *#v)#on_err?;
        },
        FieldCodec::DateText { .. } => {
            let c = codec::text_form(f);
            quote_spanned! {ty.span()=>
                #c.put::<#ty>(#w, #v)#on_err?;
            }
        }
        FieldCodec::UuidText | FieldCodec::DecimalText { .. } => {
            let c = codec::text_form(f);
            quote_spanned! {ty.span()=>
                #c.put(#w, #v)#on_err?;
            }
        }
    }
}

/// The expression for the bytes one value takes (`v: &T`).
fn value_len(f: &FieldModel, v: TokenStream) -> TokenStream {
    let ty = f.value_ty;
    match f.codec {
        FieldCodec::Binary => quote_spanned! {ty.span()=>
            <#ty as __rk::KeyPart>::encoded_len(#v)
        },
        FieldCodec::Bytes { .. } => {
            let c = codec::bytes_codec_name(f);
            quote_spanned! {ty.span()=>
                #c.encoded_len(<#ty as __rk::KeyBytes>::key_bytes(#v))
            }
        }
        FieldCodec::Text { .. }
        | FieldCodec::DescTimestamp { .. }
        | FieldCodec::DateText { .. }
        | FieldCodec::UuidText
        | FieldCodec::DecimalText { .. } => {
            let n = f.codec.width().unwrap_or(0);
            quote!({ let _ = #v; #n })
        }
    }
}
