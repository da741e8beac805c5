//! Rules that look at a field's chosen codec together with the struct:
//! `#[desc]` against `#[reverse]`, separator-joined keys, borrowed types.

use super::field::FieldCheck;
use crate::attr::Spanned;
use crate::model::{Codec, FieldModel};
use crate::ty::TypeKind;
use syn::spanned::Spanned as _;

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

    pub(super) fn check_separator(&self, codec: &Codec, sep: &Spanned<u8>) {
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
        }
        match codec {
            Codec::Part => self.cx.error_spanned_by(
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
            Codec::Text { .. } if sep.value.is_ascii_digit() => self.cx.error_at(
                sep.span,
                format!(
                    "the separator '{s}' is a digit, which field `{name}` (#[text]) writes; \
                     choose a separator that is not a digit, such as \"_\""
                ),
            ),
            Codec::DescTs { text: false } => self.cx.error_at(
                self.attrs.desc_ts.unwrap_or_else(|| self.ty.span()),
                format!(
                    "field `{name}` is an 8-byte binary timestamp, whose bytes can include the \
                     separator '{s}'; add #[text] to write it as 19 digits"
                ),
            ),
            Codec::DescTs { text: true } if sep.value.is_ascii_digit() => self.cx.error_at(
                sep.span,
                format!(
                    "the separator '{s}' is a digit, which field `{name}` (#[desc_ts] #[text]) \
                     writes; choose a separator that is not a digit, such as \"_\""
                ),
            ),
            Codec::TextDate { .. } | Codec::TextUuid | Codec::TextDecimal { .. } => {
                let b = sep.value;
                let writes = match codec {
                    Codec::TextUuid => {
                        b.is_ascii_digit() || (b'a'..=b'f').contains(&b) || b == b'-'
                    }
                    Codec::TextDecimal { .. } => b.is_ascii_digit() || b == b'.',
                    _ => {
                        let literals = self
                            .attrs
                            .text
                            .as_ref()
                            .and_then(|t| t.value.format.as_ref())
                            .and_then(|f| super::date_format::check(&f.value).ok())
                            .map_or(Vec::new(), |i| i.literals);
                        b.is_ascii_digit() || literals.contains(&b)
                    }
                };
                if writes {
                    self.cx.error_at(
                        sep.span,
                        format!(
                            "the separator '{s}' is a character field `{name}`'s text can \
                             hold; choose one it never writes, such as \"_\" or \"|\""
                        ),
                    );
                }
            }
            _ => {}
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
