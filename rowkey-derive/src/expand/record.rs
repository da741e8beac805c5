//! The expansion of `#[derive(Record)]`: `impl Record` whose fields are
//! matched to the key's by name at compile time. Per field, one `const`
//! of `FieldFns` picks its role (`Select<K, key_index, is_key, codec>`),
//! so a field with no codec, or a key field of another type, is one error
//! at that field; `const` checks name a key field the record lacks and a
//! cell without a family.

use crate::model::{CellCodecModel, RecordFieldModel, RecordModel};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;

pub fn record(model: &RecordModel) -> TokenStream {
    let ident = model.ident;
    let record_name = ident.to_string();
    let key = &model.key;
    let key_name = key.to_token_stream().to_string().replace(' ', "");
    let key_span = key.span();
    let private = super::facade_item(&model.krate, "__private");
    let runtime = format_ident!(
        "__rowkey_record_runtime_{}",
        ident,
        span = model.krate.span()
    );
    let krate_span = model.krate.span();
    let import = quote_spanned! {krate_span=>
        #[doc(hidden)]
        #[allow(unused_imports)]
        use #private as #runtime;
    };
    let stored: Vec<&RecordFieldModel> = model.fields.iter().filter(|f| !f.skip).collect();
    let names: Vec<String> = stored.iter().map(|f| f.name()).collect();
    let check_key = quote_spanned! {key_span=>
        const _: () = __rr::check_key_fields::<__Key>(#record_name, #key_name, &[#(#names),*]);
    };
    let mut consts = Vec::new();
    let mut puts = Vec::new();
    let mut put_refs = Vec::new();
    let mut writes = Vec::new();
    let mut columns = Vec::new();
    for f in &stored {
        let name = f.name();
        let fns = format_ident!("__rk_fns_{}", name);
        let is_key = format_ident!("__rk_key_{}", name);
        let ty = f.ty;
        let marker = codec_marker(f);
        let role_span = match &f.codec {
            CellCodecModel::With(p) => p.span(),
            CellCodecModel::Json(s) => *s,
            CellCodecModel::Builtin => ty.span(),
            CellCodecModel::Phoenix { span, .. } => *span,
        };
        if let CellCodecModel::Phoenix {
            ty: pty,
            qualified,
            span,
        } = &f.codec
        {
            consts.push(phoenix_column(f, *pty, *qualified, *span));
        }
        consts.push(quote! {
            const #is_key: bool = __rr::is_key_field::<__Key>(#name);
        });
        consts.push(quote_spanned! {role_span=>
            const #fns: __rr::FieldFns<__Key, #ty> = <__rr::Select<
                __Key,
                { __rr::key_index::<__Key>(#name) },
                { __rr::is_key_field::<__Key>(#name) },
                #marker,
            > as __rr::FieldRole<__Key, #ty>>::FNS;
        });
        if let Some(span) = f.cell_attr {
            consts.push(quote_spanned! {span=>
                const _: () = __rr::check_not_key::<__Key>(#name, #key_name);
            });
        }
        if f.family.is_none() {
            let span = f.ident.span();
            consts.push(quote_spanned! {span=>
                const _: () = __rr::check_has_family::<__Key>(#record_name, #name);
            });
        }
        let field = f.ident;
        let family = f.family.clone().unwrap_or_default();
        let qualifier = Literal::byte_string(&f.qualifier);
        puts.push(quote!((#fns.put_key)(&mut __parts, &self.#field);));
        put_refs.push(quote!((#fns.put_ref)(&mut __parts, &self.#field);));
        writes.push(quote! {
            __rr::write_field(&#fns, &self.#field, (#record_name, #name), #family, #qualifier, &mut __cells)?;
        });
        columns.push(quote!((#is_key, #family, #qualifier)));
    }
    let reads = model.fields.iter().map(|f| {
        let field = f.ident;
        if f.skip {
            let span = f.ty.span();
            return quote_spanned! {span=> #field: ::core::default::Default::default() };
        }
        let name = f.name();
        let fns = format_ident!("__rk_fns_{}", name);
        let is_key = format_ident!("__rk_key_{}", name);
        let family = f.family.clone().unwrap_or_default();
        let qualifier = Literal::byte_string(&f.qualifier);
        quote! {
            #field: __rr::read_field(&#fns, #is_key, &mut __parts, __row, #record_name, #family, #qualifier)?
        }
    });
    // A Phoenix row's empty column, written with every row and read with
    // the record's columns (a row whose columns are all NULL holds only it).
    if let Some(p) = &model.phoenix {
        let family = &p.family;
        let qualifier = Literal::byte_string(rowkey_core::codec::phoenix::empty_column_qualifier(
            p.encoded_bytes,
        ));
        // First: `put_record_if_absent` tests a row's first cell, and
        // every Phoenix row has this one.
        writes.insert(0, quote! {
            __cells.push(__rr::Cell::new(#family, #qualifier, __rk::phoenix::EMPTY_COLUMN_VALUE));
        });
        columns.push(quote!((false, #family, #qualifier)));
    }
    let cell_count = writes.len();
    // One cell a family: the columns' cells packed, the row opened again
    // before the fields read it.
    let (pack, unpack, columns_fn) = match &model.phoenix {
        Some(p) if p.single_cell => {
            let bytes = p.encoded_bytes;
            (
                quote! {
                    let __cells = __rr::phoenix_pack(__cells, &[#(#columns),*], #bytes);
                },
                quote! {
                    let __unpacked = __rr::phoenix_unpack(#record_name, __row, &[#(#columns),*], #bytes)?;
                    let __row = &__unpacked;
                },
                quote!(__rr::phoenix_single_cell_columns(&[#(#columns),*], #bytes)),
            )
        }
        _ => (quote!(), quote!(), quote!(__rr::columns(&[#(#columns),*]))),
    };
    let key_alias = quote_spanned! {key_span=> type __Key = #key;};
    quote! {
        #import
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::identity_op)]
        const _: () = {
            use #runtime as __rk;
            use __rk::record as __rr;
            #key_alias
            #check_key
            #(#consts)*

            #[automatically_derived]
            impl __rr::Record for #ident {
                type Key = __Key;

                fn key(&self) -> __Key {
                    let mut __parts = <__Key as __rr::KeyFields>::empty_parts();
                    #(#puts)*
                    __rr::key_from_parts::<__Key>(__parts)
                }

                #[inline]
                fn to_key(&self) -> ::core::result::Result<<__Key as __rk::RowKey>::Key, __rk::EncodeError> {
                    let mut __parts = <__Key as __rr::KeyFields>::empty_ref_parts();
                    #(#put_refs)*
                    __rr::record_key::<__Key>(&__parts, || __rr::Record::key(self))
                }

                fn cells(&self) -> __rr::Vec<__rr::Cell> {
                    __rr::Record::try_cells(self).unwrap_or_default()
                }

                fn try_cells(&self) -> ::core::result::Result<__rr::Vec<__rr::Cell>, __rk::EncodeError> {
                    let mut __cells = __rr::Vec::with_capacity(#cell_count);
                    #(#writes)*
                    #pack
                    ::core::result::Result::Ok(__cells)
                }

                fn from_row(__row: &__rr::Row) -> ::core::result::Result<Self, __rr::RecordError> {
                    #unpack
                    let mut __parts = __rr::key_parts::<__Key>(#record_name, __row)?;
                    ::core::result::Result::Ok(#ident {
                        #(#reads,)*
                    })
                }

                fn columns() -> ::core::option::Option<__rr::Columns> {
                    ::core::option::Option::Some(#columns_fn)
                }
            }
        };
    }
}

/// The unit type that carries a Phoenix column's type.
fn phoenix_type_name(f: &RecordFieldModel) -> syn::Ident {
    format_ident!("__RkPhoenix_{}", f.name())
}

/// A Phoenix column's type (a unit type and its `PhoenixCellType`), and
/// the `const` check that a cell field (not a key field) holds it and
/// has its qualifier.
fn phoenix_column(
    f: &RecordFieldModel,
    ty: Option<rowkey_core::codec::phoenix::PhoenixType>,
    qualified: bool,
    span: proc_macro2::Span,
) -> TokenStream {
    let unit = phoenix_type_name(f);
    let name = f.name();
    let field_ty = f.ty;
    let (tokens, holds, ty_name, rust) = match ty {
        Some(t) => {
            let bit = t.bit();
            (
                super::codec::phoenix_type(t),
                quote!(<#field_ty as __rk::phoenix::PhoenixValue>::HOLDS & #bit != 0),
                t.to_string(),
                t.rust_types(),
            )
        }
        // Unknown: the check names the fix (a key field needs none).
        None => (
            quote!(__rk::phoenix::PhoenixType::Varbinary),
            quote!(true),
            String::new(),
            "",
        ),
    };
    let qualified = (!qualified).then(|| {
        let at = f.ident.span();
        quote_spanned! {at=>
            const _: () = __rr::check_phoenix_qualified::<__Key>(#name);
        }
    });
    quote_spanned! {span=>
        #[allow(non_camel_case_types)]
        struct #unit;
        impl __rr::PhoenixCellType for #unit {
            const TYPE: __rk::phoenix::PhoenixType = #tokens;
        }
        const _: () = __rr::check_phoenix_type::<__Key>(#name, #holds, #ty_name, #rust);
        #qualified
    }
}

/// The codec marker type of a field.
fn codec_marker(f: &RecordFieldModel) -> TokenStream {
    let base = match &f.codec {
        CellCodecModel::Builtin => quote!(__rr::Builtin),
        CellCodecModel::With(p) => quote!(__rr::With<#p>),
        CellCodecModel::Json(_) => quote!(__rr::Json),
        // An `Option` is a NULL-able column: PhoenixValue's own.
        CellCodecModel::Phoenix { .. } => {
            let unit = phoenix_type_name(f);
            return quote!(__rr::Phoenix<#unit>);
        }
    };
    if f.optional {
        quote!(__rr::Optional<#base>)
    } else {
        base
    }
}
