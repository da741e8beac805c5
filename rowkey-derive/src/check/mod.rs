//! Every rule of a key layout, each error spanned at the attribute or
//! field at fault. Builds the [`KeyModel`] that expansion reads; reports
//! all problems of a struct, not just the first.

mod bits;
mod combine;
mod field;
pub mod key_part;
mod phoenix;
mod prefix;
pub mod record;
mod text_form;

use crate::attr::{self, FieldAttrs, StructAttrs, Target};
use crate::ctxt::Ctxt;
use crate::model::{FieldModel, KeyModel};
use crate::ty;
use field::FieldCheck;
use syn::{Data, DeriveInput, Field, Fields, GenericParam};

use rowkey_core::HBASE_MAX_KEY_LEN;

/// Checks a `#[derive(RowKey)]` input; `None` when it has errors (all of
/// them reported to `cx`).
pub fn key_model<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Option<KeyModel<'a>> {
    let fields = struct_fields(cx, input)?;
    check_generics(cx, input);
    check_repr(cx, input);
    check_misplaced(cx, input);
    let attrs = attr::struct_attrs(cx, &input.attrs);
    let (limit, store) = attrs
        .target
        .as_ref()
        .map_or((HBASE_MAX_KEY_LEN, "HBase"), |t| t.value.limit());
    if let Some(max) = &attrs.max_len {
        if max.value > limit {
            cx.error_at(
                max.span,
                format!(
                    "max_len {} exceeds {store}'s {limit}-byte row key limit; use {limit} or less",
                    max.value
                ),
            );
        }
    }
    if fields.is_empty() {
        cx.error_spanned_by(&input.ident, "a row key needs at least one field");
    }
    let separator = attrs.separator.map(|s| s.value);
    let count = fields.len();
    let field_attrs: Vec<FieldAttrs> = fields
        .iter()
        .map(|f| attr::field_attrs(cx, &f.attrs))
        .collect();
    let phoenix = attrs.phoenix.is_some();
    if phoenix {
        phoenix::check_struct(cx, &attrs);
        if let Some(l) = input.generics.lifetimes().next() {
            cx.error_spanned_by(
                l,
                "a Phoenix key owns its fields (String, Vec<u8>): a DESC column's bytes are \
                 inverted, so nothing borrows the key; remove the lifetime",
            );
        }
        if let Some(i) = &attrs.index_of {
            cx.error_spanned_by(
                i,
                "a Phoenix key is not an index key of this crate's: remove `index_of`",
            );
        }
    } else {
        for (f, a) in fields.iter().zip(&field_attrs) {
            if let Some(t) = &a.phoenix {
                cx.error_at(
                    t.span,
                    format!(
                        "field `{}`: #[phoenix(..)] is for a Phoenix table's key: add \
                         #[rowkey(phoenix)] to the struct",
                        f.ident
                            .as_ref()
                            .map(ToString::to_string)
                            .unwrap_or_default()
                    ),
                );
            }
        }
    }
    let models: Vec<FieldModel> = fields
        .iter()
        .zip(&field_attrs)
        .enumerate()
        .filter_map(|(i, (f, a))| {
            if phoenix {
                phoenix::phoenix_field_model(cx, f, a, i + 1 == count)
            } else {
                field_model(cx, f, a, i + 1 == count, &attrs)
            }
        })
        .collect();
    let field_refs: Vec<&Field> = fields.iter().collect();
    let mut prefix = prefix::prefix_model(cx, &field_refs, &field_attrs, &attrs);
    if phoenix {
        phoenix::fix_salt(cx, &mut prefix);
    }
    if models.len() == count {
        let prefix_len = prefix.as_ref().map_or(0, |p| p.len(separator.is_some()));
        check_total_len(cx, input, &attrs, &models, prefix_len);
    }
    let krate = attrs
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::rowkey));
    (!cx.has_errors()).then(|| KeyModel {
        ident: &input.ident,
        vis: &input.vis,
        generics: &input.generics,
        krate,
        separator,
        max_len: attrs.max_len,
        target: attrs.target,
        fields: models,
        prefix,
        index_of: attrs.index_of,
        phoenix,
    })
}

fn struct_fields<'a>(
    cx: &Ctxt,
    input: &'a DeriveInput,
) -> Option<&'a syn::punctuated::Punctuated<Field, syn::Token![,]>> {
    match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => Some(&named.named),
            Fields::Unnamed(_) | Fields::Unit => {
                cx.error_spanned_by(
                    &input.ident,
                    "#[derive(RowKey)] needs a struct with named fields: the names appear in \
                     errors, the layout and the scan builders",
                );
                None
            }
        },
        Data::Enum(e) => {
            cx.error_spanned_by(
                e.enum_token,
                "#[derive(RowKey)] is for structs; to use an enum as one field of a key, \
                 give it unit variants and #[derive(KeyPart)]",
            );
            None
        }
        Data::Union(u) => {
            cx.error_spanned_by(
                u.union_token,
                "#[derive(RowKey)] does not support unions: a key is made of all its fields",
            );
            None
        }
    }
}

fn check_generics(cx: &Ctxt, input: &DeriveInput) {
    for param in &input.generics.params {
        match param {
            GenericParam::Type(t) => cx.error_spanned_by(
                t,
                "generic type parameters are not supported: a key's MAX_LEN and layout must be \
                 known at compile time; use a concrete type (lifetimes are fine)",
            ),
            GenericParam::Const(c) => cx.error_spanned_by(
                c,
                "const generic parameters are not supported: a key's MAX_LEN must be known at \
                 compile time",
            ),
            GenericParam::Lifetime(_) => {}
        }
    }
}

/// Field attributes are derive helpers, so the compiler accepts them on
/// the struct too, where they would silently do nothing.
fn check_misplaced(cx: &Ctxt, input: &DeriveInput) {
    for a in &input.attrs {
        let Some(name) = a.path().get_ident().map(ToString::to_string) else {
            continue;
        };
        if attr::FIELD_ATTRS.contains(&name.as_str()) {
            let hint = match name.as_str() {
                "salt" => " it marks the fields the bucket is hashed from",
                "hash_prefix" => " it marks the field whose hash starts the key",
                _ => "",
            };
            cx.error_spanned_by(
                a,
                format!(
                    "#[{name}] goes on a field, not on the struct:{hint}; struct options are \
                     #[rowkey(separator = .., max_len = ..)]"
                ),
            );
        }
    }
}

/// The generated code borrows every field (`&self.field`), which a packed
/// struct forbids (E0793); say so at the attribute instead.
fn check_repr(cx: &Ctxt, input: &DeriveInput) {
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("repr")) {
        let mut packed = false;
        let _ = attr.parse_nested_meta(|meta| {
            packed |= meta.path.is_ident("packed");
            // Skip `align(8)`, `packed(2)` and the like.
            if meta.input.peek(syn::token::Paren) {
                let _content;
                syn::parenthesized!(_content in meta.input);
            }
            Ok(())
        });
        if packed {
            cx.error_spanned_by(
                attr,
                "#[derive(RowKey)] reads fields by reference, which a #[repr(packed)] struct \
                 does not allow; remove `packed` (the key's bytes do not depend on the \
                 struct's memory layout)",
            );
        }
    }
}

fn field_model<'a>(
    cx: &Ctxt,
    field: &'a Field,
    attrs: &FieldAttrs,
    last: bool,
    st: &StructAttrs,
) -> Option<FieldModel<'a>> {
    let ident = field.ident.as_ref()?;
    let (value_ty, optional) = match ty::option_inner(&field.ty) {
        Some(inner) => (inner, true),
        None => (&field.ty, false),
    };
    let kind = ty::kind(value_ty);
    let f = FieldCheck {
        cx,
        name: ident.to_string(),
        ty: &field.ty,
        value_ty,
        kind,
        attrs,
    };
    let codec = f.codec(last, st)?;
    let desc = attrs.desc.is_some();
    f.check_desc_and_reverse();
    f.check_desc_width(&codec);
    if let Some(sep) = &st.separator {
        f.check_separator(&codec, sep);
    }
    let model = FieldModel {
        ident,
        ty: &field.ty,
        value_ty,
        optional,
        kind,
        codec,
        desc,
    };
    f.check_borrow(&model);
    Some(model)
}

fn check_total_len(
    cx: &Ctxt,
    input: &DeriveInput,
    attrs: &StructAttrs,
    fields: &[FieldModel],
    prefix_len: usize,
) {
    let seps = prefix_len
        + if attrs.separator.is_some() {
            fields.len().saturating_sub(1)
        } else {
            0
        };
    let Some(total) = fields
        .iter()
        .map(FieldModel::static_max_len)
        .try_fold(seps, |acc, n| n.map(|n| acc + n))
    else {
        // Some part's size is only known to the compiler: checked by a
        // const assertion in the expansion instead.
        return;
    };
    if let Some(max) = &attrs.max_len {
        if total > max.value {
            cx.error_at(
                max.span,
                format!(
                    "this layout can take up to {total} bytes, more than max_len = {}; shorten \
                     a field's width or max_len, or raise the limit",
                    max.value
                ),
            );
        }
    } else if let Some(target) = attrs.target.as_ref().filter(|t| t.value != Target::Hbase) {
        let (limit, store) = target.value.limit();
        if total > limit {
            cx.error_at(
                target.span,
                format!(
                    "this layout can take up to {total} bytes, more than {store}'s {limit}-byte \
                     row key limit; lower a field's #[max_len] or #[pad] width"
                ),
            );
        }
    } else if total > HBASE_MAX_KEY_LEN {
        cx.error_spanned_by(
            &input.ident,
            format!(
                "this layout can take up to {total} bytes, more than HBase's \
                 {HBASE_MAX_KEY_LEN}-byte row key limit; lower a field's #[max_len] or \
                 #[pad] width"
            ),
        );
    }
}
