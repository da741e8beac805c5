//! Per-field snippets shared by encode, decode and layout: the codec
//! constants each field's calls use.

use crate::model::{FieldCodec, FieldModel, Framing, Reverse, Side};
use proc_macro2::TokenStream;
use quote::quote;

/// `Option<u8>` tokens for the struct's separator.
pub fn separator_tokens(sep: Option<u8>) -> TokenStream {
    match sep {
        Some(b) => quote!(::core::option::Option::Some(#b)),
        None => quote!(::core::option::Option::None),
    }
}

pub fn reverse_tokens(r: Reverse) -> TokenStream {
    match r {
        Reverse::No => quote!(__rk::Reverse::No),
        Reverse::Chars => quote!(__rk::Reverse::Chars),
        Reverse::Segments(b) => quote!(__rk::Reverse::Segments(#b)),
    }
}

pub fn framing_tokens(f: Framing) -> TokenStream {
    match f {
        Framing::Escaped => quote!(__rk::Framing::Escaped),
        Framing::Raw => quote!(__rk::Framing::Raw),
        Framing::Delimited => quote!(__rk::Framing::Delimited),
        Framing::Padded { width, fill, side } => {
            let side = match side {
                Side::Left => quote!(__rk::Side::Left),
                Side::Right => quote!(__rk::Side::Right),
            };
            quote!(__rk::Framing::Padded { width: #width, fill: #fill, side: #side })
        }
    }
}

/// The name of a text/bytes field's `BytesCodec` constant: one constant
/// per field in the derive's const block (`bytes_codec_consts`), which
/// `encoded_len`, `write_key` and `decode` share.
pub fn bytes_codec_name(f: &FieldModel) -> syn::Ident {
    quote::format_ident!("__CODEC_{}", f.name())
}

/// `const __CODEC_<field>: BytesCodec = ..;` for each text/bytes field.
pub fn bytes_codec_consts(fields: &[FieldModel], sep: Option<u8>) -> TokenStream {
    fields
        .iter()
        .filter(|f| matches!(f.codec, FieldCodec::Bytes { .. }))
        .map(|f| {
            let name = bytes_codec_name(f);
            let c = bytes_codec(f, sep);
            quote!(const #name: __rk::BytesCodec = #c;)
        })
        .collect()
}

/// The `BytesCodec` constant of a text/bytes field.
pub fn bytes_codec(f: &FieldModel, sep: Option<u8>) -> TokenStream {
    let FieldCodec::Bytes {
        framing,
        max_len,
        reverse,
    } = f.codec
    else {
        return quote!();
    };
    let framing = framing_tokens(framing);
    let reverse = reverse_tokens(reverse);
    let desc = f.desc;
    let sep = separator_tokens(sep);
    quote! {
        __rk::BytesCodec {
            framing: #framing,
            max_len: #max_len,
            reverse: #reverse,
            desc: #desc,
            separator: #sep,
        }
    }
}

/// The codec value of a text-form field (`#[text(format)]`, a UUID's or a
/// decimal's `#[text]`): a date format is core's, parsed again from its
/// text in a constant.
pub fn text_form(f: &FieldModel) -> TokenStream {
    match f.codec {
        FieldCodec::DateText { format } => {
            let format = format.to_string();
            quote!({
                const __F: __rk::DateFormat = __rk::DateFormat::parse_const(#format);
                __F
            })
        }
        FieldCodec::UuidText => quote!(__rk::UuidText),
        FieldCodec::DecimalText { width, scale } => {
            quote!(__rk::DecimalText { width: #width, scale: #scale })
        }
        _ => quote!(),
    }
}

/// The `FieldCodec` value of a field, as the layout carries it.
pub fn field_codec(f: &FieldModel) -> TokenStream {
    match f.codec {
        FieldCodec::Binary => quote!(__rk::FieldCodec::Binary),
        FieldCodec::Text { width, reverse } => {
            quote!(__rk::FieldCodec::Text { width: #width, reverse: #reverse })
        }
        FieldCodec::Bytes {
            framing,
            max_len,
            reverse,
        } => {
            let framing = framing_tokens(framing);
            let reverse = reverse_tokens(reverse);
            quote!(__rk::FieldCodec::Bytes { framing: #framing, max_len: #max_len, reverse: #reverse })
        }
        FieldCodec::DescTimestamp { text } => {
            quote!(__rk::FieldCodec::DescTimestamp { text: #text })
        }
        FieldCodec::DateText { .. } => {
            let c = text_form(f);
            quote!(__rk::FieldCodec::DateText { format: #c })
        }
        FieldCodec::UuidText => quote!(__rk::FieldCodec::UuidText),
        FieldCodec::DecimalText { width, scale } => {
            quote!(__rk::FieldCodec::DecimalText { width: #width, scale: #scale })
        }
    }
}

/// The `Digits` constant of a `#[text]` field.
pub fn digits(width: usize, reverse: bool, desc: bool) -> TokenStream {
    quote!(__rk::Digits { width: #width, reverse: #reverse, desc: #desc })
}
