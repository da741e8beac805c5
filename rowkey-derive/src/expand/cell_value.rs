//! `#[derive(CellValue)]` code: the same enum a key field and a record's
//! cell. A unit-only enum's cell holds the variant's name as UTF-8 (what
//! HBase's shell shows and a Java writer's `Bytes.toBytes(e.name())`
//! writes; variants may be reordered, as the key's byte may not); a
//! newtype's cell is its inner value's. The rules are `KeyPart`'s
//! (`check/key_part.rs`).

use crate::model::{KeyPartModel, PartShape};
use proc_macro2::TokenStream;
use quote::quote;

/// The `CellValue` impl of a checked `#[derive(CellValue)]`.
pub fn cell_value(model: &KeyPartModel) -> TokenStream {
    let private = super::facade_item(&model.krate, "__private");
    let ident = model.ident;
    let body = match &model.shape {
        PartShape::UnitEnum(variants) => {
            let names: Vec<String> = variants.iter().map(|v| v.to_string()).collect();
            let bytes = names
                .iter()
                .map(|n| proc_macro2::Literal::byte_string(n.as_bytes()));
            let msg = format!("the cell holds no variant of {ident} (a variant's name)");
            quote! {
                fn to_cell(&self) -> __rr::Vec<u8> {
                    match self { #(#ident::#variants => #names,)* }.as_bytes().to_vec()
                }
                fn from_cell(__b: &[u8]) -> ::core::result::Result<Self, __rr::CellError> {
                    match __b {
                        #(#bytes => ::core::result::Result::Ok(#ident::#variants),)*
                        _ => ::core::result::Result::Err(__rr::CellError::invalid(#msg)),
                    }
                }
            }
        }
        // Refused in `derive_cell_value` before expansion.
        PartShape::Bits(_) => return TokenStream::new(),
        PartShape::Newtype(inner) => quote! {
            fn to_cell(&self) -> __rr::Vec<u8> {
                <#inner as __rr::CellValue>::to_cell(&self.0)
            }
            fn from_cell(__b: &[u8]) -> ::core::result::Result<Self, __rr::CellError> {
                <#inner as __rr::CellValue>::from_cell(__b).map(#ident)
            }
        },
    };
    quote! {
        const _: () = {
            use #private::record as __rr;
            #[automatically_derived]
            impl __rr::CellValue for #ident {
                #body
            }
        };
    }
}
