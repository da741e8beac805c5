//! The layout constants: the fields' `FieldLayout`s (lengths, orders,
//! offsets and totals computed by `rowkey_core`'s const functions from
//! each field's codec), the const assertions on the key's `MAX_LEN`, and
//! the `Layout`.

use super::codec;
use crate::model::{FieldModel, KeyModel};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned, ToTokens};

pub fn consts(model: &KeyModel) -> TokenStream {
    let sep_len = usize::from(model.separator.is_some());
    let n = model.fields.len();
    // Each field's lengths and order, its offset and the key's totals are
    // computed by core's const functions from its codec.
    let field_layouts: Vec<_> = model.fields.iter().map(field_layout).collect();
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
        "{name}: the layout can exceed HBase's {}-byte row key limit; lower a max_len or pad width",
        rowkey_core::HBASE_MAX_KEY_LEN
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

fn field_layout(f: &FieldModel) -> TokenStream {
    let name = f.name();
    let rust_type = type_string(f.ty);
    let value = codec::value_kind(f);
    let codec = codec::field_codec(f);
    let optional = f.optional;
    let desc = f.desc;
    let part = codec::part_facts(f);
    quote! {
        __rk::FieldLayout::of(#name, #rust_type, #value, #codec, #optional, #desc, #part)
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
