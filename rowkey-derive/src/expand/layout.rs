//! The layout constants: the fields' `FieldLayout`s (offsets and totals
//! computed by `rowkey_core`'s const functions), the const assertions on
//! the key's `MAX_LEN`, and the `Layout`.

use super::codec;
use crate::model::{Codec, FieldModel, Framing, KeyModel, Reverse};
use crate::ty;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;

pub fn consts(model: &KeyModel) -> TokenStream {
    let sep_len = usize::from(model.separator.is_some());
    let n = model.fields.len();
    // Each field's most and fixed bytes; its offset and the key's totals
    // are computed from them by core's const functions.
    let field_layouts: Vec<_> = model
        .fields
        .iter()
        .map(|f| field_layout(f, &max_len(f), &fixed_len(f)))
        .collect();
    let seps = sep_len * n.saturating_sub(1);
    let name = model.ident.to_string();
    let separator = match model.separator {
        Some(b) => {
            let c = b as char;
            quote!(::core::option::Option::Some(#c))
        }
        None => quote!(::core::option::Option::None),
    };
    let bytes_codecs = super::codec::bytes_codec_consts(&model.fields, model.separator);
    let hbase_msg = format!(
        "{name}: the layout can exceed HBase's 32767-byte row key limit; lower a max_len or pad width"
    );
    let hbase_assert = quote_spanned! {model.ident.span()=>
        const _: () = ::core::assert!(__MAX_LEN <= __rk::HBASE_MAX_KEY_LEN, #hbase_msg);
    };
    let max_assert = model.max_len.map(|m| {
        let limit = m.value;
        let msg =
            format!("{name}: the layout can take more bytes than #[rowkey(max_len = {limit})]");
        quote_spanned! {m.span=>
            const _: () = ::core::assert!(__MAX_LEN <= #limit, #msg);
        }
    });
    let target_assert = model.target.as_ref().map(|t| {
        let (limit, store) = t.value.limit();
        let msg = format!(
            "{name}: the layout can exceed {store}'s {limit}-byte row key limit (#[rowkey(target)])"
        );
        quote_spanned! {t.span=>
            const _: () = ::core::assert!(__MAX_LEN <= #limit, #msg);
        }
    });
    let prefix_consts = super::prefix::consts(model);
    let layout_prefix = super::prefix::layout_prefix(model);
    quote! {
        // Saturating: a hand-written KeyPart may claim a huge MAX_LEN, which
        // the HBase assertion below then reports instead of an overflow.
        #prefix_consts
        const __MAX_LEN: usize = __rk::layout::max_len(&__FIELDS, __PREFIX_LEN + #seps);
        const __FIXED_LEN: ::core::option::Option<usize> =
            __rk::layout::fixed_len(&__FIELDS, __PREFIX_LEN + #seps);
        #hbase_assert
        #max_assert
        #target_assert
        // Consts, not statics: `layout()` borrows a promoted copy, so a
        // crate that never asks for the layout emits none of it.
        #bytes_codecs
        const __FIELDS: [__rk::FieldLayout; #n] =
            __rk::layout::with_offsets([#(#field_layouts),*], __PREFIX_LEN, #sep_len);
        const __LAYOUT: __rk::Layout = __rk::Layout {
            format_version: __rk::layout::FORMAT_VERSION,
            name: #name,
            separator: #separator,
            max_len: __MAX_LEN,
            fixed_len: __FIXED_LEN,
            prefix: #layout_prefix,
            fields: &__FIELDS,
        };
    }
}

fn max_len(f: &FieldModel) -> TokenStream {
    let tag = usize::from(f.optional);
    match (f.codec, f.codec.static_max_len(f.kind)) {
        (Codec::Part, _) => {
            let ty = ty::with_static_lifetimes(f.value_ty);
            quote_spanned!(f.value_ty.span()=> <#ty as __rk::KeyPart>::MAX_LEN.saturating_add(#tag))
        }
        (_, Some(n)) => {
            let n = n + tag;
            quote!(#n)
        }
        (_, None) => quote!(#tag),
    }
}

fn fixed_len(f: &FieldModel) -> TokenStream {
    if f.optional {
        return quote!(::core::option::Option::None);
    }
    match f.codec {
        Codec::Part => {
            let ty = ty::with_static_lifetimes(f.value_ty);
            quote_spanned!(f.value_ty.span()=> <#ty as __rk::KeyPart>::FIXED_LEN)
        }
        Codec::Bytes {
            framing: Framing::Padded { width, .. },
            ..
        } => quote!(::core::option::Option::Some(#width)),
        Codec::Bytes { .. } => quote!(::core::option::Option::None),
        Codec::Text { width, .. }
        | Codec::TextDate { width }
        | Codec::TextDecimal { width, .. } => quote!(::core::option::Option::Some(#width)),
        Codec::TextUuid => {
            let n = crate::model::UUID_TEXT_WIDTH;
            quote!(::core::option::Option::Some(#n))
        }
        Codec::DescTs { .. } => {
            let n = f.codec.static_max_len(f.kind).unwrap_or(8);
            quote!(::core::option::Option::Some(#n))
        }
    }
}

/// How the field's bytes sort, as `__rk::Order`.
fn order(f: &FieldModel) -> TokenStream {
    let kept = if f.desc {
        quote!(__rk::Order::Descending)
    } else {
        quote!(__rk::Order::Ascending)
    };
    let none = quote!(__rk::Order::Unordered);
    match f.codec {
        Codec::Part => {
            let ty = ty::with_static_lifetimes(f.value_ty);
            quote!(if <#ty as __rk::KeyPart>::ORDERED { #kept } else { #none })
        }
        Codec::Text { reverse: true, .. } => none,
        Codec::Text { .. }
        | Codec::TextDate { .. }
        | Codec::TextUuid
        | Codec::TextDecimal { .. } => kept,
        Codec::DescTs { .. } => quote!(__rk::Order::Descending),
        Codec::Bytes {
            framing, reverse, ..
        } => {
            let ordered = reverse == Reverse::No
                && match framing {
                    Framing::Escaped | Framing::Raw => true,
                    // Right padding keeps order only when the fill is the
                    // smallest byte; left padding sorts by length first.
                    Framing::Padded { fill, left, .. } => !left && fill == 0,
                    Framing::Delimited => false,
                };
            if ordered {
                kept
            } else {
                none
            }
        }
    }
}

fn field_codec(f: &FieldModel) -> TokenStream {
    match f.codec {
        Codec::Part => quote!(__rk::FieldCodec::Binary),
        Codec::Text { width, reverse } => {
            quote!(__rk::FieldCodec::Text { width: #width, reverse: #reverse })
        }
        Codec::Bytes {
            framing,
            max_len,
            reverse,
        } => {
            let framing = codec::framing_tokens(framing);
            let reverse = codec::reverse_tokens(reverse);
            quote!(__rk::FieldCodec::Bytes { framing: #framing, max_len: #max_len, reverse: #reverse })
        }
        Codec::DescTs { text } => quote!(__rk::FieldCodec::DescTimestamp { text: #text }),
        Codec::TextDate { .. } => {
            let c = codec::text_form(f);
            quote!(__rk::FieldCodec::DateText { format: #c })
        }
        Codec::TextUuid => quote!(__rk::FieldCodec::UuidText),
        Codec::TextDecimal { width, scale } => {
            quote!(__rk::FieldCodec::DecimalText { width: #width, scale: #scale })
        }
    }
}

/// What the field's values are: the type's own `KeyPart::VALUE`, or text
/// or bytes; a text form's codec fixes its type.
fn value_kind(f: &FieldModel) -> TokenStream {
    let ty = ty::with_static_lifetimes(f.value_ty);
    match f.codec {
        Codec::Bytes { .. } => quote_spanned! {f.value_ty.span()=>
            __rk::ValueKind::of_bytes(<#ty as __rk::KeyBytes>::IS_TEXT)
        },
        Codec::TextUuid => quote!(__rk::ValueKind::Uuid),
        Codec::TextDecimal { .. } => quote!(__rk::ValueKind::Decimal),
        Codec::Part | Codec::Text { .. } | Codec::DescTs { .. } | Codec::TextDate { .. } => {
            quote_spanned! {f.value_ty.span()=>
                <#ty as __rk::KeyPart>::VALUE
            }
        }
    }
}

fn field_layout(f: &FieldModel, max: &TokenStream, fixed: &TokenStream) -> TokenStream {
    let name = f.name();
    let rust_type = type_string(f.ty);
    let value = value_kind(f);
    let codec = field_codec(f);
    let order = order(f);
    let optional = f.optional;
    let desc = f.desc;
    quote! {
        __rk::FieldLayout {
            name: #name,
            rust_type: #rust_type,
            value: #value,
            codec: #codec,
            offset: ::core::option::Option::None,
            max_len: #max,
            fixed_len: #fixed,
            order: #order,
            optional: #optional,
            desc: #desc,
        }
    }
}

/// The type as a person writes it (`&'a str`, not `& 'a str`).
fn type_string(ty: &syn::Type) -> String {
    let s = ty.to_token_stream().to_string();
    s.replace("& '", "&'")
        .replace(" < ", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
        .replace(" ; ", "; ")
        .replace("[ ", "[")
        .replace(" ]", "]")
        .replace(" :: ", "::")
}
