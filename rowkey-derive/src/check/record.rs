//! The rules of a `#[derive(Record)]` struct that syntax can decide, each
//! error spanned at the token at fault. Which fields are key fields is
//! decided by the compiler (the expansion matches names to the key's at
//! compile time), so the rules that need it are `const` checks there.

use crate::attr::record::{self, CellAttrs, CellCodecAttr, PhoenixTableAttr};
use crate::attr::Spanned;
use crate::ctxt::Ctxt;
use crate::model::{CellCodecModel, PhoenixRecordModel, RecordFieldModel, RecordModel};
use crate::ty;
use rowkey_core::codec::phoenix::{encoded_qualifier, DEFAULT_FAMILY, FIRST_ENCODED_QUALIFIER};
use std::collections::HashMap;
use syn::{Data, DeriveInput, Fields, GenericParam};

/// Checks a `#[derive(Record)]` input; `None` when it has errors (all of
/// them reported to `cx`).
pub fn record_model<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Option<RecordModel<'a>> {
    let fields = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => Some(&named.named),
            _ => {
                cx.error_spanned_by(
                    &input.ident,
                    "#[derive(Record)] needs a struct with named fields: key fields are \
                     matched to the key's by name, and cells are named after the fields",
                );
                None
            }
        },
        _ => {
            cx.error_spanned_by(
                &input.ident,
                "#[derive(Record)] is for structs with named fields",
            );
            None
        }
    };
    for param in &input.generics.params {
        let what = match param {
            GenericParam::Lifetime(_) => "lifetimes",
            GenericParam::Type(_) => "type parameters",
            GenericParam::Const(_) => "const parameters",
        };
        cx.error_spanned_by(
            param,
            format!(
                "a record cannot have {what}: it is read back from a row it does not borrow \
                 from; use owned, concrete types"
            ),
        );
    }
    let attrs = record::record_attrs(cx, &input.attrs);
    if let Some(f) = &attrs.family {
        check_family(cx, &f.value, f.span);
    }
    // A Phoenix record's columns are in Phoenix's default family unless
    // it names another.
    let phoenix_family = attrs.phoenix.as_ref().map(|p| Spanned {
        value: DEFAULT_FAMILY.to_owned(),
        span: p.span,
    });
    let struct_family = attrs.family.as_ref().or(phoenix_family.as_ref());
    let phoenix = attrs.phoenix.as_ref().map(|p| p.value);
    if attrs.key.is_none() {
        cx.error_spanned_by(
            &input.ident,
            "a record needs its key type: #[record(key = ReadingKey)], a #[derive(RowKey)] \
             struct whose fields the record's fields of the same names fill",
        );
    }
    let fields = fields?;
    let mut models = Vec::new();
    // (family, qualifier) -> the field that took it.
    let mut taken: HashMap<(String, Vec<u8>), String> = HashMap::new();
    for field in fields {
        let ident = field.ident.as_ref()?;
        let cell = record::cell_attrs(cx, &field.attrs);
        let mut model = field_model(cx, field, ident, &cell, struct_family.map(|f| &f.value));
        phoenix_cell(cx, field, &cell, phoenix, &mut model);
        if !model.skip {
            let family = model.family.clone().unwrap_or_default();
            let column = (family.clone(), model.qualifier.clone());
            if let Some(other) = taken.get(&column) {
                let at = cell
                    .qualifier
                    .as_ref()
                    .map(|q| q.span)
                    .or(cell.number.as_ref().map(|n| n.span))
                    .unwrap_or_else(|| ident.span());
                cx.error_at(
                    at,
                    format!(
                        "field `{}` and field `{other}` are both stored in the cell \
                         {family}:{}; give one another #[cell(qualifier = \"..\")]",
                        model.name(),
                        String::from_utf8_lossy(&model.qualifier)
                    ),
                );
            } else {
                taken.insert(column, model.name());
            }
        }
        models.push(model);
    }
    let krate = attrs
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::rowkey));
    let key = attrs.key?;
    let phoenix = phoenix.map(|p| PhoenixRecordModel {
        encoded_bytes: p.encoded_bytes,
        family: struct_family.map_or_else(String::new, |f| f.value.clone()),
        single_cell: p.single_cell,
    });
    (!cx.has_errors()).then(|| RecordModel {
        ident: &input.ident,
        krate,
        key,
        fields: models,
        phoenix,
    })
}

fn field_model<'a>(
    cx: &Ctxt,
    field: &'a syn::Field,
    ident: &'a syn::Ident,
    cell: &CellAttrs,
    struct_family: Option<&String>,
) -> RecordFieldModel<'a> {
    if let Some(skip) = cell.skip {
        let others = cell.family.is_some()
            || cell.qualifier.is_some()
            || cell.number.is_some()
            || cell.phoenix.is_some()
            || cell.codec.is_some();
        if others {
            cx.error_at(
                skip,
                "a skipped field is not stored: remove `skip` or its other #[cell] options",
            );
        }
    }
    if let Some(f) = &cell.family {
        check_family(cx, &f.value, f.span);
    }
    if let Some(q) = &cell.qualifier {
        if q.value.is_empty() {
            // Allowed by both stores, but almost surely a slip.
            cx.error_at(
                q.span,
                "an empty qualifier: name the cell, or leave `qualifier` out to use the \
                 field's name",
            );
        }
    }
    let value_ty = ty::option_inner(&field.ty);
    if matches!(
        ty::kind(value_ty.unwrap_or(&field.ty)),
        ty::TypeKind::PlatformInt
    ) && cell.codec.is_none()
        && cell.skip.is_none()
    {
        let name = syn::ext::IdentExt::unraw(ident).to_string();
        cx.error_spanned_by(
            &field.ty,
            format!(
                "field `{name}`: usize and isize have no cell codec, their width depends on \
                 the platform; use u64 or i64 (or u32 or i32)"
            ),
        );
    }
    let codec = match &cell.codec {
        None => CellCodecModel::Builtin,
        Some(CellCodecAttr::With(p)) => CellCodecModel::With(p.clone()),
        Some(CellCodecAttr::Json(s)) => CellCodecModel::Json(*s),
    };
    let name = syn::ext::IdentExt::unraw(ident).to_string();
    RecordFieldModel {
        ident,
        ty: &field.ty,
        optional: value_ty.is_some(),
        skip: cell.skip.is_some(),
        family: cell
            .family
            .as_ref()
            .map(|f| f.value.clone())
            .or_else(|| struct_family.cloned()),
        qualifier: cell
            .qualifier
            .as_ref()
            .map_or(name, |q| q.value.clone())
            .into_bytes(),
        codec,
        // `#[phoenix(..)]` types a cell, as `#[cell]` says a field is one.
        cell_attr: cell.span.or(cell.phoenix.as_ref().map(|p| p.span)),
    }
}

/// The highest column number a packed record takes: its cell's offsets
/// are a slot per number, written on every write.
const MAX_PACKED_NUMBER: u32 = 65_535;

/// A Phoenix record's column (`phoenix`: the table's
/// `COLUMN_ENCODED_BYTES`): its type and its qualifier, Phoenix's; or, in
/// a record of another kind, `#[phoenix]` and a numbered qualifier
/// refused.
fn phoenix_cell(
    cx: &Ctxt,
    field: &syn::Field,
    cell: &CellAttrs,
    phoenix: Option<PhoenixTableAttr>,
    model: &mut RecordFieldModel,
) {
    let name = model.name();
    let Some(PhoenixTableAttr {
        encoded_bytes,
        single_cell,
    }) = phoenix
    else {
        if let Some(t) = &cell.phoenix {
            cx.error_at(
                t.span,
                format!(
                    "field `{name}`: #[phoenix(..)] types a Phoenix table's column: add \
                     `phoenix` to the struct's #[record(..)]"
                ),
            );
        }
        if let Some(n) = &cell.number {
            cx.error_at(
                n.span,
                format!(
                    "field `{name}`: a numbered qualifier is a Phoenix table's column: add \
                     `phoenix` to the struct's #[record(..)], or name the cell, \
                     #[cell(qualifier = \"v\")]"
                ),
            );
        }
        return;
    };
    if model.skip {
        return;
    }
    if let Some(span) = match &model.codec {
        CellCodecModel::With(p) => Some(syn::spanned::Spanned::span(p)),
        CellCodecModel::Json(s) => Some(*s),
        _ => None,
    } {
        cx.error_at(
            span,
            format!(
                "field `{name}`: a Phoenix column's bytes are its Phoenix type's: remove it \
                 (#[phoenix(..)] names the column's type)"
            ),
        );
    }
    let mut qualified = true;
    match (encoded_bytes, &cell.number, &cell.qualifier) {
        (0, Some(n), _) => cx.error_at(
            n.span,
            format!(
                "field `{name}`: a table of COLUMN_ENCODED_BYTES = 0 names its columns: \
                 #[cell(qualifier = \"{}\")]",
                name.to_ascii_uppercase()
            ),
        ),
        // Phoenix upper-cases a name the DDL did not quote.
        (0, None, None) => model.qualifier = name.to_ascii_uppercase().into_bytes(),
        (0, None, Some(_)) => {}
        // A packed cell holds a slot for every number up to its highest.
        (_, Some(n), _) if single_cell && n.value > MAX_PACKED_NUMBER => cx.error_at(
            n.span,
            format!(
                "field `{name}`: a packed cell (SINGLE_CELL_ARRAY_WITH_OFFSETS) holds a slot for \
                 each number up to its highest; this crate packs numbers up to \
                 {MAX_PACKED_NUMBER}"
            ),
        ),
        (_, Some(n), _) => match encoded_qualifier(encoded_bytes, n.value) {
            Some(q) => model.qualifier = q,
            None => cx.error_at(
                n.span,
                format!(
                    "field `{name}`: Phoenix numbers a column from {FIRST_ENCODED_QUALIFIER} \
                     (0 to 10 are its own), up to what {encoded_bytes} byte(s) hold"
                ),
            ),
        },
        (_, None, Some(q)) => cx.error_at(
            q.span,
            format!(
                "field `{name}`: a Phoenix table of COLUMN_ENCODED_BYTES = {encoded_bytes} \
                 numbers its columns: give the column's number, #[cell(qualifier = 11)] \
                 (`rowkey phoenix` prints each column's)"
            ),
        ),
        // Only a key field may lack it: a `const` check at the field.
        (_, None, None) => qualified = false,
    }
    let ty = match &cell.phoenix {
        Some(t) => Some(t.value),
        None => {
            let value_ty = ty::option_inner(&field.ty).unwrap_or(&field.ty);
            super::phoenix::inferred(ty::kind(value_ty), value_ty)
        }
    };
    let span = cell
        .phoenix
        .as_ref()
        .map_or_else(|| syn::spanned::Spanned::span(&field.ty), |t| t.span);
    model.codec = CellCodecModel::Phoenix {
        ty,
        qualified,
        span,
    };
}

/// Bigtable's rule for a column family's name: `[_a-zA-Z0-9][-_.a-zA-Z0-9]*`,
/// at most 64 characters (HBase's is looser: what Bigtable takes, HBase
/// takes).
fn check_family(cx: &Ctxt, family: &str, span: proc_macro2::Span) {
    let ok_first = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let ok_rest = |c: char| ok_first(c) || c == '-' || c == '.';
    let mut chars = family.chars();
    let valid = chars.next().is_some_and(ok_first) && chars.all(ok_rest) && family.len() <= 64;
    if !valid {
        cx.error_at(
            span,
            format!(
                "column family {family:?} is not a name Bigtable accepts: 1 to 64 characters, \
                 letters, digits, `_`, `-` and `.`, not starting with `-` or `.`"
            ),
        );
    }
}
