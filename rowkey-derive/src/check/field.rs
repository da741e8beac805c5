//! The codec of one field: which attribute picks it, and whether the
//! attributes agree with each other and with the field's type.

use crate::attr::{self, FieldAttrs, Spanned, StructAttrs};
use crate::ctxt::Ctxt;
use crate::model::{FieldCodec, Framing, Reverse, Side};
use crate::ty::TypeKind;
use proc_macro2::Span;
use rowkey_core::codec::desc::DESC_TS_DIGITS;
use rowkey_core::layout::rules::MAX_TEXT_DIGITS;
use rowkey_core::HBASE_MAX_KEY_LEN;
use syn::Type;

/// The checks of one field, with what they need to word their errors.
pub(super) struct FieldCheck<'c> {
    pub(super) cx: &'c Ctxt,
    pub(super) name: String,
    /// The declared type: errors about it span all of it (`&'a str`).
    pub(super) ty: &'c Type,
    /// The declared type, or `T` of `Option<T>`.
    pub(super) value_ty: &'c Type,
    pub(super) kind: TypeKind,
    pub(super) attrs: &'c FieldAttrs,
}

impl FieldCheck<'_> {
    /// Picks the codec from the attributes and the type; errors on
    /// attributes that contradict each other or the type.
    pub(super) fn codec(&self, last: bool, st: &StructAttrs) -> Option<FieldCodec> {
        let a = self.attrs;
        let name = &self.name;
        if self.kind == TypeKind::PlatformInt {
            self.cx.error_spanned_by(
                self.ty,
                format!(
                    "field `{name}`: usize/isize change width with the platform, so the \
                     stored key would too; use u64/i64 (or u32/i32)"
                ),
            );
            return None;
        }
        if a.malformed {
            // Its error is reported; a guess at the codec would only add
            // follow-on errors ("no length bound" under a broken #[pad]).
            return None;
        }
        if let Some(ts) = a.desc_ts {
            return self.desc_ts_codec(ts);
        }
        if let Some(text) = &a.text {
            return self.text_codec(text);
        }
        if let Some(pad) = &a.pad {
            if let Some(m) = &a.max_len {
                self.cx.error_at(
                    m.span,
                    "#[max_len] conflicts with #[pad]: the pad width already bounds the field; \
                     keep one",
                );
            }
            return self.pad_codec(pad, st);
        }
        if let Some(max) = &a.max_len {
            return self.max_len_codec(max, last, st);
        }
        if self.kind.is_bytes() {
            self.cx.error_spanned_by(
                self.ty,
                format!(
                    "field `{name}` has no length bound, so the key would have no MAX_LEN; add \
                     #[max_len(N)] (up to N bytes) or #[pad(width = N)] (always N bytes)"
                ),
            );
            return None;
        }
        if let Some(r) = &a.reverse {
            self.cx.error_at(
                r.span,
                format!(
                    "#[reverse] works on text, bytes and #[text] integers; field `{name}` is \
                     binary. For digits back to front write #[text(width = N)] #[reverse]"
                ),
            );
        }
        Some(FieldCodec::Binary)
    }

    /// `#[other_name]`, when present, contradicts `#[what]`: an error at it.
    fn not_with(&self, what: &str, other: Option<Span>, other_name: &str, why: &str) {
        if let Some(o) = other {
            self.cx.error_at(
                o,
                format!(
                    "#[{other_name}] conflicts with #[{what}] on one field: {why}; remove \
                     #[{other_name}]"
                ),
            );
        }
    }

    fn desc_ts_codec(&self, ts: Span) -> Option<FieldCodec> {
        let a = self.attrs;
        let ok_type = matches!(self.kind, TypeKind::Int { bits: 64, .. } | TypeKind::Other);
        if !ok_type {
            self.cx.error_at(
                ts,
                format!(
                    "#[desc_ts] needs an i64 or u64 timestamp, but field `{}` is not one",
                    self.name
                ),
            );
        }
        self.not_with(
            "desc_ts",
            a.desc,
            "desc",
            "#[desc_ts] already sorts newest first",
        );
        self.not_with(
            "desc_ts",
            a.pad.as_ref().map(|p| p.span),
            "pad",
            "a timestamp is not padded text",
        );
        self.not_with(
            "desc_ts",
            a.max_len.as_ref().map(|m| m.span),
            "max_len",
            "a timestamp has a fixed width",
        );
        self.not_with(
            "desc_ts",
            a.reverse.as_ref().map(|r| r.span),
            "reverse",
            "a reversed timestamp keeps no order",
        );
        let mut text = false;
        if let Some(t) = &a.text {
            text = true;
            if let Some(w) = t.value.width {
                if w.value != DESC_TS_DIGITS {
                    self.cx.error_at(
                        w.span,
                        format!(
                            "a #[desc_ts] #[text] field is always {DESC_TS_DIGITS} digits \
                             (the digits of i64::MAX - ts); remove `width` or set it to \
                             {DESC_TS_DIGITS}"
                        ),
                    );
                }
            }
        }
        ok_type.then_some(FieldCodec::DescTimestamp { text })
    }

    fn text_codec(&self, text: &Spanned<attr::TextAttr>) -> Option<FieldCodec> {
        if let Some(codec) = self.text_form_codec(text, self.value_ty) {
            return codec;
        }
        let a = self.attrs;
        let name = &self.name;
        match self.kind {
            TypeKind::Int { .. } | TypeKind::Other => {}
            _ => {
                let what = if self.kind.is_bytes() {
                    "it is text or bytes already; bound it with #[max_len(N)] or #[pad(width = N)]"
                } else {
                    "it is not an integer"
                };
                self.cx.error_at(
                    text.span,
                    format!("#[text] writes integers as decimal digits; field `{name}`: {what}"),
                );
                return None;
            }
        }
        self.not_with(
            "text",
            a.pad.as_ref().map(|p| p.span),
            "pad",
            "#[text(width = N)] already zero-pads digits to N",
        );
        self.not_with(
            "text",
            a.max_len.as_ref().map(|m| m.span),
            "max_len",
            "#[text(width = N)] already fixes the width",
        );
        let max_digits = self.kind.max_digits();
        let width = match (text.value.width, max_digits) {
            (Some(w), _) if w.value == 0 => {
                self.cx
                    .error_at(w.span, "text width must be at least 1 digit");
                return None;
            }
            (Some(w), Some(max)) if w.value > max => {
                self.cx.error_at(
                    w.span,
                    format!(
                        "width {} is more digits than field `{name}`'s type ever has ({max}); \
                         use #[text(width = {max})] or less",
                        w.value
                    ),
                );
                return None;
            }
            (Some(w), None) if w.value > MAX_TEXT_DIGITS => {
                self.cx.error_at(
                    w.span,
                    format!(
                        "width {} is more digits than any integer type has ({MAX_TEXT_DIGITS}, \
                         u128); use #[text(width = {MAX_TEXT_DIGITS})] or less",
                        w.value
                    ),
                );
                return None;
            }
            (Some(w), _) => w.value,
            (None, Some(max)) => max,
            (None, None) => {
                self.cx.error_at(
                    text.span,
                    format!(
                        "field `{name}`: give the number of digits, #[text(width = N)]; the \
                         type is not a plain integer type the derive can size"
                    ),
                );
                return None;
            }
        };
        let reverse = match &a.reverse {
            Some(r) if r.value.segments.is_some() => {
                self.cx.error_at(
                    r.span,
                    "#[reverse(segments = ..)] is for text; digits reverse with plain #[reverse]",
                );
                false
            }
            Some(_) => true,
            None => false,
        };
        Some(FieldCodec::Text { width, reverse })
    }

    fn reverse(&self) -> Reverse {
        match &self.attrs.reverse {
            None => Reverse::No,
            Some(r) => match r.value.segments {
                None => Reverse::Chars,
                Some(s) => Reverse::Segments(s.value),
            },
        }
    }

    fn require_bytes(&self, span: Span, attr: &str) -> bool {
        if matches!(
            self.kind,
            TypeKind::Int { .. } | TypeKind::Bool | TypeKind::Char | TypeKind::ByteArray { .. }
        ) {
            let fix = if matches!(self.kind, TypeKind::Int { .. }) {
                "; for zero-padded numbers use #[text(width = N)]"
            } else {
                ""
            };
            self.cx.error_at(
                span,
                format!(
                    "#[{attr}] is for text and byte fields (String, &str, Vec<u8>, &[u8]); field \
                     `{}` is not one{fix}",
                    self.name
                ),
            );
            return false;
        }
        true
    }

    fn pad_codec(&self, pad: &Spanned<attr::PadAttr>, st: &StructAttrs) -> Option<FieldCodec> {
        if !self.require_bytes(pad.span, "pad") {
            return None;
        }
        let width = pad.value.width?;
        if width.value == 0 {
            self.cx.error_at(
                width.span,
                "pad width must be at least 1 byte (it is the field's fixed size)",
            );
            return None;
        }
        if width.value > HBASE_MAX_KEY_LEN {
            self.cx.error_at(
                width.span,
                format!(
                    "pad width {} exceeds HBase's {HBASE_MAX_KEY_LEN}-byte row key limit",
                    width.value
                ),
            );
            return None;
        }
        let fill = pad.value.fill.map_or(0, |f| f.value);
        if let (Some(sep), Some(f)) = (&st.separator, &pad.value.fill) {
            if sep.value == f.value {
                self.cx.error_at(
                    f.span,
                    format!(
                        "the fill byte is the struct's separator '{}', so a padded field would \
                         look like several fields; choose another fill",
                        sep.value as char
                    ),
                );
            }
        }
        let left = pad.value.left.is_some_and(|l| l.value);
        Some(FieldCodec::Bytes {
            framing: Framing::Padded {
                width: width.value,
                fill,
                side: if left { Side::Left } else { Side::Right },
            },
            max_len: width.value,
            reverse: self.reverse(),
        })
    }

    fn max_len_codec(
        &self,
        max: &Spanned<Spanned<usize>>,
        last: bool,
        st: &StructAttrs,
    ) -> Option<FieldCodec> {
        if !self.require_bytes(max.span, "max_len") {
            return None;
        }
        let n = max.value;
        if n.value == 0 {
            self.cx.error_at(n.span, "max_len must be at least 1 byte");
            return None;
        }
        if n.value > HBASE_MAX_KEY_LEN {
            self.cx.error_at(
                n.span,
                format!(
                    "max_len {} exceeds HBase's {HBASE_MAX_KEY_LEN}-byte row key limit",
                    n.value
                ),
            );
            return None;
        }
        let framing = if st.separator.is_some() {
            Framing::Delimited
        } else if last && self.attrs.desc.is_none() {
            // The key's end delimits the last field; inverted (descending)
            // bytes still need a terminator to keep shorter values last.
            Framing::Raw
        } else {
            Framing::Escaped
        };
        Some(FieldCodec::Bytes {
            framing,
            max_len: n.value,
            reverse: self.reverse(),
        })
    }
}
