//! Every per-codec choice of the expansion, in one place: the codec
//! constants each field's calls use, the call that writes a value, the
//! call that reads it, its length, and what the layout says its values
//! are. The byte rules behind each call are `rowkey-core`'s.

use crate::model::{FieldCodec, FieldModel, Framing, Reverse, Side};
use crate::ty;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

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
        FieldCodec::Phoenix { ty, last, max_len } => {
            let ty = phoenix_type(ty);
            quote!(__rk::FieldCodec::Phoenix { ty: #ty, last: #last, max_len: #max_len })
        }
    }
}

/// A `PhoenixType` as tokens.
pub fn phoenix_type(ty: rowkey_core::codec::phoenix::PhoenixType) -> TokenStream {
    use rowkey_core::codec::phoenix::PhoenixType as P;
    let opt_u32 = |v: Option<u32>| match v {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    };
    let opt_u8 = |v: Option<u8>| match v {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    };
    match ty {
        P::Varchar { max_chars } => {
            let m = opt_u32(max_chars);
            quote!(__rk::phoenix::PhoenixType::Varchar { max_chars: #m })
        }
        P::Char { len } => quote!(__rk::phoenix::PhoenixType::Char { len: #len }),
        P::Binary { len } => quote!(__rk::phoenix::PhoenixType::Binary { len: #len }),
        P::Decimal { precision, scale } => {
            let (p, s) = (opt_u8(precision), opt_u8(scale));
            quote!(__rk::phoenix::PhoenixType::Decimal { precision: #p, scale: #s })
        }
        simple => {
            // The unit variants, by their Debug name.
            let name = quote::format_ident!("{}", format!("{simple:?}"));
            quote!(__rk::phoenix::PhoenixType::#name)
        }
    }
}

/// The `Digits` constant of a `#[text]` field.
pub fn digits(width: usize, reverse: bool, desc: bool) -> TokenStream {
    quote!(__rk::Digits { width: #width, reverse: #reverse, desc: #desc })
}

/// The call that writes one value (`v: &T`), its `?` after `on_err`.
pub fn put(f: &FieldModel, v: TokenStream, on_err: &TokenStream) -> TokenStream {
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
            let digits = digits(width, reverse, desc);
            quote_spanned! {ty.span()=>
                #digits.put::<#ty>(#w, *#v)#on_err?;
            }
        }
        FieldCodec::Bytes { .. } => {
            let c = bytes_codec_name(f);
            quote_spanned! {ty.span()=>
                #c.put(#w, <#ty as __rk::KeyBytes>::key_bytes(#v), <#ty as __rk::KeyBytes>::IS_TEXT)#on_err?;
            }
        }
        FieldCodec::DescTimestamp { text } => quote_spanned! {ty.span()=>
            __rk::DescTs { text: #text }.put::<#ty>(#w, *#v)#on_err?;
        },
        FieldCodec::DateText { .. } => {
            let c = text_form(f);
            quote_spanned! {ty.span()=>
                #c.put::<#ty>(#w, #v)#on_err?;
            }
        }
        // A text form of one type (a UUID's, a decimal's): its codec value.
        _ => {
            let c = text_form(f);
            quote_spanned! {ty.span()=>
                #c.put(#w, #v)#on_err?;
            }
        }
    }
}

/// The bytes every value takes, when the derive sums them into one
/// number: a width the codec fixes, but not the binary codec's or text
/// and bytes' (even padded: their own `encoded_len` says).
pub fn fixed_width(f: &FieldModel) -> Option<usize> {
    match f.codec {
        FieldCodec::Binary | FieldCodec::Bytes { .. } => None,
        codec => codec.width(),
    }
}

/// The expression for the bytes one value takes (`v: &T`).
pub fn encoded_len(f: &FieldModel, v: TokenStream) -> TokenStream {
    let ty = f.value_ty;
    match f.codec {
        FieldCodec::Binary => quote_spanned! {ty.span()=>
            <#ty as __rk::KeyPart>::encoded_len(#v)
        },
        FieldCodec::Bytes { .. } => {
            let c = bytes_codec_name(f);
            quote_spanned! {ty.span()=>
                #c.encoded_len(<#ty as __rk::KeyBytes>::key_bytes(#v))
            }
        }
        _ => {
            let n = fixed_width(f).unwrap_or(0);
            quote!({ let _ = #v; #n })
        }
    }
}

/// The expression that reads one value.
pub fn take(f: &FieldModel, on_err: &TokenStream) -> TokenStream {
    let ty = f.value_ty;
    // Locals and the impl's lifetime are interpolated with call-site spans:
    // a span taken from the type may carry a `macro_rules!` hygiene context
    // that cannot see them.
    let r = quote!(__r);
    let de = quote!('__rowkey_de);
    match f.codec {
        FieldCodec::Binary if f.desc => {
            let static_ty = ty::with_static_lifetimes(ty);
            quote_spanned! {ty.span()=>
                __rk::desc::take_inverted_part::<#ty, {
                    __rk::desc::fixed_width_for_desc(<#static_ty as __rk::KeyPart>::FIXED_LEN)
                }>(#r)#on_err?
            }
        }
        FieldCodec::Binary => quote_spanned! {ty.span()=>
            <#ty as __rk::DecodePart<#de>>::decode(#r)#on_err?
        },
        FieldCodec::Text { width, reverse } => {
            let digits = digits(width, reverse, f.desc);
            quote_spanned! {ty.span()=>
                #digits.take::<#ty>(#r)#on_err?
            }
        }
        FieldCodec::Bytes { .. } => {
            let c = bytes_codec_name(f);
            if f.borrowable() {
                quote_spanned!(ty.span()=> #c.take_borrowed::<#ty>(#r)#on_err?)
            } else {
                quote_spanned!(ty.span()=> #c.take_owned::<#ty>(#r)#on_err?)
            }
        }
        FieldCodec::DescTimestamp { text } => quote_spanned! {ty.span()=>
            __rk::DescTs { text: #text }.take::<#ty>(#r)#on_err?
        },
        FieldCodec::DateText { .. } => {
            let c = text_form(f);
            quote_spanned! {ty.span()=>
                #c.take::<#ty>(#r)#on_err?
            }
        }
        _ => {
            let c = text_form(f);
            quote_spanned! {ty.span()=>
                #c.take(#r)#on_err?
            }
        }
    }
}

/// What the field's values are: the type's own `KeyPart::VALUE`, or text
/// or bytes; a text form's codec fixes its type.
pub fn value_kind(f: &FieldModel) -> TokenStream {
    let ty = ty::with_static_lifetimes(f.value_ty);
    match f.codec {
        FieldCodec::Bytes { .. } => quote_spanned! {f.value_ty.span()=>
            __rk::ValueKind::of_bytes(<#ty as __rk::KeyBytes>::IS_TEXT)
        },
        FieldCodec::UuidText => quote!(__rk::ValueKind::Uuid),
        FieldCodec::DecimalText { .. } => quote!(__rk::ValueKind::Decimal),
        FieldCodec::Phoenix { ty, .. } => {
            let ty = phoenix_type(ty);
            quote!(#ty.value_kind())
        }
        _ => quote_spanned! {f.value_ty.span()=>
            <#ty as __rk::KeyPart>::VALUE
        },
    }
}

/// Whether the field's scan steps can take its value borrowed, `&str` /
/// `&[u8]`, rather than as its type: text and bytes, but not an
/// `Option` of them.
pub fn scans_borrowed(f: &FieldModel) -> bool {
    matches!(f.codec, FieldCodec::Bytes { .. }) && !f.optional
}

/// The part facts a field's layout is computed from: the type's own
/// `KeyPart`'s for the binary codec; every other codec fixes its lengths
/// and order itself.
pub fn part_facts(f: &FieldModel) -> TokenStream {
    match f.codec {
        FieldCodec::Binary => {
            let ty = ty::with_static_lifetimes(f.value_ty);
            quote_spanned!(f.value_ty.span()=> __rk::layout::PartFacts::of::<#ty>())
        }
        _ => quote!(__rk::layout::PartFacts::NOT_BINARY),
    }
}

/// The scan codec type that writes the field (`rowkey::scan::codec`'s,
/// or the codec's own): it fixes what the field's steps take
/// (`borrowed`: a text or bytes field's `eq` takes `&str` / `&[u8]`).
pub fn scan_codec(f: &FieldModel, borrowed: bool) -> TokenStream {
    let ty = f.value_ty;
    let owned = match f.codec {
        FieldCodec::Binary => quote!(__rk::scan::codec::Part<#ty>),
        FieldCodec::Text { .. } => quote!(__rk::scan::codec::Digits<#ty>),
        FieldCodec::Bytes { .. } if borrowed => {
            return quote!(__rk::scan::codec::BorrowedBytes<#ty>)
        }
        FieldCodec::Bytes { .. } => quote!(__rk::scan::codec::OwnedBytes<#ty>),
        FieldCodec::DescTimestamp { .. } => quote!(__rk::scan::codec::DescTs<#ty>),
        FieldCodec::DateText { .. } => quote!(__rk::scan::codec::DateText<#ty>),
        // Codecs of one type are their own scan codec type.
        FieldCodec::UuidText => quote!(__rk::UuidText),
        FieldCodec::DecimalText { .. } => quote!(__rk::DecimalText),
        // A Phoenix column's NULL is its own (no tag byte): the codec
        // takes the field's whole type, `Option` and all.
        FieldCodec::Phoenix { .. } => {
            let ty = ty::with_static_lifetimes(f.ty);
            return quote!(__rk::scan::codec::Phoenix<#ty>);
        }
    };
    if f.optional {
        quote!(__rk::scan::codec::Optional<#owned>)
    } else {
        owned
    }
}
