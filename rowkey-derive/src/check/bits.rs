//! Rules of a bit-packed `#[derive(KeyPart)]` struct: every field
//! `#[bits(n)]`, n from 1 to the field type's width (where the type is
//! one the derive can name: u8, u16, u32, u64, bool; any other type is
//! checked by the compiler through `BitField`), the bits in all whole
//! bytes and at most 64. Each error at the attribute or field at fault.

use super::key_part::bits_attr;
use crate::ctxt::Ctxt;
use crate::model::{BitsFieldModel, PartShape};
use syn::{DeriveInput, FieldsNamed};

/// The packed shape of `fields`, or `None` (errors reported to `cx`).
pub fn packed_struct<'a>(
    cx: &Ctxt,
    input: &DeriveInput,
    fields: &'a FieldsNamed,
) -> Option<PartShape<'a>> {
    let mut out = Vec::new();
    let mut total = 0u32;
    for f in &fields.named {
        let ident = f.ident.as_ref()?;
        let Some(attr) = bits_attr(f) else {
            cx.error_spanned_by(
                ident,
                format!(
                    "field `{ident}` has no #[bits(n)]: in a bit-packed KeyPart every field \
                     says how many bits it takes"
                ),
            );
            continue;
        };
        let lit: syn::LitInt = match attr.parse_args() {
            Ok(lit) => lit,
            Err(_) => {
                cx.error_spanned_by(attr, "write the field's bits as #[bits(12)]");
                continue;
            }
        };
        let Ok(bits) = lit.base10_parse::<u8>() else {
            cx.error_spanned_by(&lit, "a bit field takes 1 to 64 bits");
            continue;
        };
        if let Some(other) = primitive_not_packable(&f.ty) {
            cx.error_spanned_by(
                &f.ty,
                format!(
                    "`{ident}` is {other}: a bit field is an unsigned integer (u8, u16, u32, \
                     u64) or bool (store a signed value offset, as a u-type)"
                ),
            );
            continue;
        }
        let width = type_width(&f.ty);
        match width {
            _ if bits == 0 || bits > 64 => {
                cx.error_spanned_by(&lit, "a bit field takes 1 to 64 bits");
                continue;
            }
            Some(w) if u32::from(bits) > w => {
                cx.error_spanned_by(
                    &lit,
                    format!(
                        "`{ident}` takes {bits} bits, but its type holds {w}: widen the type \
                         (u8, u16, u32, u64) or take fewer bits"
                    ),
                );
                continue;
            }
            _ => {}
        }
        total += u32::from(bits);
        out.push(BitsFieldModel {
            ident,
            ty: &f.ty,
            bits,
        });
    }
    if out.len() == fields.named.len() && (!total.is_multiple_of(8) || total > 64) {
        let span = fields.named.last().and_then(bits_attr);
        let fix = if total > 64 {
            "at most 64 bits pack into one word".to_owned()
        } else {
            let more = 8 - total % 8;
            format!(
                "add {more} bit{} (a reserved field) to make {} bytes",
                if more == 1 { "" } else { "s" },
                total / 8 + 1
            )
        };
        let msg = format!("the bits add up to {total}, not whole bytes: {fix}");
        match span {
            Some(attr) => cx.error_spanned_by(attr, msg),
            None => cx.error_spanned_by(&input.ident, msg),
        }
    }
    Some(PartShape::Bits(out))
}

/// A primitive type that is not a bit field's (signed, float, char,
/// 128-bit, usize), named as written.
fn primitive_not_packable(ty: &syn::Type) -> Option<String> {
    let syn::Type::Path(p) = ty else { return None };
    let name = p.path.get_ident()?.to_string();
    let not = [
        "i8", "i16", "i32", "i64", "i128", "isize", "u128", "usize", "f32", "f64", "char",
    ];
    not.contains(&name.as_str()).then_some(name)
}

/// The width of a type the derive can name; `None` for others (the
/// compiler checks them through `BitField::WIDTH`).
fn type_width(ty: &syn::Type) -> Option<u32> {
    let syn::Type::Path(p) = ty else { return None };
    let name = p.path.get_ident()?.to_string();
    match name.as_str() {
        "bool" => Some(1),
        "u8" => Some(8),
        "u16" => Some(16),
        "u32" => Some(32),
        "u64" => Some(64),
        _ => None,
    }
}
