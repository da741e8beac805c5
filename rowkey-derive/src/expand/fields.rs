//! How a key's fields are reached while its bytes are written: each
//! through a local reference (`place`), so the same code writes the key
//! from the struct (`write_key`) and from a record's borrowed fields
//! (`KeyFields::write_ref_parts`).

use crate::attr::HashChoice;
use crate::model::{FieldModel, KeyModel, PrefixModel};
use quote::format_ident;

/// Whether the key gets `KeyFields`: no generics, no borrowed fields.
pub fn has_key_fields(model: &KeyModel) -> bool {
    model.generics.params.is_empty() && !model.fields.iter().any(|f| crate::ty::borrows(f.ty))
}

/// The local that holds a reference to field `f`'s value while the key
/// is written. Built from the field's name (a string), so it has the
/// derive's span, not the field's: a field `_pad` or `userID` gives no
/// snake-case warning in the user's crate.
pub fn place(f: &FieldModel) -> syn::Ident {
    format_ident!("__rk_f_{}", f.name())
}

/// Whether the key is written from its fields borrowed one by one
/// (`KeyFields::write_ref_parts`): a key a record can use, unless a custom
/// salt hash takes the whole struct, or the key is Phoenix's (whose
/// length, trailing NULLs dropped, is known only from every field).
pub fn writes_ref_parts(model: &KeyModel) -> bool {
    let custom_hash = matches!(
        &model.prefix,
        Some(PrefixModel::Salt(s)) if matches!(s.hash, HashChoice::Custom(_))
    );
    has_key_fields(model) && !custom_hash && !model.phoenix
}
