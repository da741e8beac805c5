//! The rules of a Phoenix key (`#[rowkey(phoenix)]`): each field a
//! Phoenix key column, its SQL type named (`#[phoenix(varchar(10))]`) or
//! read from its Rust type, each refusal one error at the attribute or
//! type at fault, naming the fix.

use crate::attr::{FieldAttrs, Spanned};
use crate::ctxt::Ctxt;
use crate::model::{FieldCodec, FieldModel};
use crate::ty::{self, TypeKind};
use rowkey_core::codec::phoenix::PhoenixType;
use syn::{Field, Type};

/// The Phoenix type a Rust type holds when none is named: `String` is a
/// `VARCHAR`, `i32` an `INTEGER`, `Decimal` a `DECIMAL`...
pub(super) fn inferred(kind: TypeKind, value_ty: &Type) -> Option<PhoenixType> {
    Some(match kind {
        TypeKind::Text { borrowed: false } => PhoenixType::Varchar { max_chars: None },
        TypeKind::Bytes { borrowed: false } => PhoenixType::Varbinary,
        TypeKind::Int {
            signed: true,
            bits: 8,
        } => PhoenixType::TinyInt,
        TypeKind::Int {
            signed: true,
            bits: 16,
        } => PhoenixType::SmallInt,
        TypeKind::Int {
            signed: true,
            bits: 32,
        } => PhoenixType::Integer,
        TypeKind::Int {
            signed: true,
            bits: 64,
        } => PhoenixType::BigInt,
        TypeKind::Int {
            signed: false,
            bits: 8,
        } => PhoenixType::UnsignedTinyInt,
        TypeKind::Int {
            signed: false,
            bits: 16,
        } => PhoenixType::UnsignedSmallInt,
        TypeKind::Int {
            signed: false,
            bits: 32,
        } => PhoenixType::UnsignedInt,
        TypeKind::Int {
            signed: false,
            bits: 64,
        } => PhoenixType::UnsignedLong,
        TypeKind::Bool => PhoenixType::Boolean,
        TypeKind::Float => match ty::last_ident(value_ty).as_deref() {
            Some("f32") => PhoenixType::Float,
            _ => PhoenixType::Double,
        },
        TypeKind::Other => match ty::last_ident(value_ty).as_deref() {
            Some("Decimal") => PhoenixType::Decimal {
                precision: None,
                scale: None,
            },
            Some("PhoenixTimestamp") => PhoenixType::Timestamp,
            _ => return None,
        },
        _ => return None,
    })
}

/// Why a Rust type cannot be a Phoenix key column at all, if it cannot.
fn refused_type(kind: TypeKind) -> Option<&'static str> {
    match kind {
        TypeKind::Text { borrowed: true } | TypeKind::Bytes { borrowed: true } => Some(
            "a Phoenix key's text and bytes decode into String and Vec<u8> (a DESC column's \
             bytes are inverted, so nothing borrows the key)",
        ),
        TypeKind::ByteArray { .. } => Some("a Phoenix BINARY(n) column is a Vec<u8> of n bytes"),
        TypeKind::Char => Some("Phoenix has no char column: use String with #[phoenix(char(1))]"),
        TypeKind::PlatformInt => Some("usize/isize change width with the platform: use u64/i64"),
        TypeKind::Int { bits: 128, .. } => Some("Phoenix's widest integer is BIGINT: use i64"),
        _ => None,
    }
}

/// The model of one Phoenix key column.
pub(super) fn phoenix_field_model<'a>(
    cx: &Ctxt,
    field: &'a Field,
    attrs: &FieldAttrs,
    last: bool,
) -> Option<FieldModel<'a>> {
    let ident = field.ident.as_ref()?;
    let name = ident.to_string();
    let (value_ty, optional) = match ty::option_inner(&field.ty) {
        Some(inner) => (inner, true),
        None => (&field.ty, false),
    };
    let kind = ty::kind(value_ty);
    // An attribute of ours was rejected (its error is reported): checks
    // that would read it only add follow-ons.
    if attrs.malformed {
        return None;
    }
    let mut ok = true;
    let mut refuse = |span: proc_macro2::Span, what: &str| {
        cx.error_at(
            span,
            format!(
                "field `{name}`: #[{what}] has no place in a Phoenix key (#[rowkey(phoenix)]): \
                 the column's Phoenix type says its bytes; remove it"
            ),
        );
        ok = false;
    };
    if let Some(t) = &attrs.text {
        refuse(t.span, "text");
    }
    if let Some(p) = &attrs.pad {
        refuse(p.span, "pad");
    }
    if let Some(r) = &attrs.reverse {
        refuse(r.span, "reverse");
    }
    if let Some(s) = attrs.desc_ts {
        refuse(s, "desc_ts");
    }
    if let Some(h) = &attrs.hash_prefix {
        refuse(h.span, "hash_prefix");
    }
    if !ok {
        return None;
    }
    if let Some(why) = refused_type(kind) {
        cx.error_spanned_by(&field.ty, format!("field `{name}`: {why}"));
        return None;
    }
    let ty = match (&attrs.phoenix, inferred(kind, value_ty)) {
        (Some(t), _) => t.value,
        (None, Some(t)) => t,
        (None, None) => {
            cx.error_spanned_by(
                &field.ty,
                format!(
                    "field `{name}`: name its Phoenix type, as #[phoenix(varchar(10))] or \
                     #[phoenix(unsigned_int)] (String, Vec<u8>, i8..i64, u8..u64, f32, f64, \
                     bool, Decimal and PhoenixTimestamp need none)"
                ),
            );
            return None;
        }
    };
    let at = |t: &Option<Spanned<PhoenixType>>| t.as_ref().map(|t| t.span);
    let type_span = at(&attrs.phoenix).unwrap_or_else(|| syn::spanned::Spanned::span(&field.ty));
    let desc = attrs.desc.is_some();
    let why = if optional && ty.fixed_width().is_some() {
        Some(format!(
            "Phoenix's {ty} key column is never NULL (a nullable key column is VARCHAR, \
             DECIMAL or VARBINARY): drop the Option"
        ))
    } else if matches!(ty, PhoenixType::Varbinary) && !last {
        Some(
            "Phoenix keys a VARBINARY only as the last column: make it the last field, or \
              BINARY(n)"
                .into(),
        )
    } else if matches!(ty, PhoenixType::Varbinary) && desc {
        Some("Phoenix keys no DESC VARBINARY: remove #[desc]".into())
    } else if matches!(ty, PhoenixType::Boolean) && desc {
        Some(
            "Phoenix 5.2.1 writes a DESC BOOLEAN key's true as FE and reads it back as false: \
             remove #[desc]"
                .into(),
        )
    } else {
        None
    };
    if let Some(why) = why {
        let span = match (&ty, attrs.desc) {
            (PhoenixType::Varbinary | PhoenixType::Boolean, Some(d)) if desc => d,
            _ => type_span,
        };
        cx.error_at(span, format!("field `{name}`: {why}"));
        return None;
    }
    let max_len = match (ty.max_width(), &attrs.max_len) {
        (Some(_), Some(m)) => {
            cx.error_at(
                m.span,
                format!("field `{name}`: {ty} has a length of its own: remove #[max_len]"),
            );
            return None;
        }
        (Some(w), None) => w,
        (None, Some(m)) => m.value.value,
        (None, None) => {
            cx.error_at(
                type_span,
                format!(
                    "field `{name}`: {ty} without a length has no bound, and a key needs one: \
                     give the column's length (#[phoenix(varchar(N))]) or the most bytes a \
                     value takes (#[max_len(N)])"
                ),
            );
            return None;
        }
    };
    Some(FieldModel {
        ident,
        ty: &field.ty,
        value_ty,
        optional,
        kind,
        codec: FieldCodec::Phoenix { ty, last, max_len },
        desc,
    })
}

/// The struct-level rules of a Phoenix key: no separator (Phoenix writes
/// its own), no index key; a salt is Phoenix's, of every column.
pub(super) fn check_struct(cx: &Ctxt, st: &crate::attr::StructAttrs) {
    if let Some(sep) = &st.separator {
        cx.error_at(
            sep.span,
            "a Phoenix key has no separator option: Phoenix puts its own after each \
             variable-length column; remove `separator`",
        );
    }
}

/// A Phoenix key's salt: Phoenix's hash of every byte after the bucket,
/// one binary byte (`SALT_BUCKETS`).
pub(super) fn fix_salt(cx: &Ctxt, prefix: &mut Option<crate::model::PrefixModel>) {
    use crate::attr::HashChoice;
    use crate::model::PrefixModel;
    match prefix {
        Some(PrefixModel::Salt(s)) => {
            match s.hash {
                HashChoice::Default | HashChoice::Phoenix => s.hash = HashChoice::Phoenix,
                _ => {
                    cx.error_at(
                        s.span,
                        "a Phoenix key's salt is Phoenix's own (SALT_BUCKETS): remove `hash`",
                    );
                    return;
                }
            }
            s.binary = true;
            if s.groups.is_some() {
                cx.error_at(
                    s.span,
                    "a Phoenix key's salt hashes the whole key into SALT_BUCKETS: it has no \
                     groups; remove `group_by`",
                );
            }
            if s.buckets > rowkey_core::salt::PHOENIX_MAX_BUCKETS {
                cx.error_at(
                    s.span,
                    format!(
                        "Phoenix stores its salt in one byte: SALT_BUCKETS is at most {}",
                        rowkey_core::salt::PHOENIX_MAX_BUCKETS
                    ),
                );
            }
        }
        // Refused at the field's #[hash_prefix] already.
        Some(PrefixModel::HashPrefix(_)) | None => {}
    }
}
