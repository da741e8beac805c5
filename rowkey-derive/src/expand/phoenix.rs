//! A Phoenix key's `impl RowKey` and `impl DecodeKey`
//! (`#[rowkey(phoenix)]`): each column through `rowkey_core`'s
//! `put_column` / `take_column`, which write Phoenix's separators, and
//! the key's `PhoenixKeyLen`, which says where it ends (trailing NULLs
//! dropped) before the salt is computed over it. The layout constants
//! and the salt are the shared ones, and so is the typed scan (its
//! Phoenix steps are `rowkey_core::scan`'s).

use super::{codec, prefix};
use crate::model::{FieldCodec, FieldModel, KeyModel};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

fn column_name(f: &FieldModel) -> syn::Ident {
    format_ident!("__PHOENIX_{}", f.name())
}

/// `const __PHOENIX_<field>: PhoenixColumn = ..;`, and the assertion that
/// the field's Rust type holds the column's Phoenix type.
fn columns(model: &KeyModel) -> TokenStream {
    model
        .fields
        .iter()
        .map(|f| {
            let FieldCodec::Phoenix { ty, last, max_len } = f.codec else {
                return quote!();
            };
            let name = column_name(f);
            let tokens = codec::phoenix_type(ty);
            let desc = f.desc;
            let value_ty = f.value_ty;
            let msg = format!(
                "field `{}`: a Phoenix {ty} column is {}, not this type",
                f.name(),
                ty.rust_types()
            );
            let bit = ty.bit();
            quote_spanned! {value_ty.span()=>
                const #name: __rk::phoenix::PhoenixColumn =
                    __rk::phoenix::PhoenixColumn::of(#tokens, #desc, #last, #max_len);
                const _: () = ::core::assert!(
                    <#value_ty as __rk::phoenix::PhoenixValue>::HOLDS & #bit != 0,
                    #msg
                );
            }
        })
        .collect()
}

pub fn impl_row_key(model: &KeyModel) -> TokenStream {
    let ident = model.ident;
    let name = ident.to_string();
    let (impl_generics, ty_generics, where_clause) = model.generics.split_for_impl();
    let columns = columns(model);
    let writes = model.fields.iter().map(|f| {
        let (field, col, fname) = (f.ident, column_name(f), f.name());
        quote_spanned! {f.ty.span()=>
            __rk::phoenix::put_column(__w, &self.#field, &#col, &mut __len).__in_field(#fname)?;
        }
    });
    let lens = model.fields.iter().map(|f| {
        let (field, col) = (f.ident, column_name(f));
        quote! {
            __len.add(
                &#col,
                __rk::phoenix::PhoenixValue::phoenix_len(&self.#field, &#col.ty),
                __rk::phoenix::PhoenixValue::is_null(&self.#field),
            );
        }
    });
    let locals: Vec<_> = model
        .fields
        .iter()
        .map(|f| format_ident!("__field_{}", f.name()))
        .collect();
    let reads = model.fields.iter().zip(&locals).map(|(f, local)| {
        let (col, fname, ty) = (column_name(f), f.name(), f.ty);
        quote_spanned! {f.ty.span()=>
            let __at = __r.position();
            let __raw = __rk::phoenix::take_column(__r, &#col, &mut __end).__in_field(#fname)?;
            let #local: #ty = __rk::phoenix::column_value::<#ty>(__raw, &#col)
                .map_err(|__e| __r.error_at(__at, __e))
                .__in_field(#fname)?;
        }
    });
    let idents = model.fields.iter().map(|f| f.ident);
    let begin = prefix::encode_begin(model);
    let end = prefix::encode_end(model);
    let decode_begin = prefix::decode_begin(model);
    let row_key = super::encode::impl_row_key_trait(
        model,
        quote! {
            let mut __len = __rk::phoenix::PhoenixKeyLen::new(__PREFIX_LEN);
            #(#lens)*
            __len.len()
        },
    );
    let verify = prefix::decode_verify(model);
    quote! {
        #columns

        #[automatically_derived]
        impl #impl_generics __rk::WriteKey for #ident #ty_generics #where_clause {
            fn write_key(&self, __w: &mut __rk::KeyWriter<'_>) -> ::core::result::Result<(), __rk::EncodeError> {
                #begin
                let mut __len = __rk::phoenix::PhoenixKeyLen::new(__w.position());
                #(#writes)*
                // A key of only NULLs refused, before the salt hashes it.
                __rk::phoenix::finish_key(__w, &__len)?;
                #end
                ::core::result::Result::Ok(())
            }
        }

        #row_key

        #[automatically_derived]
        impl<'__rowkey_de> __rk::DecodeKey<'__rowkey_de> for #ident {
            fn decode(__bytes: &'__rowkey_de [u8]) -> ::core::result::Result<Self, __rk::DecodeError> {
                __rk::decode_fields(#name, __FIXED_LEN, __bytes, Self::__rowkey_decode_fields)
            }
        }

        impl #ident {
            /// Decodes a key Phoenix (or [`RowKey::encode_into`](__rk::RowKey::encode_into))
            /// wrote; see [`DecodeKey::decode`](__rk::DecodeKey::decode).
            #[allow(dead_code)]
            pub fn decode(__bytes: &[u8]) -> ::core::result::Result<Self, __rk::DecodeError> {
                <Self as __rk::DecodeKey<'_>>::decode(__bytes)
            }

            #[doc(hidden)]
            fn __rowkey_decode_fields(__bytes: &[u8]) -> ::core::result::Result<Self, __rk::DecodeError> {
                let mut __reader = __rk::KeyReader::new(__bytes, #name);
                let __r = &mut __reader;
                #decode_begin
                let mut __end = __rk::phoenix::PhoenixKeyLen::new(__r.position());
                #(#reads)*
                __rk::phoenix::finish_read(&__reader, &__end)?;
                let __value = #ident { #(#idents: #locals),* };
                #verify
                ::core::result::Result::Ok(__value)
            }
        }
    }
}
