//! Rules that look at a field's chosen codec together with the struct:
//! `#[desc]` against `#[reverse]`, separator-joined keys, borrowed types.

use super::field::FieldCheck;
use crate::attr::Spanned;
use crate::model::{FieldCodec, FieldModel};
use crate::ty::{self, TypeKind};

impl FieldCheck<'_> {
    pub(super) fn check_desc_and_reverse(&self) {
        let (Some(desc), Some(_)) = (self.attrs.desc, &self.attrs.reverse) else {
            return;
        };
        self.cx.error_at(
            desc,
            format!(
                "#[desc] conflicts with #[reverse] on field `{}`: a reversed field keeps no \
                 order, so there is no order to invert; keep one",
                self.name
            ),
        );
    }

    /// `#[desc]` inverts a binary part's bytes, which needs the part to
    /// take one width: a `Decimal` or an `Option` inside the field's
    /// `Option` takes several. Said at the attribute for the types the
    /// derive can name; a user's part of varying width is caught when the
    /// key's constants are evaluated.
    pub(super) fn check_desc_width(&self, codec: &FieldCodec) {
        let Some(desc) = self.attrs.desc else {
            return;
        };
        if *codec != FieldCodec::Binary {
            return;
        }
        let what = if ty::option_inner(self.value_ty).is_some() {
            "an Option (a tag byte, then the value only when there is one)"
        } else if ty::last_ident(self.value_ty).as_deref() == Some("Decimal") {
            "a Decimal (a sign and exponent byte, then as many bytes as its digits need)"
        } else {
            return;
        };
        let inner = if std::ptr::eq(self.ty, self.value_ty) {
            String::new()
        } else {
            " inside the field's Option".to_string()
        };
        self.cx.error_at(
            desc,
            format!(
                "#[desc] needs a fixed-width key part to invert; field `{}` holds {what}{inner}, \
                 whose width varies",
                self.name
            ),
        );
    }

    pub(super) fn check_separator(&self, codec: &FieldCodec, sep: &Spanned<u8>) {
        let name = &self.name;
        let s = sep.value as char;
        if let Some(d) = self.attrs.desc {
            self.cx.error_at(
                d,
                format!(
                    "#[desc] inverts bytes, which can then equal the separator '{s}'; \
                     separator-joined keys cannot hold descending fields"
                ),
            );
            return;
        }
        if codec.writes_any_byte() {
            // Binary bytes: the attribute that chose them says how to
            // write the field as text instead.
            match self.attrs.desc_ts {
                Some(ts) => self.cx.error_at(
                    ts,
                    format!(
                        "field `{name}` is an 8-byte binary timestamp, whose bytes can include \
                         the separator '{s}'; add #[text] to write it as 19 digits"
                    ),
                ),
                None => self.cx.error_spanned_by(
                    self.ty,
                    match self.kind {
                        TypeKind::Int { .. } => format!(
                            "field `{name}` is a binary integer, whose bytes can include the \
                             separator '{s}'; write it as digits with #[text(width = N)]"
                        ),
                        _ => format!(
                            "field `{name}` is written as binary, whose bytes can include the \
                             separator '{s}'; a separator-joined key needs text fields"
                        ),
                    },
                ),
            }
        } else if codec.can_write(sep.value, false) {
            // Core's rule of the bytes each codec writes: digits, a UUID's
            // hex and hyphens, a decimal's point, a date format's literals.
            self.cx.error_at(
                sep.span,
                format!(
                    "the separator '{s}' is {} field `{name}`'s text can hold; choose one it \
                     never writes, such as \"_\" or \"|\"",
                    if s.is_ascii_digit() {
                        "a digit, which"
                    } else {
                        "a character"
                    }
                ),
            );
        }
    }

    pub(super) fn check_borrow(&self, model: &FieldModel) {
        if !self.kind.is_borrowed() || model.borrowable() {
            return;
        }
        let why = if self.attrs.reverse.is_some() {
            "it is stored reversed"
        } else if self.attrs.desc.is_some() {
            "it is stored inverted (#[desc])"
        } else {
            "it is escaped (it is not the last field and has no #[pad])"
        };
        self.cx.error_spanned_by(
            self.ty,
            format!(
                "field `{}` cannot borrow from the key because {why}; use an owned type \
                 (String, Vec<u8>) or Cow<'a, str> / Cow<'a, [u8]>",
                self.name
            ),
        );
    }
}
