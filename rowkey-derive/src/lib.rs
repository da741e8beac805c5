//! The `#[derive(RowKey)]` and `#[derive(KeyPart)]` macros of
//! [`rowkey`](https://docs.rs/rowkey). Use them through the `rowkey` crate.
//!
//! The pipeline follows serde_derive: `attr` reads attributes into data
//! with spans, `check` applies every rule (all errors reported at once,
//! each spanned at the token at fault) and builds the `model`, and
//! `expand` emits calls into `rowkey-core`. The macro plans; the runtime
//! does the byte work.

// Where rustdoc links this crate's items from other crates' pages when
// its own docs are not built beside them: `cargo doc --no-deps` documents
// the workspace's crates in no set order, and a link to a crate whose
// docs are not there yet would be left as text. .ci/doc-links.sh checks
// the version.
#![doc(html_root_url = "https://docs.rs/rowkey-derive/0.1.0")]

mod attr;
mod check;
mod ctxt;
mod expand;
mod fallback;
mod model;
mod suggest;
mod ty;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives `rowkey::RowKey` and `rowkey::DecodeKey` for a struct with
/// named fields. See the `rowkey` crate for the attributes.
#[proc_macro_derive(
    RowKey,
    attributes(
        rowkey,
        text,
        pad,
        max_len,
        reverse,
        desc_ts,
        desc,
        salt,
        hash_prefix,
        phoenix
    )
)]
pub fn derive_row_key(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    row_key(&input).into()
}

fn row_key(input: &DeriveInput) -> proc_macro2::TokenStream {
    let cx = ctxt::Ctxt::default();
    let model = check::key_model(&cx, input);
    match (cx.check(), model) {
        (Ok(()), Some(model)) => expand::row_key(&model),
        // The errors, and stubs so that uses of the key add none.
        (Err(errors), _) => fallback::row_key(input, errors),
        (Ok(()), None) => proc_macro2::TokenStream::new(),
    }
}

/// Derives `rowkey::store::Record` for a struct with named fields: key
/// fields matched by name to `#[record(key = K)]`, every other field a
/// cell. See the `rowkey` crate for the attributes.
#[proc_macro_derive(Record, attributes(record, cell, phoenix))]
pub fn derive_record(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    record(&input).into()
}

fn record(input: &DeriveInput) -> proc_macro2::TokenStream {
    let cx = ctxt::Ctxt::default();
    let model = check::record::record_model(&cx, input);
    match (cx.check(), model) {
        (Ok(()), Some(model)) => expand::record::record(&model),
        (Err(errors), _) => fallback::record(input, errors),
        (Ok(()), None) => proc_macro2::TokenStream::new(),
    }
}

/// Derives `rowkey::KeyPart` and `rowkey::DecodePart` for a unit-only enum
/// (stored as the variant's index: declared order is sort order), a
/// newtype struct (stored as its inner value) or a struct whose every
/// field is `#[bits(n)]` (one big-endian word, the first field highest).
#[proc_macro_derive(KeyPart, attributes(rowkey, bits))]
pub fn derive_key_part(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let cx = ctxt::Ctxt::default();
    let model = check::key_part::key_part_model(&cx, &input);
    match (cx.check(), model) {
        (Ok(()), Some(model)) => expand::key_part::key_part(&model).into(),
        (Err(errors), _) => fallback::key_part(&input, errors).into(),
        (Ok(()), None) => TokenStream::new(),
    }
}

/// Derives `rowkey::store::cell::CellValue` for a unit-only enum (its
/// cell holds the variant's name as UTF-8) or a newtype struct (its
/// inner value's cell), so one type is a key field (with
/// `#[derive(KeyPart)]`) and a record's cell.
#[proc_macro_derive(CellValue, attributes(rowkey))]
pub fn derive_cell_value(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let cx = ctxt::Ctxt::default();
    let model = check::key_part::key_part_model(&cx, &input);
    if let Some(crate::model::KeyPartModel {
        shape: crate::model::PartShape::Bits(_),
        ..
    }) = &model
    {
        cx.error_spanned_by(
            &input.ident,
            "#[derive(CellValue)] takes unit-only enums and newtypes; a struct of #[bits(n)] \
             fields is a key part: store its fields as cells of their own, or its word \
             with #[cell(with = ..)]",
        );
    }
    match (cx.check(), model) {
        (Ok(()), Some(model)) => expand::cell_value::cell_value(&model).into(),
        (Err(errors), _) => errors.into(),
        (Ok(()), None) => TokenStream::new(),
    }
}

#[cfg(test)]
mod tests {
    /// Every trait impl the derive emits is marked `#[automatically_derived]`
    /// (lints and coverage tools skip generated code by it), on success and
    /// in the fallback stubs alike.
    #[test]
    fn every_trait_impl_is_marked_automatically_derived() {
        let ok: syn::DeriveInput = syn::parse_quote! {
            struct Spend<'a> {
                #[text(width = 6)] month: u32,
                #[salt(buckets = 16)]
                #[pad(width = 10)] user: &'a str,
                #[desc_ts] at_ms: i64,
            }
        };
        let broken: syn::DeriveInput = syn::parse_quote! {
            struct Broken { #[text(width = 0)] month: u32 }
        };
        for input in [ok, broken] {
            let out = super::row_key(&input).to_string();
            // A trait impl is `impl .. for .. {`; count those and the marks.
            let trait_impls = out
                .split(" impl ")
                .skip(1)
                .filter(|rest| {
                    let head = rest.split('{').next().unwrap_or_default();
                    head.contains(" for ")
                })
                .count();
            let marked = out.matches("# [automatically_derived]").count();
            assert!(trait_impls >= 2, "{out}");
            assert_eq!(marked, trait_impls, "{out}");
        }
    }
}
