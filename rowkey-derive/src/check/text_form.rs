//! `#[text]` on the types that have a text form of their own: dates and
//! times with `format = ".."`, `Decimal` with `width` and `scale`, and
//! `Uuid` (36 characters).

use super::field::FieldCheck;
use crate::attr::{Spanned, TextAttr};
use crate::model::FieldCodec;
use crate::ty::{self, TypeKind};
use rowkey_core::codec::DateFormat;
use rowkey_core::layout::rules::{MAX_DECIMAL_DIGITS, MAX_DECIMAL_SCALE, UUID_TEXT_WIDTH};
use syn::Type;

/// Date types (no time of day) by their name as written.
fn is_date_type(ty: &Type) -> bool {
    matches!(ty::last_ident(ty).as_deref(), Some("NaiveDate" | "Date"))
}

impl FieldCheck<'_> {
    /// The codec of a `#[text]` that is a text form, `None` when the field
    /// is an integer's `#[text]` instead; `Some(None)` after an error.
    pub(super) fn text_form_codec(
        &self,
        text: &Spanned<TextAttr>,
        value_ty: &Type,
    ) -> Option<Option<FieldCodec>> {
        let t = &text.value;
        let name = &self.name;
        if let Some(format) = &t.format {
            for (opt, span) in [
                ("width", t.width.map(|w| w.span)),
                ("scale", t.scale.map(|s| s.span)),
            ] {
                if let Some(span) = span {
                    self.cx.error_at(
                        span,
                        format!("`{opt}` does not go with `format`: the format fixes the width"),
                    );
                    return Some(None);
                }
            }
            if !matches!(self.kind, TypeKind::Other) {
                self.cx.error_at(
                    format.span,
                    format!(
                        "#[text(format = \"..\")] writes dates and times; field `{name}` is not \
                         a date or time type (chrono, time or jiff)"
                    ),
                );
                return Some(None);
            }
            // Core's parser: the one the layout and the interpreter use.
            let parsed = match DateFormat::parse(&format.value) {
                Ok(parsed) => parsed,
                Err(why) => {
                    // Name the specifier at fault, as written.
                    let at = format.value.get(why.offset..).unwrap_or_default();
                    let item: String = match at.strip_prefix('%') {
                        Some(rest) => std::iter::once('%').chain(rest.chars().take(1)).collect(),
                        None => at.chars().take(1).collect(),
                    };
                    let item = if item.is_empty() {
                        String::new()
                    } else {
                        format!("`{item}`: ")
                    };
                    self.cx.error_at(
                        format.span,
                        format!(
                            "#[text(format = {:?})] on field `{name}`: {item}{}",
                            format.value, why.reason
                        ),
                    );
                    return Some(None);
                }
            };
            if parsed.has_time_of_day() && is_date_type(value_ty) {
                self.cx.error_at(
                    format.span,
                    format!(
                        "field `{name}` is a date, which has no time of day for this format's \
                         hours, minutes or seconds; drop them or use a date-time type"
                    ),
                );
                return Some(None);
            }
            self.refuse_reverse_and_desc(text, "a date format");
            return Some(Some(FieldCodec::DateText { format: parsed }));
        }
        if let Some(scale) = t.scale {
            let Some(width) = t.width else {
                self.cx.error_at(
                    scale.span,
                    format!(
                        "field `{name}`: a decimal's text needs its width too, \
                         #[text(width = W, scale = {})] (W characters, the `.` included)",
                        scale.value
                    ),
                );
                return Some(None);
            };
            if scale.value > MAX_DECIMAL_SCALE as usize {
                self.cx.error_at(
                    scale.span,
                    format!(
                        "scale {} is more decimals than a Decimal holds ({MAX_DECIMAL_SCALE})",
                        scale.value
                    ),
                );
                return Some(None);
            }
            let point = usize::from(scale.value > 0);
            if width.value <= scale.value + point {
                self.cx.error_at(
                    width.span,
                    format!(
                        "width {} leaves no digit before the point: {} decimals{} need a width \
                         of at least {}",
                        width.value,
                        scale.value,
                        if point == 1 { " and the `.`" } else { "" },
                        scale.value + point + 1
                    ),
                );
                return Some(None);
            }
            if width.value - point > MAX_DECIMAL_DIGITS {
                self.cx.error_at(
                    width.span,
                    format!(
                        "width {} is more than {MAX_DECIMAL_DIGITS} digits, more than a Decimal \
                         ever has",
                        width.value
                    ),
                );
                return Some(None);
            }
            if !matches!(self.kind, TypeKind::Other) {
                self.cx.error_at(
                    scale.span,
                    format!(
                        "`scale` is for rust_decimal::Decimal fields; field `{name}` is not one \
                         (an integer's #[text] has no decimals)"
                    ),
                );
                return Some(None);
            }
            self.refuse_reverse_and_desc(text, "a decimal's text");
            return Some(Some(FieldCodec::DecimalText {
                width: width.value,
                scale: scale.value as u32,
            }));
        }
        if ty::last_ident(value_ty).as_deref() == Some("Uuid") {
            if let Some(w) = t.width.filter(|w| w.value != UUID_TEXT_WIDTH) {
                self.cx.error_at(
                    w.span,
                    format!(
                        "a UUID's text is always {UUID_TEXT_WIDTH} characters \
                         (8-4-4-4-12 lowercase hex); remove `width`"
                    ),
                );
                return Some(None);
            }
            self.refuse_reverse_and_desc(text, "a UUID's text");
            return Some(Some(FieldCodec::UuidText));
        }
        None
    }

    fn refuse_reverse_and_desc(&self, text: &Spanned<TextAttr>, what: &str) {
        let _ = text;
        if let Some(r) = &self.attrs.reverse {
            self.cx.error_at(
                r.span,
                format!("#[reverse] does not apply to {what}: reversed text keeps no order"),
            );
        }
        if let Some(d) = self.attrs.desc {
            self.cx.error_at(
                d,
                format!(
                    "#[desc] is not supported on {what} yet; use the binary form (no #[text]) \
                     with #[desc], or #[desc_ts] on a date-time"
                ),
            );
        }
        for (span, other) in [
            (self.attrs.pad.as_ref().map(|p| p.span), "pad"),
            (self.attrs.max_len.as_ref().map(|m| m.span), "max_len"),
        ] {
            if let Some(span) = span {
                self.cx.error_at(
                    span,
                    format!("#[{other}] conflicts with #[text] on one field: {what} has a fixed width; remove #[{other}]"),
                );
            }
        }
    }
}
